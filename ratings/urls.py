from django.urls import include, path

from ratings import views

app_name = "ratings"

urlpatterns = [
    path("cards/", include("ratings.gorbunov.urls")),
    path("mahjong/", include("ratings.mahjong.urls")),
    path("how/", views.guide_index, name="guide_index"),
    path("how/<slug:slug>/", views.guide, name="guide"),
]
