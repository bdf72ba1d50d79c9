"""Preferans games and deals, rated per deal (rules/preferans.md)."""

from django.urls import path

from ratings.preferans import views

app_name = "preferans"

urlpatterns = [
    path("", views.index, name="index"),
    path("games/", views.games, name="games"),
    path("games/<int:pk>/", views.game_detail, name="game_detail"),
    path("calculator/", views.calculator, name="calculator"),
    path("calculator/data/", views.calculator_data, name="calculator_data"),
]
