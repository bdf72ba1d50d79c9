from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class MahjongConfig(AppConfig):
    name = "ratings.mahjong"
    label = "mahjong"
    verbose_name = _("Riichi mahjong")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``); it takes the slug.
    rating_list_pages = {
        "mahjong-rr": "ratings:mahjong:list",
        "mahjong-crr": "ratings:mahjong:list",
        "mahjong-online": "ratings:mahjong:list",
    }

    def ready(self) -> None:
        post_migrate.connect(_setup_defaults, sender=self, dispatch_uid="mahjong.setup_defaults")


def _setup_defaults(**kwargs) -> None:
    """The three default mahjong lists and the nightly job's schedule, created once (staff may change them)."""
    from ratings.mahjong.services import mahjong_setup_defaults

    mahjong_setup_defaults()
