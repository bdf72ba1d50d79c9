from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class PreferansConfig(AppConfig):
    name = "ratings.preferans"
    label = "preferans"
    verbose_name = _("Preferans")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``).
    rating_list_pages = {"preferans": "preferans:index"}

    def ready(self) -> None:
        post_migrate.connect(_setup_defaults, sender=self, dispatch_uid="preferans.setup_defaults")


def _setup_defaults(**kwargs) -> None:
    """The preferans rating list, created once after ``migrate`` (staff may rename it later)."""
    from ratings.preferans.services import preferans_setup_defaults

    preferans_setup_defaults()
