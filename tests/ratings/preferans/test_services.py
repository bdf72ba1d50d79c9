import datetime
import itertools
import random
import threading
import uuid

import pytest
from django.db import IntegrityError, OperationalError, connection, connections, transaction

from federation.models import BotLevel
from ratings.engines.preferans import DealWhists, PlayerState, rate_deals
from ratings.preferans.models import Deal, DealResult, Game, PreferansRating
from ratings.preferans.services import (
    BulkDeal,
    BulkGame,
    DealInput,
    PreferansError,
    _check_keys,
    _key_share_players,
    deals_apply,
    deals_import_bulk,
    game_create,
)
from tests.factories import PlayerFactory

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
        [DealWhists(game=str(k), whists={str(p): v for p, v in w.items()}) for k, w in deals],
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


# --- the bulk import on PostgreSQL: the keys checked once per batch ---------------------------------------------------


def _import_rows():
    return list(
        DealResult.objects.order_by("deal__game__external_id", "deal__number", "id").values_list(
            "deal__game__external_id", "deal__number", "player_id", "whists", "rating_before", "rating_after"
        )
    )


def _orphans(cursor):
    """Rows of the bulk import's tables naming a row that does not exist, table by table."""
    checks = {
        "results": "SELECT count(*) FROM preferans_dealresult r LEFT JOIN preferans_deal d ON d.id = r.deal_id "
        "LEFT JOIN federation_player p ON p.id = r.player_id WHERE d.id IS NULL OR p.id IS NULL",
        "deals": "SELECT count(*) FROM preferans_deal d LEFT JOIN preferans_game g ON g.id = d.game_id "
        "WHERE g.id IS NULL",
        "seats": "SELECT count(*) FROM preferans_seat s LEFT JOIN preferans_game g ON g.id = s.game_id "
        "LEFT JOIN federation_player p ON p.id = s.player_id WHERE g.id IS NULL OR p.id IS NULL",
    }
    found = {}
    for name, query in checks.items():
        cursor.execute(query)
        found[name] = cursor.fetchone()[0]
    return found


def _bulk_batch(people, rng, games=30, deals=600, prefix="g"):
    tables = [tuple(rng.sample(people, rng.choice((3, 3, 4)))) for _ in range(games)]
    picked = _random_deals(rng, tables, deals)
    return (
        [BulkGame(key=f"{prefix}{i}", player_ids=t, played_at=WHEN) for i, t in enumerate(tables)],
        [BulkDeal(game=f"{prefix}{k}", whists=w) for k, w in picked],
    )


def test_bulk_import_on_postgres_checks_its_keys_per_batch_and_equals_the_per_row_checks(postgres):
    """As a superuser the import turns the per-row key checks off for its own transaction and checks the batch's
    keys itself; as a role without that privilege it leaves them on. Both store the same rows, and the setting is
    back to normal once the import returns, even inside a caller's transaction."""
    level = BotLevel.objects.create(name="hard", max_rating=2400)
    people = [PlayerFactory().pk for _ in range(12)] + [PlayerFactory(is_bot=True, bot_level=level).pk]
    games, deals = _bulk_batch(people, random.Random(3))
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with postgres.execute_wrapper(spy):
        report = deals_import_bulk(games=games, deals=deals)
    assert report.deals == 600
    assert any("session_replication_role = replica" in sql for sql in statements)
    with postgres.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
        assert _orphans(cursor) == {"results": 0, "deals": 0, "seats": 0}
    fast = _import_rows()
    fast_ratings = {r.player_id: (r.rating, r.max_rating, r.league, r.deals) for r in PreferansRating.objects.all()}

    DealResult.objects.all().delete()
    Deal.objects.all().delete()
    Game.objects.all().delete()
    PreferansRating.objects.all().delete()
    statements.clear()
    with postgres.cursor() as cursor:
        role = f"pref_plain_{uuid.uuid4().hex[:10]}"
        cursor.execute(f"CREATE ROLE {role} NOSUPERUSER")  # rolled back with the test's transaction
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        cursor.execute(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
        cursor.execute(f"SET LOCAL ROLE {role}")
        # The test's transaction never commits: check the keys as each row is written, not at the commit.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    with postgres.execute_wrapper(spy):
        deals_import_bulk(games=games, deals=deals)
    assert not any("session_replication_role = replica" in sql for sql in statements)
    with postgres.cursor() as cursor:
        cursor.execute("RESET ROLE")
    assert _import_rows() == fast
    assert {
        r.player_id: (r.rating, r.max_rating, r.league, r.deals) for r in PreferansRating.objects.all()
    } == fast_ratings


def test_bulk_import_key_check_refuses_a_row_naming_nothing(postgres):
    """The per-batch check is PostgreSQL's: a result naming a player that is not among the batch's, or a row more or
    fewer than the batch wrote, rolls the batch back."""
    a, b = (PlayerFactory().pk for _ in range(2))
    game, _ = game_create(server=None, external_id="k", player_ids=[a, b], played_at=WHEN)
    deal = Deal.objects.create(game=game, number=1, applied_at=WHEN)
    games, deals = range(game.pk, game.pk + 1), range(deal.pk, deal.pk + 1)
    with postgres.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "INSERT INTO preferans_dealresult (deal_id, player_id, whists, rating_before, rating_after, delta, "
            "pro_before) VALUES (%s, %s, 0, 1000, 1000, 0, false), (%s, %s, 0, 1000, 1000, 0, false)",
            [deal.pk, a, deal.pk, 987654321],
        )
        with pytest.raises(IntegrityError, match=r"^preferans_dealresult\.player_id: .* 1 of them"):
            _check_keys(cursor, games, deals, seats=2, results=2, players=[a, b], server_id=None)
        with pytest.raises(IntegrityError, match=r"^preferans_dealresult\.player_id: this import wrote 3 rows"):
            _check_keys(cursor, games, deals, seats=2, results=3, players=[a, b, 987654321], server_id=None)
        _check_keys(cursor, games, deals, seats=2, results=2, players=[a, b, 987654321], server_id=None)
        with pytest.raises(IntegrityError, match=r"^preferans_seat\.player_id: "):
            _check_keys(cursor, games, deals, seats=2, results=2, players=[a, 987654321], server_id=None)
        cursor.execute("SET LOCAL session_replication_role = origin")


