"""DIRS, the Go club rating: its pages live beside the Go pages, at /go/dirs/ (federation.urls)."""

from django.urls import path

from . import views

app_name = "dirs"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("games/new/", views.game_new, name="game_new"),
    path("ratings/new/", views.initial, name="initial"),
    path("handicap.json", views.handicap_json, name="handicap_json"),
]
