"""Celery tasks of the mahjong lists; each is one call into ``ratings.mahjong.services``, recorded as a ``JobRun``,
and takes ids and ISO dates."""

from __future__ import annotations

from datetime import date

from celery import shared_task
from django.utils import timezone

from ratings.jobs import job_execute
from ratings.mahjong import services
from ratings.models import RatingList


@shared_task(bind=True, name="ratings.mahjong.tasks.mahjong_daily")
def mahjong_daily(self, today: str | None = None) -> dict[str, str]:
    """Every night (django-celery-beat, 03:00 in the federation's time zone): today's lists if anything changed."""

    day = date.fromisoformat(today) if today else timezone.localdate()
    return job_execute(
        self, kind="mahjong_daily", args=[day.isoformat()], call=lambda progress: services.mahjong_daily(today=day)
    )


@shared_task(bind=True, name="ratings.mahjong.tasks.mahjong_rebuild")
def mahjong_rebuild(self, list_ids: list[int], start: str, end: str) -> dict[str, int]:
    """Staff rebuild a range of dates; the run's record shows how far it got (and, on a failure, which dates)."""
    return job_execute(
        self,
        kind="mahjong_rebuild",
        args=[list_ids, start, end],
        call=lambda progress: services.mahjong_rebuild(
            rating_lists=RatingList.objects.filter(pk__in=list_ids).order_by("pk"),
            start=date.fromisoformat(start),
            end=date.fromisoformat(end),
            progress=progress,
            written=progress.written,
        ),
    )
