import itertools
import random
import threading

import pytest
from django.db import connection, connections

from ratings.engines.preferans import DealWhists, PlayerState, rate_deals
from ratings.preferans.models import Deal, DealResult, PreferansRating
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import PlayerFactory
from tests.ratings.preferans.conftest import WHEN
from tests.ratings.preferans.conftest import random_deals as _random_deals


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
        [DealWhists(game=str(g), whists={str(p): v for p, v in lookup[(g, e)].items()}) for g, e in applied], states
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
