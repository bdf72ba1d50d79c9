"""The bulk import of deals (``services.bulk_import``): the arithmetic of every other path, all or nothing per
batch, and on PostgreSQL only the privileges of an ordinary role, with every foreign key checked by the database."""

import itertools
import random
import threading
import uuid

import pytest
from django.db import IntegrityError, OperationalError, connection, connections, transaction

from federation.models import BotLevel
from ratings.engines.preferans import DealWhists, rate_deals
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating
from ratings.preferans.services import (
    BulkDeal,
    BulkGame,
    DealInput,
    PreferansError,
    deals_apply,
    deals_import_bulk,
    game_create,
)
from tests.factories import PlayerFactory
from tests.ratings.preferans.conftest import WHEN
from tests.ratings.preferans.conftest import random_deals as _random_deals


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
    stranger = PlayerFactory().pk
    with pytest.raises(PreferansError) as error:
        deals_import_bulk(games=games, deals=[BulkDeal(game="g", whists={a: 1, stranger: -1})])
    assert error.value.field == "deals[0].whists"
    with pytest.raises(PreferansError) as error:
        deals_import_bulk(games=games, deals=[BulkDeal(game="g", whists={a: 0})])
    assert error.value.message == 'the players are not 2 or more of the table of game "g"'
    with pytest.raises(PreferansError):
        deals_import_bulk(games=[BulkGame(key="x", player_ids=(a,), played_at=WHEN)], deals=[])
    assert not Game.objects.exists()


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


def _spy(statements):
    def spy(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    return spy


def test_bulk_import_runs_as_an_ordinary_role_and_stores_what_a_superuser_stores(postgres):
    """The import needs no privilege beyond the tables': run as a role created here (no superuser, no right to set
    ``session_replication_role``), with every foreign key checked row by row as it is written, it stores the very
    rows a superuser's run stores, and neither run touches ``session_replication_role``."""
    level = BotLevel.objects.create(name="hard", max_rating=2400)
    people = [PlayerFactory().pk for _ in range(12)] + [PlayerFactory(is_bot=True, bot_level=level).pk]
    games, deals = _bulk_batch(people, random.Random(3))
    statements = []
    with postgres.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the test never commits: check each key as it is written
    with postgres.execute_wrapper(_spy(statements)):
        report = deals_import_bulk(games=games, deals=deals)
    assert report.deals == 600
    with postgres.cursor() as cursor:
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"
        assert _orphans(cursor) == {"results": 0, "deals": 0, "seats": 0}
    as_superuser = _import_rows()
    superuser_ratings = {
        r.player_id: (r.rating, r.max_rating, r.league, r.deals) for r in PreferansRating.objects.all()
    }

    DealResult.objects.all().delete()
    Deal.objects.all().delete()
    Game.objects.all().delete()
    PreferansRating.objects.all().delete()
    with postgres.cursor() as cursor:
        role = f"pref_plain_{uuid.uuid4().hex[:10]}"
        cursor.execute(f"CREATE ROLE {role} NOSUPERUSER NOCREATEDB NOCREATEROLE")  # rolled back with the test
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {role}")
        cursor.execute(f"GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO {role}")
        cursor.execute(f"SET LOCAL ROLE {role}")
        cursor.execute(
            "SELECT current_setting('is_superuser'), has_parameter_privilege('session_replication_role', 'SET')"
        )
        assert cursor.fetchone() == ("off", False)
    try:
        with postgres.execute_wrapper(_spy(statements)):
            deals_import_bulk(games=games, deals=deals)
    finally:
        with postgres.cursor() as cursor:
            cursor.execute("RESET ROLE")
    assert not any("session_replication_role" in sql for sql in statements)
    assert _import_rows() == as_superuser
    assert {
        r.player_id: (r.rating, r.max_rating, r.league, r.deals) for r in PreferansRating.objects.all()
    } == superuser_ratings


@pytest.mark.django_db(transaction=True)
def test_bulk_import_rows_naming_nothing_are_refused_by_the_database(postgres):
    """The foreign keys stay on: a batch whose rows name a game server that does not exist is refused by PostgreSQL
    when the batch commits, and nothing of it is kept."""
    a, b, c = (PlayerFactory().pk for _ in range(3))
    ghost = GameServer(pk=987654321, name="ghost")
    games = [BulkGame(key="g", player_ids=(a, b, c), played_at=WHEN)]
    deals = [BulkDeal(game="g", whists={a: 2, b: -1, c: -1}, external_id="d-1")]
    with pytest.raises(IntegrityError, match="server_id"):
        deals_import_bulk(games=games, deals=deals, server=ghost)
    assert not Game.objects.exists()
    assert not Deal.objects.exists()
    assert not DealResult.objects.exists()


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
def test_bulk_import_locks_its_players(postgres):
    """While a batch is being imported its players cannot be deleted: their rows are locked."""
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
        deals_import_bulk(games=[BulkGame(key="g", player_ids=(a, b, c), played_at=WHEN)], deals=[])
        thread = threading.Thread(target=delete_from_another_connection)
        thread.start()
        thread.join()
    assert outcome == ["LockNotAvailable"]


def test_bulk_import_with_ids_not_in_one_range(postgres):
    """When the batch's ids do not come as one unbroken range (another session drew ids meanwhile; here the sequence
    steps by 2), the rows name the ids drawn, whatever they are."""
    people = [PlayerFactory().pk for _ in range(8)]
    games, deals = _bulk_batch(people, random.Random(9), games=5, deals=50)
    statements = []
    with postgres.cursor() as cursor:
        cursor.execute("ALTER SEQUENCE preferans_deal_id_seq INCREMENT BY 2")
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    try:
        with postgres.execute_wrapper(_spy(statements)):
            report = deals_import_bulk(games=games, deals=deals)
    finally:
        with postgres.cursor() as cursor:
            cursor.execute("ALTER SEQUENCE preferans_deal_id_seq INCREMENT BY 1")
    assert report.deals == 50
    assert not any("session_replication_role" in sql for sql in statements)
    ids = list(Deal.objects.order_by("id").values_list("id", flat=True))
    assert len(ids) == 50
    assert all(b - a == 2 for a, b in itertools.pairwise(ids))
    assert DealResult.objects.count() == sum(len(deal.whists) for deal in deals)
    with postgres.cursor() as cursor:
        assert _orphans(cursor) == {"results": 0, "deals": 0, "seats": 0}
