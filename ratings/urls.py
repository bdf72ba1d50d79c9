from django.urls import include, path

app_name = "ratings"

urlpatterns = [
    path("cards/", include("ratings.gorbunov.urls")),
    path("mahjong/", include("ratings.mahjong.urls")),
]
