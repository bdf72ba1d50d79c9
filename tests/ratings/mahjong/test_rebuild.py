"""A rebuild computes each date from the previous one (``engine.ListState``) and writes its snapshot without model
objects; every snapshot must still equal the full list of its date, entry by entry, details included."""

import datetime
from decimal import Decimal

import pytest

from ratings.engines import mahjong as engine
from ratings.mahjong import services
from ratings.mahjong.selectors import mahjong_data, mahjong_lists, mahjong_settings
from ratings.models import RatingEntry, RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament

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


@pytest.mark.django_db
def test_rebuilt_snapshots_equal_the_full_list_of_each_date():
    _history()
    lists = list(mahjong_lists())
    written = services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    assert written["mahjong-rr"] > 5
    assert written["mahjong-crr"] > 5
    assert written["mahjong-online"] > 0
    data = mahjong_data(start=START, end=END)
    for rating_list in lists:
        settings = mahjong_settings(rating_list)
        before: dict[int, tuple[Decimal, int]] = {}
        for snapshot in RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of"):
            window = [t for t, _ in services._window(data, snapshot.as_of)]
            full = engine.compute_list(
                settings=settings, as_of=snapshot.as_of, tournaments=window, players=data.players.values()
            )
            stored = list(RatingEntry.objects.filter(snapshot=snapshot).order_by("rank"))
            assert len(stored) == len(full.entries) == snapshot.summary["entries"]
            for entry, expected in zip(stored, full.entries, strict=True):
                assert (entry.player_id, entry.rank, entry.events) == (
                    int(expected.player),
                    expected.rank,
                    expected.tournaments,
                )
                assert entry.rating == Decimal(f"{expected.rating:.2f}")
                previous = before.get(entry.player_id)
                assert entry.delta == (None if previous is None else entry.rating - previous[0])
                assert entry.details == services._entry_details(expected, None if previous is None else previous[1])
            before = {entry.player_id: (entry.rating, entry.rank) for entry in stored}


@pytest.mark.django_db
def test_the_daily_job_writes_what_a_rebuild_writes():
    _history()
    lists = list(mahjong_lists())
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    last = RatingSnapshot.objects.filter(rating_list__slug="mahjong-rr").order_by("-as_of").first()
    kept = {
        e.player_id: (e.rank, e.rating, e.delta, e.events, e.details) for e in RatingEntry.objects.filter(snapshot=last)
    }
    summary = {k: v for k, v in last.summary.items() if k != "seconds"}
    last.delete()
    assert services.mahjong_daily(today=last.as_of)["mahjong-rr"] == "computed"
    again = RatingSnapshot.objects.get(rating_list__slug="mahjong-rr", as_of=last.as_of)
    assert {k: v for k, v in again.summary.items() if k != "seconds"} == summary
    assert {
        e.player_id: (e.rank, e.rating, e.delta, e.events, e.details)
        for e in RatingEntry.objects.filter(snapshot=again)
    } == kept


@pytest.mark.django_db
def test_a_second_rebuild_of_the_range_writes_the_same_snapshots():
    _history()
    lists = list(mahjong_lists())
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)

    def everything():
        return sorted(
            RatingEntry.objects.filter(snapshot__rating_list__in=lists).values_list(
                "snapshot__rating_list_id", "snapshot__as_of", "player_id", "rank", "rating", "delta", "details"
            ),
            key=lambda row: row[:3],
        )

    first = everything()
    services.mahjong_rebuild(rating_lists=lists, start=START, end=END)
    assert everything() == first
