"""Celery tasks of the Gorbunov lists: each a call into ``ratings.gorbunov.services``, recorded as a ``JobRun``."""

import datetime as dt

from celery import shared_task

from ratings.gorbunov import services
from ratings.gorbunov.jobs import publication_outcome
from ratings.jobs import job_execute


@shared_task(bind=True, name="ratings.gorbunov.publish_weekly")
def gorbunov_publish_weekly(self) -> list[dict]:
    """The Monday job (beat: every Monday at 06:00 in the federation's time zone)."""
    return job_execute(
        self,
        kind="gorbunov_weekly",
        args=[],
        call=lambda progress: [publication_outcome(o) for o in services.gorbunov_publish_all(written=progress.written)],
    )


@shared_task(bind=True, name="ratings.gorbunov.publish")
def gorbunov_publish(self, rating_list_id: int, week: str | None = None) -> dict:
    day = dt.date.fromisoformat(week) if week else None
    return job_execute(
        self,
        kind="gorbunov_publish",
        args=[rating_list_id, week] if week else [rating_list_id],
        call=lambda progress: publication_outcome(
            services.gorbunov_publish(rating_list_id=rating_list_id, week=day, progress=progress).as_dict()
        ),
    )


@shared_task(bind=True, name="ratings.gorbunov.rebuild")
def gorbunov_rebuild(self, rating_list_id: int) -> dict:
    return job_execute(
        self,
        kind="gorbunov_rebuild",
        args=[rating_list_id],
        call=lambda progress: publication_outcome(
            services.gorbunov_rebuild(rating_list_id=rating_list_id, progress=progress).as_dict()
        ),
    )
