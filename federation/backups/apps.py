from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class BackupsConfig(AppConfig):
    name = "federation.backups"
    label = "backups"
    verbose_name = _("Backups")

    def ready(self) -> None:
        # Sent once per migrate for the app that keeps the schedules (this one has no models, so none is sent for it).
        post_migrate.connect(
            _setup_schedule, sender=apps.get_app_config("django_celery_beat"), dispatch_uid="backups.setup_schedule"
        )


def _setup_schedule(**kwargs) -> None:
    """The nightly backup's schedule, created once (staff may move or pause it in the admin)."""
    from federation.backups.services import backup_setup_schedule

    backup_setup_schedule()
