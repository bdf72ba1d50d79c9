"""A rebuild computes each date from the previous one (``engine.ListState``) and writes its snapshot without model
objects; every snapshot must still equal the full list of its date, entry by entry, details included."""

import datetime
from decimal import Decimal

import pytest
from django.db import transaction
from django.utils import translation

from ratings.engines import mahjong as engine
from ratings.mahjong import services, storage
from ratings.mahjong.explain import Explainer, entry_details
from ratings.mahjong.selectors import mahjong_data, mahjong_lists, mahjong_settings, rows_of, snapshot_entries
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament
from tournaments.models import Tournament

START = datetime.date(2025, 1, 1)
END = datetime.date(2025, 5, 31)


def _history():
    services.mahjong_setup_defaults()
    players = [PlayerFactory(country="RU") for _ in range(24)]
    players.append(PlayerFactory(country="DE"))
    # Small tournaments of changing fields, some stepping down during the range, some entering it.
    ends = [datetime.date(2024, 1, 20) + datetime.timedelta(days=37 * i) for i in range(14)]
    for i, end in enumerate(ends):
        field = players[i % 7 : i % 7 + 16]
        mahjong_tournament(players=field[::-1] if i % 2 else field, end=end, hanchans=4 + i % 6, online=i % 5 == 4)
    # A big one of other players: it enters MAXK on its date and moves part B of everyone.
    mahjong_tournament(players=players[8:], n=120, end=datetime.date(2025, 3, 15), hanchans=20)
    # A cut-off tournament: W per player by the stage reached.
    mahjong_tournament(
        players=players[:20],
        end=datetime.date(2024, 11, 5),
        hanchans=20,
        stages=[(10, 20), (10, 8)],
        played=[20] * 8 + [10] * 12,
    )
    return players


def _lists_as_of_every_date(rating_list) -> dict:
    """Every date's list as the site reads it (issue 29: the newest snapshot whole, older ones their changes):
    date -> player -> (rank, rating, change, events, parts)."""
    snapshots = list(RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of"))
    found = {}
    for snapshot in snapshots:
        snapshot.newest = snapshot.pk == snapshots[-1].pk
        rows = rows_of(snapshot_entries(snapshot=snapshot, with_parts=True), snapshot=snapshot)
        found[snapshot.as_of] = {
            row.player_id: (row.rank, row.rating, row.delta, row.events, row.details) for row in rows
        }
    return found


@pytest.mark.django_db
def test_rebuilt_snapshots_equal_the_full_list_of_each_date():
    """Every date's list, read back from the changes kept, equals the engine's full list of the date, rank by rank,
    and each entry's explanation, worked out again by the engine for that player alone, equals the full list's."""
    _history()
    lists = list(mahjong_lists())
    written = services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    assert written["mahjong-rr"] > 5
    assert written["mahjong-crr"] > 5
    assert written["mahjong-online"] > 0
    data = mahjong_data(start=START, end=END)
    for rating_list in lists:
        settings = mahjong_settings(rating_list)
        explainer = Explainer(rating_list, data)
        before: dict[int, Decimal] = {}
        stored_rows = 0
        for as_of, listed in _lists_as_of_every_date(rating_list).items():
            snapshot = RatingSnapshot.objects.get(rating_list=rating_list, as_of=as_of)
            stored_rows += RatingEntry.objects.filter(snapshot=snapshot).count()
            window = [t for t, _ in services._window(data, as_of)]
            full = engine.compute_list(
                settings=settings, as_of=as_of, tournaments=window, players=data.players.values()
            )
            assert len(listed) == len(full.entries) == snapshot.summary["entries"]
            explained = explainer.details(as_of, {pid: rank for pid, (rank, *_rest) in listed.items()})
            for expected in full.entries:
                player = int(expected.player)
                rank, rating, delta, events, parts = listed[player]
                assert (rank, events) == (expected.rank, expected.tournaments)
                assert rating == Decimal(f"{expected.rating:.2f}")
                previous = before.get(player)
                assert delta == (None if previous is None else rating - previous)
                assert storage.slim(parts) == storage.details_of(expected)
                assert explained[player] == entry_details(expected)
            before = {player: row[1] for player, row in listed.items()}
        # The older dates keep only what changed: far fewer rows than a whole list on every date.
        every_date = sum(snapshot.summary["entries"] for snapshot in rating_list.snapshots.all())
        assert stored_rows < every_date


@pytest.mark.django_db
def test_the_daily_job_writes_what_a_rebuild_writes():
    _history()
    lists = list(mahjong_lists())
    rr = lists[0]
    with transaction.atomic():  # the whole range rebuilt, read, and taken back
        services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
        last = RatingSnapshot.objects.filter(rating_list=rr).order_by("-as_of").first()
        kept = _lists_as_of_every_date(rr)
        summary = {k: v for k, v in last.summary.items() if k != "seconds"}
        transaction.set_rollback(True)
    services.mahjong_rebuild(rating_lists=lists, start=START, end=last.as_of - datetime.timedelta(days=1))
    assert services.mahjong_daily(today=last.as_of)["mahjong-rr"] == "computed"
    again = RatingSnapshot.objects.get(rating_list=rr, as_of=last.as_of)
    assert {k: v for k, v in again.summary.items() if k != "seconds"} == summary
    assert _lists_as_of_every_date(rr) == kept


@pytest.mark.django_db
def test_a_second_rebuild_of_the_range_writes_the_same_snapshots():
    _history()
    lists = list(mahjong_lists())
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)

    def everything():
        return sorted(
            RatingEntry.objects.filter(snapshot__rating_list__in=lists).values_list(
                "snapshot__rating_list_id",
                "snapshot__as_of",
                "player_id",
                "rank",
                "rating",
                "delta",
                "details",
                "listed",
            ),
            key=lambda row: row[:3],
        )

    first = everything()
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    assert everything() == first


