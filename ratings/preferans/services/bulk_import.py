"""The import of a long history of deals (`manage.py preferans_import`, the demo): batches of new games, each batch
one transaction, with the arithmetic of every other path and ``COPY`` for the writes.

The deals are rated one after another by the engine's ``DealRun`` (the arithmetic of ``rate_deals`` and of
``deals_apply``), and each deal's rows stream to ``ratings.bulk.copy_rows`` (binary ``COPY`` on PostgreSQL,
``INSERT`` batches on SQLite) while the next deals are rated. The import needs no privilege beyond writing the
tables: every foreign key stays on and PostgreSQL checks each row, as for any other write; the players are checked
up front, in one query per batch, so that a missing one is named before anything is written.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from federation.models import Player
from ratings.bulk import copy_rows, reserve_ids, update_rows
from ratings.engines.preferans import DealRun, DealWhists, league_for
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.services.common import MAX_TABLE, MIN_TABLE, PreferansError, whole_whists
from ratings.preferans.services.games import RATING_FIELDS, lock_states
from ratings.preferans.services.rating_list import rating_settings


@dataclass(frozen=True)
class BulkGame:
    key: str
    player_ids: tuple[int, ...]
    played_at: datetime.datetime
    finished: bool = True


@dataclass(frozen=True)
class BulkDeal:
    game: str
    whists: Mapping[int, int]
    external_id: str = ""
    #: When the deal was played (a history's date); the import's moment when not given.
    applied_at: datetime.datetime | None = None


@dataclass(frozen=True)
class BulkReport:
    games: int
    deals: int
    results: int


GAME_COLUMNS = ("id", "server_id", "external_id", "played_at", "finished", "created_at")
SEAT_COLUMNS = ("game_id", "player_id", "seat")
DEAL_COLUMNS = ("id", "game_id", "server_id", "external_id", "number", "applied_at")
RESULT_COLUMNS = ("deal_id", "player_id", "whists", "rating_before", "rating_after", "delta", "pro_before", "bot_max")


@transaction.atomic
def deals_import_bulk(
    *, games: Sequence[BulkGame], deals: Sequence[BulkDeal], server: GameServer | None = None
) -> BulkReport:
    """Import new games and their deals, in the given order, in one transaction (a batch of a large history).

    The players' rows are locked (``FOR NO KEY UPDATE``: no one can delete them before the batch commits, while deals
    of other games still refer to them) and their rating rows as a deal locks them (``FOR UPDATE``, in id order). A
    bad deal raises ``PreferansError`` naming it (``deals[N].whists``), even after thousands of rows were sent: the
    transaction is rolled back whole.
    """
    settings = rating_settings()
    game_index = {}
    for index, game in enumerate(games):
        where = f"games[{index}]"
        if game.key in game_index:
            raise PreferansError(f"{where}.key", f'game "{game.key}" is listed twice')
        if not MIN_TABLE <= len(game.player_ids) <= MAX_TABLE or len(set(game.player_ids)) != len(game.player_ids):
            raise PreferansError(f"{where}.players", "a table has 2 to 4 different players")
        game_index[game.key] = index
    if Game.objects.filter(server=server, external_id__in=list(game_index)).exists():
        raise PreferansError("games", "some of these games are already stored")
    names: dict[int, str] = {}
    tables = []
    for game in games:
        for pid in game.player_ids:
            if pid not in names:
                names[pid] = str(pid)
        tables.append(frozenset(game.player_ids))
    player_ids = set(names)
    found = Player.objects.select_for_update(no_key=True).filter(pk__in=sorted(player_ids)).order_by("pk")
    if len(found.values_list("pk", flat=True)) != len(player_ids):
        raise PreferansError("games", "a player id of these games does not exist")
    locked = lock_states(player_ids)
    engine_deals: list[DealWhists] = []
    ids = {name: pid for pid, name in names.items()}
    caps = {name: locked[pid][1].bot_max for pid, name in names.items()}

    now = timezone.now()
    server_id = server.pk if server else None
    game_ids = reserve_ids(Game, len(games))
    deal_ids = reserve_ids(Deal, len(deals))
    copy_rows(
        Game,
        GAME_COLUMNS,
        ((pk, server_id, g.key, g.played_at, g.finished, now) for pk, g in zip(game_ids, games, strict=True)),
        binary=True,
    )
    copy_rows(
        Seat,
        SEAT_COLUMNS,
        (
            (pk, pid, n)
            for pk, game in zip(game_ids, games, strict=True)
            for n, pid in enumerate(game.player_ids, start=1)
        ),
        binary=True,
    )

    # The deals are checked as they are written (on PostgreSQL, while the server stores the ones before): each is
    # added to ``engine_deals`` and written with its game's id and its number in the game. A bad deal raises and rolls
    # the whole batch back.
    def deal_rows():
        counter = [0] * len(games)
        for index, (deal_id, deal) in enumerate(zip(deal_ids, deals, strict=True)):
            position = game_index.get(deal.game)
            if position is None:
                raise PreferansError(f"deals[{index}].game", f'game "{deal.game}" is not in this import')
            whists = deal.whists
            if not whists.keys() <= tables[position] or len(whists) < MIN_TABLE:
                raise PreferansError(
                    f"deals[{index}].whists", f'the players are not 2 or more of the table of game "{deal.game}"'
                )
            converted = {names[pid]: value for pid, value in whists.items()}
            for pid, value in whists.items():
                if type(value) is not int:
                    converted[names[pid]] = whole_whists(value, f"deals[{index}].whists.{pid}")
            total = sum(converted.values())
            if total:
                raise PreferansError(f"deals[{index}].whists", f"the whists sum to {total}, not to zero")
            engine_deals.append(DealWhists(game=deal.game, whists=converted))
            counter[position] += 1
            yield deal_id, game_ids[position], server_id, deal.external_id, counter[position], deal.applied_at or now

    copy_rows(Deal, DEAL_COLUMNS, deal_rows(), binary=True)

    # Every deal was checked above as the engine would check them, with this import's field names (``checked``).
    run = DealRun(engine_deals, {names[pid]: locked[pid][1] for pid in player_ids}, settings, checked=True)

    def result_rows():
        for deal_id, deal, step in zip(deal_ids, engine_deals, run, strict=True):
            deal_names, before, after, pro_before, deltas = step
            whists = deal.whists
            for k, name in enumerate(deal_names):
                yield deal_id, ids[name], whists[name], before[k], after[k], deltas[k], pro_before[k], caps[name]

    count = copy_rows(DealResult, RESULT_COLUMNS, result_rows(), binary=True)

    final = run.players()
    deals_per_player: dict[int, int] = defaultdict(int)
    for deal in engine_deals:
        for name in deal.whists:
            deals_per_player[ids[name]] += 1
    updates = []
    for pid in sorted(player_ids):
        row = locked[pid][0]
        state = final[names[pid]]
        row.rating, row.max_rating = state.rating, state.max_rating
        row.league = league_for(state.league, state.rating, settings)
        row.deals += deals_per_player[pid]
        row.updated_at = now
        updates.append(row)
    update_rows(
        PreferansRating,
        "player_id",
        RATING_FIELDS,
        [[row.player_id, *(getattr(row, name) for name in RATING_FIELDS)] for row in updates],
    )
    return BulkReport(games=len(games), deals=len(deals), results=count)


def analyze_after_import() -> None:
    """Refresh PostgreSQL's statistics of the tables a bulk import wrote (as its manual advises after a bulk load).

    Without them, until autovacuum comes by (and never where it is off), the planner takes a table it has not seen
    grow as nearly empty: a game server's deal then read its seats and players by sequential scans.
    """
    tables = [m._meta.db_table for m in (Game, Seat, Deal, DealResult, PreferansRating, Player)]
    with connection.cursor() as cursor:
        for table in tables:  # one at a time: SQLite's ANALYZE takes one name (and keeps statistics too)
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
