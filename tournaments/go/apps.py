from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GoConfig(AppConfig):
    name = "tournaments.go"
    label = "go"
    verbose_name = _("Go")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``).
    rating_list_pages = {"dirs": "go:dirs_leaderboard"}
