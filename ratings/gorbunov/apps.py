from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class GorbunovConfig(AppConfig):
    name = "ratings.gorbunov"
    label = "gorbunov"
    verbose_name = _("Gorbunov rating")

    def ready(self) -> None:
        # This app has no models of its own, so Django sends it no post_migrate: the lists' app does.
        post_migrate.connect(_setup_defaults, sender=apps.get_app_config("ratings"), dispatch_uid="gorbunov.defaults")


def _setup_defaults(**kwargs) -> None:
    """The default Gorbunov lists and their weekly schedule, created once (staff may change them later)."""
    from ratings.gorbunov.services import gorbunov_setup_defaults

    gorbunov_setup_defaults()
