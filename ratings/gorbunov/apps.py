from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GorbunovConfig(AppConfig):
    name = "ratings.gorbunov"
    label = "gorbunov"
    verbose_name = _("Gorbunov rating")
