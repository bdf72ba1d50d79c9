"""The daily job (`rules/mahjong.md`, "When lists change"): a snapshot when a tournament is added or corrected or an
A steps down; none on a quiet day; nothing new on a second run the same day. Once in-process, once through a real
Celery worker and Redis."""

import datetime

import pytest
from django.db.models import Max

from ratings.mahjong import services, tasks
from ratings.models import RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament

END_1 = datetime.date(2024, 3, 10)
END_2 = datetime.date(2024, 6, 1)


def _field():
    services.mahjong_setup_defaults()
    players = [PlayerFactory() for _ in range(16)]
    mahjong_tournament(players=players, end=END_1)
    mahjong_tournament(players=players[::-1], end=END_2, hanchans=10)
    return players


def _snapshots(slug="mahjong-rr"):
    return list(
        RatingSnapshot.objects.filter(rating_list__slug=slug).order_by("as_of").values_list("as_of", "computed_at")
    )


def _scenario(run):
    """``run(date)`` runs the daily job for that date and returns its outcome."""
    players = _field()
    first = datetime.date(2025, 2, 1)
    assert run(first)["mahjong-rr"] == "computed"
    assert [d for d, _ in _snapshots()] == [first]
    computed_at = _snapshots()[0][1]

    # A second run the same day changes nothing.
    assert run(first) == {"mahjong-rr": "unchanged", "mahjong-crr": "unchanged", "mahjong-online": "unchanged"}
    assert _snapshots() == [(first, computed_at)]

    # A quiet day makes none.
    assert run(first + datetime.timedelta(days=1))["mahjong-rr"] == "unchanged"
    assert len(_snapshots()) == 1

    # A new tournament makes one.
    new = datetime.date(2025, 2, 10)
    mahjong_tournament(players=players[:10] + [PlayerFactory() for _ in range(6)], end=new - datetime.timedelta(1))
    assert run(new)["mahjong-rr"] == "computed"
    assert [d for d, _ in _snapshots()] == [first, new]

    # The first tournament's A steps down on its anniversary (2025-03-10: 85.71 %): one more snapshot.
    assert run(datetime.date(2025, 3, 9))["mahjong-rr"] == "unchanged"
    decay = datetime.date(2025, 3, 10)
    assert run(decay)["mahjong-rr"] == "computed"
    snapshot = RatingSnapshot.objects.get(rating_list__slug="mahjong-rr", as_of=decay)
    a_values = {row["end"]: row["a"] for row in snapshot.summary["counted"]}
    assert a_values["2024-03-10"] == 85.71
    assert [d for d, _ in _snapshots()] == [first, new, decay]
    # Past snapshots stay as they were.
    assert _snapshots()[0] == (first, computed_at)

    # A correction (a changed place) makes one, the same day a second run does not.
    corrected = datetime.date(2025, 3, 20)
    from tournaments.models import Result

    result = Result.objects.filter(tournament__end_date=END_2).order_by("place").first()
    result.place = 2
    result.save()
    assert run(corrected)["mahjong-rr"] == "computed"
    assert run(corrected)["mahjong-rr"] == "unchanged"
    assert RatingSnapshot.objects.filter(rating_list__slug="mahjong-rr").count() == 4


@pytest.mark.django_db
def test_daily_job_in_process():
    _scenario(lambda day: services.mahjong_daily(today=day))


@pytest.mark.celery_worker
def test_daily_job_through_a_celery_worker(celery_worker):
    def run(day):
        return tasks.mahjong_daily.apply_async((day.isoformat(),), queue=celery_worker).get(timeout=60)

    _scenario(run)
    assert RatingSnapshot.objects.aggregate(last=Max("as_of"))["last"] == datetime.date(2025, 3, 20)


@pytest.mark.django_db
def test_setup_defaults_is_idempotent_and_schedules_the_night():
    from django_celery_beat.models import PeriodicTask

    services.mahjong_setup_defaults()
    services.mahjong_setup_defaults()
    task = PeriodicTask.objects.get(name=services.DAILY_TASK_NAME)
    assert task.task == "ratings.mahjong.tasks.mahjong_daily"
    assert (task.crontab.hour, task.crontab.minute) == ("3", "0")
    from ratings.models import RatingList

    assert set(RatingList.objects.values_list("slug", flat=True)) >= {"mahjong-rr", "mahjong-crr", "mahjong-online"}
    assert RatingList.objects.get(slug="mahjong-online").params["part_b_count"] == 3


@pytest.mark.django_db
def test_rebuild_writes_only_dates_where_something_changes():
    _field()
    from ratings.models import RatingList

    rr = RatingList.objects.get(slug="mahjong-rr")
    services.mahjong_daily(today=datetime.date(2024, 7, 1))
    written = services.mahjong_rebuild(
        rating_lists=[rr], start=datetime.date(2024, 1, 1), end=datetime.date(2025, 12, 31)
    )
    dates = [d.isoformat() for d, _ in _snapshots()]
    # Each tournament as it ends (the first one alone lists nobody: a player needs 2), then each A step of either.
    assert dates == [
        "2024-03-10",
        "2024-06-01",
        "2025-03-10",
        "2025-05-10",
        "2025-06-01",
        "2025-07-10",
        "2025-08-01",
        "2025-09-10",
        "2025-10-01",
        "2025-11-10",
        "2025-12-01",
    ]
    assert written == {"mahjong-rr": 11}
    # The snapshot of 2024-07-01 (nothing changed that day) is gone; a second rebuild gives the same dates.
    services.mahjong_rebuild(rating_lists=[rr], start=datetime.date(2024, 1, 1), end=datetime.date(2025, 12, 31))
    assert [d.isoformat() for d, _ in _snapshots()] == dates
