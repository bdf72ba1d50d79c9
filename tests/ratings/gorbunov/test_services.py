"""The weekly publication and the rebuild: rebuild equals weekly runs, late results, idempotence, failure, defaults."""

import datetime

import pytest
from django_celery_beat.models import PeriodicTask

from ratings.engines.gorbunov import rate_season
from ratings.gorbunov import services
from ratings.gorbunov.params import engine_settings
from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot
from tests.ratings.gorbunov.conftest import engine_season, make_tournament, publish_weekly, week
from tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def dump(rating_list):
    entries = sorted(
        (e.snapshot.as_of, e.player_id, e.rank, int(e.rating), None if e.delta is None else int(e.delta), e.events)
        for e in RatingEntry.objects.filter(snapshot__rating_list=rating_list).select_related("snapshot")
    )
    changes = sorted(
        (
            c.snapshot.as_of,
            c.tournament_id,
            c.player_id,
            int(c.before),
            int(c.delta),
            c.explanation_en,
            c.explanation_ru,
        )
        for c in RatingChange.objects.filter(rating_list=rating_list).select_related("snapshot")
    )
    weeks = list(
        RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of").values_list("as_of", flat=True)
    )
    return weeks, entries, changes


def test_weekly_runs_match_the_engine_season(gorbunov_list, season):
    publish_weekly(gorbunov_list, 1, 7)
    expected = rate_season({}, engine_season(season), engine_settings(gorbunov_list.params)).ratings
    newest = RatingSnapshot.objects.filter(rating_list=gorbunov_list).order_by("-as_of").first()
    got = {str(e.player_id): int(e.rating) for e in newest.entries.all()}
    assert got == expected
    assert newest.as_of == week(7)
    ranks = sorted((e.rank, -int(e.rating)) for e in newest.entries.all())
    assert ranks[0][0] == 1
    assert [r for _rank, r in ranks] == sorted(r for _rank, r in ranks)


def test_rebuild_equals_the_weekly_runs(gorbunov_list, season):
    publish_weekly(gorbunov_list, 1, 7)
    weekly = dump(gorbunov_list)
    assert len(weekly[0]) == 7
    assert weekly[2]
    result = services.gorbunov_rebuild(rating_list_id=gorbunov_list.pk)
    assert result.status == "rebuilt"
    assert dump(gorbunov_list) == weekly


def test_first_publication_builds_the_history_week_by_week(gorbunov_list, season):
    services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(7))
    once = dump(gorbunov_list)
    gorbunov_list.snapshots.all().delete()
    publish_weekly(gorbunov_list, 1, 7)
    assert dump(gorbunov_list) == once


def test_publishing_twice_is_a_no_op(gorbunov_list, season):
    publish_weekly(gorbunov_list, 1, 3)
    before = dump(gorbunov_list)
    computed = list(RatingSnapshot.objects.order_by("as_of").values_list("pk", "computed_at"))
    again = services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(3))
    assert again.status == "already published"
    assert dump(gorbunov_list) == before
    assert list(RatingSnapshot.objects.order_by("as_of").values_list("pk", "computed_at")) == computed