def test_bulk_import_bad_deal_late_in_a_batch_saves_nothing(postgres):
    """A bad deal after thousands of good ones already streamed to PostgreSQL: its field is named, nothing is kept,
    and the key checks are back on."""
    people = [PlayerFactory().pk for _ in range(10)]
    games, deals = _bulk_batch(people, random.Random(5), games=40, deals=3000)
    bad = deals[2999]
    first, *rest = bad.whists
    deals[2999] = BulkDeal(game=bad.game, whists={first: bad.whists[first] + 1, **{p: bad.whists[p] for p in rest}})
    with pytest.raises(PreferansError) as error:
        deals_import_bulk(games=games, deals=deals)
    assert error.value.field == "deals[2999].whists"
    assert not Game.objects.exists()
    assert not Deal.objects.exists()
    assert not DealResult.objects.exists()
    assert not PreferansRating.objects.exists()
    with postgres.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"


@pytest.mark.django_db(transaction=True)
def test_bulk_import_locks_its_players_as_a_key_check_would(postgres):
    """While a batch is being imported its players cannot be deleted: their rows are locked FOR KEY SHARE."""
    a, b, c = (PlayerFactory().pk for _ in range(3))
    outcome = []

    def delete_from_another_connection():
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '300ms'")
                cursor.execute("DELETE FROM federation_player WHERE id = %s", [a])
            outcome.append("deleted")
        except OperationalError as error:
            outcome.append(type(error.__cause__).__name__)
        finally:
            connections.close_all()

    with transaction.atomic():
        assert sorted(_key_share_players({a, b, c})) == [a, b, c]
        thread = threading.Thread(target=delete_from_another_connection)
        thread.start()
        thread.join()
    assert outcome == ["LockNotAvailable"]


def test_bulk_import_with_ids_not_in_one_range_keeps_the_per_row_checks(postgres):
    """When the batch's ids do not come as one unbroken range (another session drew ids meanwhile; here the sequence
    steps by 2), the per-batch check cannot tell the batch's rows from others': the per-row checks stay on."""
    people = [PlayerFactory().pk for _ in range(8)]
    games, deals = _bulk_batch(people, random.Random(9), games=5, deals=50)
    statements = []

    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    with postgres.cursor() as cursor:
        cursor.execute("ALTER SEQUENCE preferans_deal_id_seq INCREMENT BY 2")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    try:
        with postgres.execute_wrapper(spy):
            report = deals_import_bulk(games=games, deals=deals)
    finally:
        with postgres.cursor() as cursor:
            cursor.execute("ALTER SEQUENCE preferans_deal_id_seq INCREMENT BY 1")
    assert report.deals == 50
    assert not any("session_replication_role = replica" in sql for sql in statements)
    ids = list(Deal.objects.order_by("id").values_list("id", flat=True))
    assert len(ids) == 50
    assert all(b - a == 2 for a, b in itertools.pairwise(ids))
    assert DealResult.objects.count() == sum(len(deal.whists) for deal in deals)
    with postgres.cursor() as cursor:
        assert _orphans(cursor) == {"results": 0, "deals": 0, "seats": 0}
