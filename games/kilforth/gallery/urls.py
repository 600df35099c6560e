"""The card gallery, mounted at /cards/ by kilforth_site.urls (no app name space)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.gallery, name="cards"),
    path("<str:card_id>/", views.card, name="card"),
]