def test_a_late_tournament_is_rated_next_time_with_its_own_weeks_ratings(gorbunov_list, field):
    early = make_tournament(field[:8], week(0) + datetime.timedelta(days=3), k=4)
    services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(1))
    make_tournament(field[:8], week(1) + datetime.timedelta(days=3), k=2)
    services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(2))
    published = dump(gorbunov_list)
    # A tournament of week 1 approved only now, after the list of week 2 came out.
    late = make_tournament(field[4:12][::-1], week(1) + datetime.timedelta(days=5), k=4, status=TournamentStatus.DRAFT)
    late.status = TournamentStatus.APPROVED
    late.save()
    services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(3))
    # Published lists are not rewritten: the changes of weeks 1 and 2 are as they were.
    after = dump(gorbunov_list)
    assert [c for c in after[2] if c[0] <= week(2)] == published[2]
    changes = RatingChange.objects.filter(tournament=late)
    assert changes.count() == 8
    assert {c.snapshot.as_of for c in changes} == {week(3)}
    # Rs is the rating valid in week 1: the list published on week(1), after the early tournament only.
    valid_in_week_1 = {c.player_id: int(c.after) for c in RatingChange.objects.filter(tournament=early)}
    for change in changes:
        assert int(change.before) == valid_in_week_1.get(change.player_id, 100)
        assert change.details["late"] is True
    # The late change applies to the rating of now.
    newest = {e.player_id: int(e.rating) for e in RatingEntry.objects.filter(snapshot__as_of=week(3))}
    at_week_2 = {e.player_id: int(e.rating) for e in RatingEntry.objects.filter(snapshot__as_of=week(2))}
    for change in changes:
        assert newest[change.player_id] == max(100, at_week_2.get(change.player_id, 100) + int(change.delta))
    snapshot = RatingSnapshot.objects.get(as_of=week(3))
    assert snapshot.summary["late"] == [late.pk]


def test_published_history_reads_the_same_after_later_publications(gorbunov_list, season, client):
    publish_weekly(gorbunov_list, 1, 3)
    page = client.get("/en/ratings/cards/gorbunov/", {"week": "2026-W12", "per_page": 100}).content.decode()
    publish_weekly(gorbunov_list, 4, 6)
    assert client.get("/en/ratings/cards/gorbunov/", {"week": "2026-W12", "per_page": 100}).content.decode() == page


def test_a_failure_mid_publication_leaves_the_previous_snapshot_untouched(gorbunov_list, season, monkeypatch):
    publish_weekly(gorbunov_list, 1, 3)
    before = dump(gorbunov_list)

    def boom(*args, **kwargs):
        yield from ()
        raise RuntimeError("injected failure while writing the changes")

    monkeypatch.setattr(services, "_change_rows", boom)
    with pytest.raises(RuntimeError, match="injected"):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(4))
    assert dump(gorbunov_list) == before
    monkeypatch.undo()
    assert services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(4)).status == "published"


def test_tournaments_of_other_formats_and_unapproved_ones_are_left_out(field, db):
    limited = RatingList.objects.create(
        slug="limited", name="L", engine="gorbunov", params={"formats": ["limited", "sealed", "draft"]}
    )
    make_tournament(field[:6], week(0) + datetime.timedelta(days=2), card_format="constructed")
    sealed = make_tournament(field[:6], week(0) + datetime.timedelta(days=3), card_format="sealed")
    make_tournament(
        field[:6], week(0) + datetime.timedelta(days=4), card_format="draft", status=TournamentStatus.SUBMITTED
    )
    services.gorbunov_publish(rating_list_id=limited.pk, week=week(1))
    assert set(RatingChange.objects.values_list("tournament_id", flat=True)) == {sealed.pk}


def test_setup_defaults_is_idempotent(db):
    services.gorbunov_setup_defaults()
    services.gorbunov_setup_defaults()
    assert RatingList.objects.filter(engine="gorbunov").count() == 3
    assert RatingList.objects.get(slug="gorbunov").name_en == "Gorbunov, all formats"
    task = PeriodicTask.objects.get(name=services.PERIODIC_TASK_NAME)
    assert task.task == "ratings.gorbunov.publish_weekly"
    assert (task.crontab.hour, task.crontab.minute, task.crontab.day_of_week) == ("6", "0", "1")
    assert str(task.crontab.timezone) == "Europe/Moscow"


def test_publish_all_publishes_every_active_list(gorbunov_list, season):
    other = RatingList.objects.create(slug="other", name="O", engine="gorbunov", params={}, is_active=False)
    outcomes = services.gorbunov_publish_all(week=week(2))
    assert [o["rating_list_id"] for o in outcomes] == [gorbunov_list.pk]
    assert not other.snapshots.exists()
