"""Issue 29: the conversion of an existing database in place. A database of before issue 29 holds every mahjong list
whole on each of its dates, every entry with its explanation; after ``migrate`` every list as of every date reads
the same (rank, rating, change, tournaments, parts A and B), the explanations worked out again equal the ones it
kept, and fewer rows are left."""

import datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings.engines import mahjong as engine
from ratings.mahjong import services
from ratings.mahjong.explain import Explainer, entry_details
from ratings.mahjong.selectors import mahjong_data, mahjong_lists, mahjong_settings, rows_of, snapshot_entries
from ratings.models import RatingList, RatingSnapshot
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament

BEFORE = [("ratings", "0007_ratinglist_name_en_help")]
START = datetime.date(2024, 12, 1)
END = datetime.date(2025, 6, 30)


def _history() -> None:
    players = [PlayerFactory(country="RU") for _ in range(30)]
    players.append(PlayerFactory(country="DE"))
    for i in range(16):
        field = players[i % 9 : i % 9 + 16]
        mahjong_tournament(
            players=field[::-1] if i % 2 else field,
            end=datetime.date(2023, 11, 20) + datetime.timedelta(days=41 * i),
            hanchans=4 + i % 6,
            online=i % 5 == 4,
        )
    mahjong_tournament(players=players[10:], n=90, end=datetime.date(2025, 3, 15), hanchans=20)


def _old_database(apps) -> dict:
    """Write the lists as the code before issue 29 did: each date the list changed, the whole list, each entry with
    its explanation and the previous date's rank; returns what each list read as on each date."""
    snapshot_model = apps.get_model("ratings", "RatingSnapshot")
    entry_model = apps.get_model("ratings", "RatingEntry")
    data = mahjong_data(start=START, end=END)
    read: dict = {}
    for rating_list in mahjong_lists():
        settings = mahjong_settings(rating_list)
        state = engine.ListState(settings=settings, players=data.players.values())
        before: dict[int, tuple[Decimal, int]] = {}
        last = None
        day = START
        while day <= END:
            result = state.compute(as_of=day, tournaments=data.window(day))
            listed = {int(e.player): e for e in result.entries}
            key = [(p, e.rating, e.tournaments, e.part_a, e.part_b, e.rating_unrounded) for p, e in listed.items()]
            if listed and key != last:
                last = key
                snapshot = snapshot_model.objects.create(
                    rating_list_id=rating_list.pk, as_of=day, summary={"entries": len(listed)}
                )
                rows = {}
                for player, entry in listed.items():
                    rating = Decimal(f"{entry.rating:.2f}")
                    previous = before.get(player)
                    details = entry_details(entry)
                    delta = None if previous is None else rating - previous[0]
                    entry_model.objects.create(
                        snapshot_id=snapshot.pk,
                        player_id=player,
                        rank=entry.rank,
                        rating=rating,
                        delta=delta,
                        events=entry.tournaments,
                        details={**details, "previous_rank": None if previous is None else previous[1]},
                    )
                    rows[player] = (entry.rank, rating, delta, entry.tournaments, details)
                read[(rating_list.slug, day)] = rows
                before = {player: (row[1], row[0]) for player, row in rows.items()}
            day += datetime.timedelta(days=3)
    return read


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_every_list_of_every_date_and_drops_the_rows_that_repeat():
    services.mahjong_setup_defaults()
    _history()
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old_apps = executor.loader.project_state(BEFORE).apps
    before = _old_database(old_apps)
    rows_before = old_apps.get_model("ratings", "RatingEntry").objects.count()
    assert len(before) > 30
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from ratings.models import RatingEntry

    data = mahjong_data(start=START, end=END)
    compared = 0
    for rating_list in RatingList.objects.filter(slug__startswith="mahjong"):
        explainer = Explainer(rating_list, data)
        snapshots = list(RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of"))
        for snapshot in snapshots:
            snapshot.newest = snapshot.pk == snapshots[-1].pk
            rows = rows_of(snapshot_entries(snapshot=snapshot, with_parts=True), snapshot=snapshot)
            expected = before[(rating_list.slug, snapshot.as_of)]
            found = {row.player_id: (row.rank, row.rating, row.delta, row.events) for row in rows}
            assert found == {player: row[:4] for player, row in expected.items()}, (rating_list.slug, snapshot.as_of)
            explained = explainer.details(snapshot.as_of, {player: row[0] for player, row in expected.items()})
            for row in rows:
                kept = expected[row.player_id][4]
                # The newest keeps its explanations; an older date its numbers.
                assert row.details == (
                    kept if snapshot.newest else {key: kept[key] for key in ("part_a", "part_b", "exact", "k")}
                )
                assert explained[row.player_id] == kept
                compared += 1
    assert compared == sum(len(rows) for rows in before.values())
    assert RatingEntry.objects.count() < rows_before
