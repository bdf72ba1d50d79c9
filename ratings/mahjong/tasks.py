"""Celery tasks of the mahjong lists; each is one call into ``ratings.mahjong.services`` and takes ids and ISO dates."""

from __future__ import annotations

from datetime import date

from celery import shared_task

from ratings.mahjong import services
from ratings.models import RatingList
from ratings.progress import task_reporter


@shared_task(name="ratings.mahjong.tasks.mahjong_daily")
def mahjong_daily(today: str | None = None) -> dict[str, str]:
    """Every night (django-celery-beat, 03:00 in the federation's time zone): today's lists if anything changed."""
    return services.mahjong_daily(today=date.fromisoformat(today) if today else None)


@shared_task(bind=True, name="ratings.mahjong.tasks.mahjong_rebuild")
def mahjong_rebuild(self, list_ids: list[int], start: str, end: str) -> dict[str, int]:
    """Staff rebuild a range of dates; the progress is the task's state, which the admin's progress page polls."""
    return services.mahjong_rebuild(
        rating_lists=RatingList.objects.filter(pk__in=list_ids).order_by("pk"),
        start=date.fromisoformat(start),
        end=date.fromisoformat(end),
        progress=task_reporter(self),
    )
