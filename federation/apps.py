from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from federation.roles import ensure_roles

        post_migrate.connect(ensure_roles, dispatch_uid="federation.ensure_roles")
        post_migrate.connect(_setup_rating_lists, sender=self, dispatch_uid="federation.setup_rating_lists")


def _setup_rating_lists(**kwargs) -> None:
    """The federation's default rating lists and their schedules, created once (staff may change them later)."""
    from ratings.gorbunov.services import gorbunov_setup_defaults
    from ratings.mahjong.services import mahjong_setup_defaults

    gorbunov_setup_defaults()
    mahjong_setup_defaults(**kwargs)
