from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from federation.roles import ensure_roles

        post_migrate.connect(ensure_roles, dispatch_uid="federation.ensure_roles")

        from federation.versions import watch_models

        # A write to what the public pages show gives its scope a new version when it commits (federation.versions).
        watch_models()

        from federation.identity import forget_identity
        from federation.models import SiteIdentity

        post_save.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity")
        post_delete.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity_deleted")

        from federation.models import CityName, forget_city_names

        post_save.connect(forget_city_names, sender=CityName, dispatch_uid="federation.forget_city_names")
        post_delete.connect(forget_city_names, sender=CityName, dispatch_uid="federation.forget_city_names_deleted")
