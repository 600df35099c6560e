from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from games.knightfall import gallery as knightfall_gallery
from games.tables import views as tables_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", tables_views.log_in, name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("cards/knightfall/", knightfall_gallery.gallery, name="knightfall_cards"),
    path("cards/", include("games.kilforth.gallery.urls")),
    path("", include("games.tables.urls")),
]
