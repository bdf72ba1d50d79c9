from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class DirsConfig(AppConfig):
    name = "ratings.dirs"
    label = "dirs"
    verbose_name = _("DIRS, the Go club rating")
    #: The public page of a list of each engine kept here (``RatingList.get_absolute_url``).
    rating_list_pages = {"dirs": "dirs:leaderboard"}

    def ready(self) -> None:
        post_migrate.connect(_setup_defaults, sender=self, dispatch_uid="dirs.setup_defaults")


def _setup_defaults(**kwargs) -> None:
    from .services import dirs_setup_defaults

    dirs_setup_defaults(**kwargs)
