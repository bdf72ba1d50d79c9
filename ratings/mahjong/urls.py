"""Pages of the mahjong lists, under /ratings/mahjong/ (namespace ``ratings:mahjong``)."""

from django.urls import path

from ratings.mahjong import views

app_name = "mahjong"

urlpatterns = [
    path("", views.index, name="index"),
    path("calculator/", views.calculator_page, name="calculator"),
    path("calculator.json", views.calculator_json, name="calculator_json"),
    path("players/<int:pk>/", views.player, name="player"),
    path("<slug:slug>/", views.list_detail, name="list"),
    path("<slug:slug>/dates/", views.dates, name="dates"),
    path("<slug:slug>/tournaments/", views.tournaments, name="tournaments"),
]
