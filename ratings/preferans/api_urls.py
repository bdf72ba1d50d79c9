from django.urls import path

from ratings.preferans import api

app_name = "preferans_api"

urlpatterns = [
    path("games/", api.game_post, name="games"),
    path("games/<int:pk>/deals/", api.deals_post, name="game_deals"),
    path("games/<int:pk>/finish/", api.game_finish_post, name="game_finish"),
    path("deals/", api.deals_post, name="deals"),
]
