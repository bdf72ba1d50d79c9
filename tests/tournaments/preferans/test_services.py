import datetime
import itertools
import random
import threading

import pytest
from django.db import connection, connections

from federation.models import BotLevel
from ratings.engines.preferans import Deal as EngineDeal
from ratings.engines.preferans import PlayerState, rate_deals
from tests.factories import PlayerFactory
from tournaments.preferans.models import Deal, DealResult, Game, PreferansRating
from tournaments.preferans.services import (
    BulkDeal,
    BulkGame,
    DealInput,
    PreferansError,
    deals_apply,
    deals_import_bulk,
    game_create,
)

WHEN = datetime.datetime(2026, 3, 7, 19, tzinfo=datetime.UTC)


def _random_deals(rng, tables, count):
    deals = []
    for _ in range(count):
        key = rng.randrange(len(tables))
        table = tables[key]
        whists = [rng.randint(-20, 20) for _ in table[:-1]]
        whists.append(-sum(whists))
        deals.append((key, dict(zip(table, whists, strict=True))))
    return deals


def _final(players):
    return {p: PreferansRating.objects.get(player_id=p) for p in players}


@pytest.mark.django_db
def test_bulk_import_equals_one_by_one_and_the_engine():
    rng = random.Random(7)
    level = BotLevel.objects.create(name="easy", max_rating=1400)
    bots = {PlayerFactory(is_bot=True, bot_level=level).pk}
    people = [PlayerFactory().pk for _ in range(8)] + sorted(bots)
    tables = [tuple(rng.sample(people, rng.choice((2, 3, 4)))) for _ in range(6)]
    deals = _random_deals(rng, tables, 120)
    people = sorted({p for t in tables for p in t})

    games = [BulkGame(key=f"g{i}", player_ids=t, played_at=WHEN) for i, t in enumerate(tables)]
    report = deals_import_bulk(games=games, deals=[BulkDeal(game=f"g{k}", whists=w) for k, w in deals])
    assert report.deals == 120
    bulk = {p: (r.rating, r.max_rating, r.league, r.deals) for p, r in _final(people).items()}
    bulk_rows = list(
        DealResult.objects.order_by("deal_id", "id").values_list("player_id", "rating_before", "rating_after")
    )

    ledger = rate_deals(
        [EngineDeal(game=str(k), whists={str(p): v for p, v in w.items()}) for k, w in deals],
        bots={str(p): 1400.0 for p in people if p in bots},
    )
    for pid, state in ledger.players.items():
        assert bulk[int(pid)][:3] == (
            pytest.approx(state.rating, abs=1e-9),
            pytest.approx(state.max_rating, abs=1e-9),
            state.league,
        )

    DealResult.objects.all().delete()
    Deal.objects.all().delete()
    Game.objects.all().delete()
    PreferansRating.objects.all().delete()
    made = [
        game_create(server=None, external_id=f"h{i}", player_ids=list(t), played_at=WHEN)[0]
        for i, t in enumerate(tables)
    ]
    for key, whists in deals:
        deals_apply(deals=[DealInput(game=made[key], whists=whists)])
    single = {p: (r.rating, r.max_rating, r.league, r.deals) for p, r in _final(people).items()}
    assert all(single[p][0] == pytest.approx(bulk[p][0], abs=1e-9) and single[p][2:] == bulk[p][2:] for p in people)
    single_rows = list(
        DealResult.objects.order_by("deal_id", "id").values_list("player_id", "rating_before", "rating_after")
    )
    assert len(single_rows) == len(bulk_rows)
    for one, other in zip(single_rows, bulk_rows, strict=True):
        assert one[0] == other[0]
        assert one[1] == pytest.approx(other[1], abs=1e-9)
        assert one[2] == pytest.approx(other[2], abs=1e-9)


@pytest.mark.django_db
def test_bulk_import_refuses_bad_data_and_saves_nothing():
    a, b, c = (PlayerFactory().pk for _ in range(3))
    games = [BulkGame(key="g", player_ids=(a, b, c), played_at=WHEN)]
    with pytest.raises(PreferansError) as error:
        deals_import_bulk(games=games, deals=[BulkDeal(game="g", whists={a: 1, b: 1, c: -1})])
    assert error.value.field == "deals[0].whists"
    with pytest.raises(PreferansError) as error:
        deals_import_bulk(games=games, deals=[BulkDeal(game="g", whists={a: 1, b: -1})])
    assert error.value.field == "deals[0].whists"
    with pytest.raises(PreferansError):
        deals_import_bulk(games=[BulkGame(key="x", player_ids=(a,), played_at=WHEN)], deals=[])
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_concurrent_deals_for_one_player_equal_one_by_one(postgres):
    """Threads, each with its own connection, post deals sharing one player; nothing is lost or applied twice."""
    star = PlayerFactory().pk
    others = [PlayerFactory().pk for _ in range(8)]
    tables = [(star, others[2 * i], others[2 * i + 1]) for i in range(4)]
    games = [
        game_create(server=None, external_id=f"c{i}", player_ids=list(t), played_at=WHEN)[0]
        for i, t in enumerate(tables)
    ]
    per_thread = 15
    work = {i: _random_deals(random.Random(100 + i), [tables[i]], per_thread) for i in range(4)}
    errors = []
    barrier = threading.Barrier(4)

    def worker(i):
        try:
            barrier.wait()
            for n, (_key, whists) in enumerate(work[i]):
                deals_apply(deals=[DealInput(game=games[i], whists=whists, external_id=f"t{i}-{n}")])
                # A replay from the same thread: must not count twice.
                deals_apply(deals=[DealInput(game=games[i], whists=whists, external_id=f"t{i}-{n}")])
        except Exception as error:  # reported to the main thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert Deal.objects.count() == 4 * per_thread
    star_row = PreferansRating.objects.get(player_id=star)
    assert star_row.deals == 4 * per_thread

    # Replay the same deals, in the order the database applied them, one by one through the engine.
    applied = list(Deal.objects.order_by("id").values_list("game_id", "external_id"))
    lookup = {(games[i].pk, f"t{i}-{n}"): whists for i in range(4) for n, (_k, whists) in enumerate(work[i])}
    states = {str(p): PlayerState(1000.0, 1000.0) for p in [star, *others]}
    ledger = rate_deals(
        [EngineDeal(game=str(g), whists={str(p): v for p, v in lookup[(g, e)].items()}) for g, e in applied], states
    )
    for pid, state in ledger.players.items():
        assert PreferansRating.objects.get(player_id=int(pid)).rating == pytest.approx(state.rating, abs=1e-9)
    # Each deal of the star player starts from the rating the previous one left: a chain with no gap.
    chain = list(
        DealResult.objects.filter(player_id=star).order_by("deal_id").values_list("rating_before", "rating_after")
    )
    for (_before, after), (next_before, _after) in itertools.pairwise(chain):
        assert next_before == after
    assert connection.vendor == "postgresql"
