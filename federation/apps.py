from django.apps import AppConfig
from django.db.models.signals import post_delete, post_migrate, post_save
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        from federation.api.v1.reads import bump_generation
        from federation.roles import ensure_roles
        from ratings.models import RatingList, RatingSnapshot

        post_migrate.connect(ensure_roles, dispatch_uid="federation.ensure_roles")
        # The public API keeps which publication each list shows in the cache: a publication changes it.
        for model in (RatingList, RatingSnapshot):
            post_save.connect(bump_generation, sender=model, dispatch_uid=f"api-v1-{model.__name__}-save")
            post_delete.connect(bump_generation, sender=model, dispatch_uid=f"api-v1-{model.__name__}-delete")

        from federation.identity import forget_identity
        from federation.models import SiteIdentity

        post_save.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity")
        post_delete.connect(forget_identity, sender=SiteIdentity, dispatch_uid="federation.forget_identity_deleted")
