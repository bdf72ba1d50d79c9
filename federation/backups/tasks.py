"""The nightly backup as a Celery task, recorded as a ``JobRun`` like every long job (``ratings.jobs``)."""

from celery import shared_task

from federation.backups import services
from ratings.jobs import job_execute


@shared_task(bind=True, name="federation.backups.backup_nightly")
def backup_nightly(self) -> dict:
    """Beat: every night at 04:30 in the federation's time zone (``services.backup_setup_schedule``)."""
    return job_execute(self, kind="backup", args=[], call=lambda progress: services.backup_create())
