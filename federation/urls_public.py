from django.urls import path

from federation import views

app_name = "federation"

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.player_list_view, name="player_list"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
]
