"""Deals applied once and in order (`rules/preferans.md`): the API's, the admin's and the admin's CSV import.

Every deal goes through ``deals_apply``: it locks the rating rows of everyone concerned (``SELECT ... FOR UPDATE``
ordered by player id, so two requests for the same player wait for each other and never deadlock), skips a deal
whose server id is already stored (a replay), rates each deal with the engine from the ratings everyone had before
it, and saves the deals, each player's change and the new ratings in one transaction: all of it or nothing. The
statements themselves are in ``deal_sql``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from federation import versions
from federation.models import Player
from ratings.engines.common import EngineError
from ratings.engines.preferans import PRO, rate_deal
from ratings.preferans.models import Deal, DealResult, Game, GameServer, Seat
from ratings.preferans.services.common import MAX_TABLE, MIN_TABLE, DealConflict, PreferansError, whole_whists
from ratings.preferans.services.deal_sql import (
    LockedGame,
    lock_games,
    lock_one_game,
    lock_states,
    stored_deals,
    write_deals,
    write_one_deal,
)
from ratings.preferans.services.games import game_owned, ratings_ensure
from ratings.preferans.services.rating_list import rating_settings


@dataclass(frozen=True)
class DealInput:
    game: Game
    whists: Mapping[int, int]
    external_id: str = ""
    finish: bool = False
    where: str = "deal"


@dataclass
class AppliedDeal:
    deal: Deal
    applied: bool
    results: list[DealResult] = field(default_factory=list)


def _check_whists(item: DealInput, seated: list[int]) -> dict[int, int]:
    where = f"{item.where}.whists"
    if not isinstance(item.whists, Mapping):
        raise PreferansError(where, "is not an object of player id: whists")
    if not MIN_TABLE <= len(item.whists) <= MAX_TABLE:
        raise PreferansError(where, f"a table has {MIN_TABLE} to {MAX_TABLE} players, this deal has {len(item.whists)}")
    whists: dict[int, int] = {}
    for key, value in item.whists.items():
        try:
            pid = int(key)
        except (TypeError, ValueError):
            raise PreferansError(f"{where}.{key}", f"{key!r} is not a player id") from None
        if pid not in seated:
            table = ", ".join(str(p) for p in seated)
            raise PreferansError(f"{where}.{key}", f"player {pid} is not at the table of this game ({table})")
        whists[pid] = whole_whists(value, f"{where}.{key}")
    # A player of the table who is not in the deal has left the game (`RATE_CLI.md`: a later deal "may lack a player
    # who left, never add one"); they keep what the deals they played gave.
    total = sum(whists.values())
    if total:
        raise PreferansError(where, f"the whists sum to {total}, not to zero")
    return whists


def deals_apply(
    *, deals: Sequence[DealInput], server: GameServer | None = None, locked: LockedGame | None = None
) -> list[AppliedDeal]:
    """Apply deals in the given order, all or nothing; a deal whose id is already stored is returned, not re-applied.

    `rules/preferans.md`: every player at the table is rated on every deal from the ratings before it; the game's
    change is the sum of its deals'. Raises ``PreferansError`` naming the field of the first bad deal. ``locked`` is
    the game already locked in this transaction (``game_lock_for_token``) when all the deals are for it.
    """
    try:
        return _deals_apply(deals=deals, server=server, locked=locked)
    except IntegrityError:
        raise PreferansError("id", "a deal id of this request was stored at the same moment; send it again") from None


# No savepoint of its own: inside a caller's transaction (the API's, the import's) a failure rolls all of it back.
@transaction.atomic(savepoint=False)
def _deals_apply(
    *, deals: Sequence[DealInput], server: GameServer | None, locked: LockedGame | None
) -> list[AppliedDeal]:
    if not deals:
        return []
    versions.bump("preferans")  # the deals are written in SQL of their own: no model signal tells the pages
    game_ids = sorted({item.game.pk for item in deals})
    if locked is None or [locked.game.pk] != game_ids:
        locked = lock_one_game(game_ids[0]) if len(game_ids) == 1 and connection.vendor == "postgresql" else None
    if locked is not None:
        games, seats, locked_states = {locked.game.pk: locked.game}, {locked.game.pk: locked.seats}, locked.states
        settings = locked.settings
    else:
        games, seats = lock_games(game_ids)
        locked_states = None
        settings = rating_settings()
    checked = []
    finished = {pk for pk, g in games.items() if g.finished}
    for item in deals:
        game = games[item.game.pk]
        if server is not None and game.server_id != server.pk:
            raise PreferansError(f"{item.where}.game", "this game belongs to another game server")
        whists = _check_whists(item, seats[game.pk])
        checked.append((item, game, whists))
    player_ids = {pid for _, _, whists in checked for pid in whists}
    states = locked_states if locked_states is not None else lock_states(player_ids)

    # Replays and the games' last deal numbers: after the locks, so a concurrent first copy of the same deal has
    # committed or not started.
    server_ids = {game.server_id for _, game, _ in checked}
    external = sorted({item.external_id for item, _, _ in checked if item.external_id})
    # A game server's single deal on PostgreSQL (its usual request): the write itself settles the replay (nothing is
    # written when the server's deal id is stored) and the deal's number (the game's last plus one, read by the
    # write, which runs after the lock): one statement less on the hot path.
    first_item, first_game, _whists = checked[0]
    settle_in_write = (
        len(checked) == 1
        and connection.vendor == "postgresql"
        and first_game.server_id is not None
        and bool(first_item.external_id)
        and first_game.pk not in finished
    )
    known, numbers = ({}, {}) if settle_in_write else stored_deals(game_ids, server_ids, external)
    now = timezone.now()
    out: list[AppliedDeal] = []
    new_deals: list[Deal] = []
    pending_results: list[list[DealResult]] = []
    seen: set[tuple] = set()
    touched: set[int] = set()
    for item, game, whists in checked:
        key = (game.server_id, None, item.external_id) if game.server_id else (None, game.pk, item.external_id)
        if item.external_id and (key in known or key in seen):
            stored = known.get(key)
            if stored is None:
                raise PreferansError(f"{item.where}.id", f'deal "{item.external_id}" appears twice in this request')
            if stored.game_id != game.pk:
                raise DealConflict(
                    f"{item.where}.id", f'deal "{item.external_id}" is stored for another game', stored=stored
                )
            out.append(AppliedDeal(deal=stored, applied=False))
            continue
        if game.pk in finished:
            raise PreferansError(f"{item.where}.game", "the game is finished and takes no more deals")
        if item.external_id:
            seen.add(key)
        names = {pid: str(pid) for pid in whists}
        before = {names[pid]: states[pid][1] for pid in whists}
        try:
            outcome = rate_deal(before, {names[pid]: v for pid, v in whists.items()}, settings)
        except EngineError as error:
            raise PreferansError(f"{item.where}.whists", error.message) from None
        numbers[game.pk] = numbers.get(game.pk, 0) + 1
        deal = Deal(
            game=game, server_id=game.server_id, external_id=item.external_id, number=numbers[game.pk], applied_at=now
        )
        results = []
        for change in outcome.changes:
            pid = int(change.player)
            row, _state = states[pid]
            states[pid] = (row, change.after)
            row.deals += 1
            touched.add(pid)
            results.append(
                DealResult(
                    player_id=pid,
                    whists=change.whists,
                    rating_before=change.before.rating,
                    rating_after=change.after.rating,
                    delta=change.delta,
                    pro_before=change.before.league == PRO,
                    bot_max=change.before.bot_max,
                )
            )
        if item.finish:
            finished.add(game.pk)
        new_deals.append(deal)
        pending_results.append(results)
        out.append(AppliedDeal(deal=deal, applied=True, results=results))
    rows = []
    for pid in sorted(touched):
        row, state = states[pid]
        row.rating, row.max_rating, row.league, row.updated_at = state.rating, state.max_rating, state.league, now
        rows.append(row)
    to_finish = sorted(pk for pk in finished if not games[pk].finished)
    if settle_in_write:
        if write_one_deal(new_deals[0], pending_results[0], rows, to_finish, settle=True):
            return out
        # A replay: nothing was written. Answer with the stored deal, as the general path does.
        known, _numbers = stored_deals(game_ids, server_ids, external)
        stored = known[(first_game.server_id, None, first_item.external_id)]
        if stored.game_id != first_game.pk:
            raise DealConflict(
                f"{first_item.where}.id", f'deal "{first_item.external_id}" is stored for another game', stored=stored
            )
        return [AppliedDeal(deal=stored, applied=False)]
    write_deals(new_deals, pending_results, rows, to_finish)
    return out


# --- the admin's CSV import -----------------------------------------------------------------------------------------


@dataclass
class ImportOutcome:
    applied: list[AppliedDeal]
    games_created: int


def deals_import_rows(*, deals: Sequence, dry_run: bool, user: AbstractBaseUser | None = None) -> ImportOutcome:
    """Create the new games and apply the parsed deals (``importing.ParsedDeal``), all or nothing.

    ``dry_run`` rates everything and rolls back: the preview shows the very changes the import will make. A bad deal
    raises ``PreferansError`` whose field is ``row N.<column>``. ``user`` (the admin's import) owns the new games and
    may add deals only to games they own (``game_owned``: federation staff to any); None is the command line's.

    The games are found and created in a few statements for the whole file, not a handful per game: a 2 MB file
    holds over a thousand games, and a statement per game made its preview run past any request's time.
    """
    with transaction.atomic():
        games, created = _import_games(deals, user)
        inputs = [
            DealInput(
                game=games[parsed.game], whists=parsed.whists, external_id=parsed.deal, where=f"row {parsed.rows[0]}"
            )
            for parsed in deals
        ]
        applied = deals_apply(deals=inputs)
        if dry_run:
            transaction.set_rollback(True)
    return ImportOutcome(applied=applied, games_created=created)


#: Game ids looked up per query (SQLite limits the parameters of one statement).
_LOOKUP_BATCH = 500


def _import_games(deals: Sequence, user: AbstractBaseUser | None) -> tuple[dict[str, Game], int]:
    """The file's games by id: those stored (by hand, no server) and the new ones, created with the players of their
    first deal as the table, as ``game_create`` creates one, owned by ``user``."""
    first: dict[str, object] = {}
    for parsed in deals:
        first.setdefault(parsed.game, parsed)
    keys = list(first)
    games: dict[str, Game] = {}
    for start in range(0, len(keys), _LOOKUP_BATCH):
        chunk = keys[start : start + _LOOKUP_BATCH]
        games.update((g.external_id, g) for g in Game.objects.filter(server__isnull=True, external_id__in=chunk))
    if user is not None:
        for key, game in games.items():
            if not game_owned(game=game, user=user):
                raise PreferansError(
                    f"row {first[key].rows[0]}.game",
                    _("the game “%(game)s” was entered by someone else; only they and federation staff add its deals")
                    % {"game": key},
                )
    new = [first[key] for key in keys if key not in games]
    if not new:
        return games, 0
    tables = {}
    for parsed in new:
        where = f"row {parsed.rows[0]}.player_id"
        ids = list(parsed.whists)
        if len(set(ids)) != len(ids) or not MIN_TABLE <= len(ids) <= MAX_TABLE:
            raise PreferansError(where, f"a table has {MIN_TABLE} to {MAX_TABLE} players, this one has {len(ids)}")
        tables[parsed.game] = (ids, where)
    wanted = {pid for ids, _where in tables.values() for pid in ids}
    found: set[int] = set()
    ordered = sorted(wanted)
    for start in range(0, len(ordered), _LOOKUP_BATCH):
        found.update(Player.objects.filter(pk__in=ordered[start : start + _LOOKUP_BATCH]).values_list("pk", flat=True))
    for ids, where in tables.values():
        for index, pid in enumerate(ids):
            if pid not in found:
                raise PreferansError(f"{where}[{index}]", f"there is no player {pid}")
    now = timezone.now()
    rows = []
    for parsed in new:
        played_at = now
        if parsed.date:
            played_at = timezone.make_aware(datetime.datetime.combine(parsed.date, datetime.time(12)))
        rows.append(Game(server=None, external_id=parsed.game, played_at=played_at, owner=user))
    try:
        with transaction.atomic():
            Game.objects.bulk_create(rows, batch_size=_LOOKUP_BATCH)
    except IntegrityError:
        raise PreferansError("game", "a game of this file was created at the same moment; send it again") from None
    if any(game.pk is None for game in rows):  # a database that does not return ids from a bulk insert
        stored = Game.objects.filter(server__isnull=True, external_id__in=[g.external_id for g in rows])
        ids_by_key = dict(stored.values_list("external_id", "pk"))
        for game in rows:
            game.pk = ids_by_key[game.external_id]
    Seat.objects.bulk_create(
        [
            Seat(game=game, player_id=pid, seat=n)
            for game in rows
            for n, pid in enumerate(tables[game.external_id][0], 1)
        ],
        batch_size=_LOOKUP_BATCH,
    )
    ratings_ensure(player_ids=sorted(wanted))
    games.update((game.external_id, game) for game in rows)
    return games, len(rows)
