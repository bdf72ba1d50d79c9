from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from federation.roles import ensure_roles

        post_migrate.connect(ensure_roles, dispatch_uid="federation.ensure_roles")
