from django.urls import path

from federation import views

app_name = "federation"

urlpatterns = [
    path("", views.home, name="home"),
    path("players/", views.player_list_view, name="player_list"),
    path("players/<int:pk>/", views.player_detail, name="player_detail"),
    path("clubs/", views.club_list_view, name="club_list"),
    path("clubs/<int:pk>/", views.club_detail, name="club_detail"),
    path("about/", views.about, name="about"),
    path("contact/", views.contact, name="contact"),
    path("identity.css", views.identity_css, name="identity_css"),
    path("logo", views.identity_logo, name="identity_logo"),
]