@pytest.mark.django_db
def test_a_rebuild_of_earlier_dates_leaves_the_later_lists_as_they_read():
    """A rebuild of a range in the middle changes the lists of its dates only: a later date, whose snapshot keeps only
    its changes, reads as it did even when the rebuild moved players it did not change."""
    _history()
    lists = list(mahjong_lists())
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    rr = lists[0]
    everything = _lists_as_of_every_date(rr)
    later = {day: rows for day, rows in everything.items() if day > datetime.date(2025, 3, 1)}
    early = {day: rows for day, rows in everything.items() if day <= datetime.date(2025, 3, 1)}
    # A correction in February: its players' ratings move from then on, in the rebuilt range.
    tournament = Tournament.objects.filter(end_date__lt=datetime.date(2025, 2, 1)).order_by("-end_date").first()
    tournament.hanchans += 4
    tournament.save()
    services.mahjong_rebuild(rating_lists=[rr], start=datetime.date(2025, 1, 1), end=datetime.date(2025, 3, 1))
    after = _lists_as_of_every_date(rr)
    assert {day: rows for day, rows in after.items() if day > datetime.date(2025, 3, 1)} == later
    assert any(after[day] != rows for day, rows in early.items() if day in after)


def _a_quiet_date():
    """The history built and every list rebuilt; the RR list, a date on which it did not change (the day after a
    change date), and the date of the list in force on it."""
    _history()
    services.mahjong_rebuild(rating_lists=list(mahjong_lists()), start=START, end=END)
    rr = RatingList.objects.get(slug="mahjong-rr")
    dates = sorted(rr.snapshots.values_list("as_of", flat=True))
    quiet = next(d + datetime.timedelta(days=1) for d in dates if d + datetime.timedelta(days=1) not in dates)
    return rr, quiet, max(d for d in dates if d < quiet)


@pytest.mark.django_db
def test_a_rebuild_of_a_date_where_nothing_changed_says_since_when():
    rr, quiet, in_force = _a_quiet_date()
    assert services.mahjong_unchanged_since(rating_list=rr, day=quiet) == in_force


@pytest.mark.django_db
def test_a_one_date_rebuild_that_writes_nothing_says_why(capsys):
    """The command and the job's page both say the date is not a change date and which list is in force."""
    from django.core.management import call_command

    from ratings.models import JobRun

    _rr, quiet, in_force = _a_quiet_date()
    call_command("mahjong_rebuild", "--from", quiet.isoformat(), "--to", quiet.isoformat(), "--list", "mahjong-rr")
    out = capsys.readouterr().out
    assert f"mahjong-rr: 0 snapshots written (unchanged since {in_force.isoformat()}" in out
    from ratings.mahjong.jobs import describe_rebuild

    run = JobRun.objects.filter(kind="mahjong_rebuild").latest("created_at")
    with translation.override("en"):
        assert f"mahjong-rr: unchanged since {in_force.isoformat()}" in describe_rebuild(run)
