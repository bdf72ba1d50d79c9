from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class MahjongConfig(AppConfig):
    name = "ratings.mahjong"
    label = "mahjong"
    verbose_name = _("Riichi mahjong")

    def ready(self) -> None:
        # This app has no models of its own, so Django sends it no post_migrate: the lists' app does.
        post_migrate.connect(_setup_defaults, sender=apps.get_app_config("ratings"), dispatch_uid="mahjong.defaults")


def _setup_defaults(**kwargs) -> None:
    """The three mahjong lists and their nightly schedule, created once (staff may change them later)."""
    from ratings.mahjong.services import mahjong_setup_defaults

    mahjong_setup_defaults(**kwargs)
