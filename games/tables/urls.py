from django.urls import path

from . import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("welcome/", views.welcome, name="welcome"),
    path("welcome/banner/hide/", views.hide_banner, name="hide_banner"),
    path("accounts/signup/", views.signup, name="signup"),
    path("tables/new/", views.create_table, name="create_table"),
    path("t/<slug:slug>/", views.table_page, name="table"),
    path("t/<slug:slug>/settings/", views.table_settings, name="table_settings"),
    path("t/<slug:slug>/seats/<int:number>/take/", views.take_seat, name="take_seat"),
    path("t/<slug:slug>/seats/<int:number>/remove/", views.remove_player, name="remove_player"),
    path("t/<slug:slug>/seats/<int:number>/bot/", views.seat_bot, name="seat_bot"),
    path("t/<slug:slug>/seats/<int:number>/stand-in/", views.hand_to_bot, name="hand_to_bot"),
    path("t/<slug:slug>/reclaim/", views.reclaim_seat, name="reclaim_seat"),
    path("t/<slug:slug>/leave/", views.leave_seat, name="leave_seat"),
    path("t/<slug:slug>/close/", views.close_table, name="close_table"),
    path("t/<slug:slug>/links/", views.rotate_links, name="rotate_links"),
    path("t/<slug:slug>/start/", views.start_game, name="start_game"),
    path("t/<slug:slug>/clocks/", views.pause_clocks, name="pause_clocks"),
    path("t/<slug:slug>/setup/", views.setup_seat, name="setup_seat"),
    path("t/<slug:slug>/setup/change/", views.unsetup_seat, name="unsetup_seat"),
    path("t/<slug:slug>/log/", views.game_log, name="game_log"),
    path("t/<slug:slug>/replay/", views.replay, name="replay"),
    path("t/<slug:slug>/rematch/", views.rematch, name="rematch"),
    path("join/<str:token>/", views.join_by_invite, name="join"),
    path("watch/<str:token>/", views.watch_by_link, name="watch"),
    path("healthz", views.healthz, name="healthz"),
    path("my-games/", views.my_games, name="my_games"),
]
