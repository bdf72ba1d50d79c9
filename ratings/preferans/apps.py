from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PreferansConfig(AppConfig):
    name = "ratings.preferans"
    label = "preferans"
    verbose_name = _("Preferans")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``).
    rating_list_pages = {"preferans": "preferans:index"}
