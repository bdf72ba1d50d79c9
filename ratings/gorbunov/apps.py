from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class GorbunovConfig(AppConfig):
    name = "ratings.gorbunov"
    label = "gorbunov"
    verbose_name = _("Gorbunov rating")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``); it takes the slug.
    rating_list_pages = {"gorbunov": "ratings:gorbunov:list_detail"}

    def ready(self) -> None:
        post_migrate.connect(_setup_defaults, sender=self, dispatch_uid="gorbunov.setup_defaults")


def _setup_defaults(**kwargs) -> None:
    """The default Gorbunov lists and the Monday publication's schedule, created once (staff may change them)."""
    from ratings.gorbunov.services import gorbunov_setup_defaults

    gorbunov_setup_defaults()
