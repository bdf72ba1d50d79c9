"""Celery tasks of the Gorbunov lists: each a one-line call into ``ratings.gorbunov.services``."""

import datetime as dt

from celery import shared_task

from ratings.gorbunov import services
from ratings.progress import task_reporter


@shared_task(name="ratings.gorbunov.publish_weekly")
def gorbunov_publish_weekly() -> list[dict]:
    """The Monday job (beat: every Monday at 06:00 in the federation's time zone)."""
    return services.gorbunov_publish_all()


@shared_task(bind=True, name="ratings.gorbunov.publish")
def gorbunov_publish(self, rating_list_id: int, week: str | None = None) -> dict:
    day = dt.date.fromisoformat(week) if week else None
    return services.gorbunov_publish(rating_list_id=rating_list_id, week=day, progress=task_reporter(self)).as_dict()


@shared_task(bind=True, name="ratings.gorbunov.rebuild")
def gorbunov_rebuild(self, rating_list_id: int) -> dict:
    return services.gorbunov_rebuild(rating_list_id=rating_list_id, progress=task_reporter(self)).as_dict()
