from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from federation.roles import ensure_roles

        post_migrate.connect(ensure_roles, dispatch_uid="federation.ensure_roles")

        from federation.changes import install_triggers, watch_writes

        # Once per migrate (sent for this app after every migration ran): the project's tables get their trigger.
        post_migrate.connect(install_triggers, sender=self, dispatch_uid="federation.install_triggers")
        connection_created.connect(watch_writes, dispatch_uid="federation.watch_writes")

        from federation.identity import forget_identity
        from federation.models import SiteIdentity

        post_save.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity")
        post_delete.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity_deleted")
