"""Deals applied once and in order (`rules/preferans.md`): the API's, the admin's and the admin's CSV import.

Every deal goes through ``deals_apply``: it locks the games (in id order) and the rating rows of everyone concerned
(``SELECT ... FOR UPDATE`` ordered by player id, so two requests for the same player wait for each other and never
deadlock), skips a deal whose server id is already stored (a replay), rates each deal with the engine from the
ratings everyone had before it, and saves the deals, each player's change and the new ratings in one transaction:
all of it or nothing.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from federation import versions
from federation.models import Player
from ratings.bulk import update_rows
from ratings.engines.common import EngineError
from ratings.engines.preferans import PRO, PlayerState, PreferansSettings, rate_deal
from ratings.models import Engine, RatingList
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.params import engine_settings
from ratings.preferans.services.common import (
    MAX_TABLE,
    MIN_TABLE,
    DealConflict,
    ForeignGame,
    PreferansError,
    whole_whists,
)
from ratings.preferans.services.games import RATING_FIELDS, game_owned, rating_state, ratings_ensure


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


#: The preferans list's parameters (``rating_list.rating_settings``), read with the locks.
LIST_PARAMS = Subquery(RatingList.objects.filter(engine=Engine.PREFERANS).order_by("pk").values("params")[:1])


def lock_tables(game_ids: list[int]) -> tuple[dict[int, Game], dict[int, list[int]], dict, PreferansSettings]:
    """Lock the games and their seated players' rating rows, in one statement: the games (each with its table, the
    players in seat order), the players' rows with the engine's state of each, and the list's settings.

    The rows are locked in player id order, a game with its first player: two requests wait for each other on their
    first common row and never deadlock. A seated player without a rating row is not read (the caller creates the
    row and locks again); nor is a game without a seat.
    """
    games: dict[int, Game] = {}
    tables: dict[int, list[Seat]] = defaultdict(list)
    states: dict[int, tuple[PreferansRating, PlayerState]] = {}
    params = None
    rows = (
        Seat.objects.select_for_update(of=("game", "player__preferans_rating"))
        .select_related("game", "player__preferans_rating", "player__bot_level")
        .only(
            "seat",
            *(f"game__{name}" for name in ("server", "external_id", "finished")),
            *(f"player__preferans_rating__{name}" for name in RATING_FIELDS),
            "player__is_bot",
            "player__bot_level__max_rating",
        )
        .filter(game_id__in=game_ids, player__preferans_rating__isnull=False)
        .annotate(params=LIST_PARAMS)
        .order_by("player_id", "game_id")
    )
    for seat in rows:
        games[seat.game_id] = seat.game
        tables[seat.game_id].append(seat)
        if seat.player_id not in states:
            rating = seat.player.preferans_rating
            states[seat.player_id] = (rating, rating_state(rating, seat.player))
        params = seat.params
    seats = {pk: [s.player_id for s in sorted(table, key=lambda s: (s.seat, s.pk))] for pk, table in tables.items()}
    return games, seats, states, engine_settings(params)


def _unread(deals: Sequence[DealInput], games: dict[int, Game], seats: dict[int, list[int]]) -> bool:
    """Whether a deal names a game or a player that ``lock_tables`` did not read."""
    for item in deals:
        if item.game.pk not in games:
            return True
        if isinstance(item.whists, Mapping):
            for key in item.whists:
                if str(key).isdigit() and int(key) not in seats[item.game.pk]:
                    return True
    return False


def stored_deals(game_ids: list[int], checked: list) -> tuple[dict[tuple, Deal], dict[int, int]]:
    """The stored deals with the server ids of ``checked`` (replays), by (server, game of a deal entered by hand,
    deal id), and each game's last deal number."""
    numbers = dict(
        Deal.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(last=Max("number"))
        .values_list("game_id", "last")
        .order_by()
    )
    replays = Q()
    for item, game, _whists in checked:
        if item.external_id:
            by_hand = {"game_id": game.pk} if game.server_id is None else {}
            replays |= Q(server_id=game.server_id, external_id=item.external_id, **by_hand)
    known = {}
    if replays:
        for deal in Deal.objects.filter(replays).order_by():
            known[(deal.server_id, None if deal.server_id else deal.game_id, deal.external_id)] = deal
    return known, numbers


def deals_apply(*, deals: Sequence[DealInput], server: GameServer | None = None) -> list[AppliedDeal]:
    """Apply deals in the given order, all or nothing; a deal whose id is already stored is returned, not re-applied.

    `rules/preferans.md`: every player at the table is rated on every deal from the ratings before it; the game's
    change is the sum of its deals'. Raises ``PreferansError`` naming the field of the first bad deal.
    """
    try:
        return _deals_apply(deals=deals, server=server)
    except IntegrityError:
        raise PreferansError("id", "a deal id of this request was stored at the same moment; send it again") from None


# No savepoint of its own: inside a caller's transaction (the API's, the import's) a failure rolls all of it back.
@transaction.atomic(savepoint=False)
def _deals_apply(*, deals: Sequence[DealInput], server: GameServer | None) -> list[AppliedDeal]:
    if not deals:
        return []
    versions.bump("preferans")  # the deals are written in bulk: no model signal tells the pages
    game_ids = sorted({item.game.pk for item in deals})
    games, seats, states, settings = lock_tables(game_ids)
    if _unread(deals, games, seats):  # a player without a rating row yet, or something to refuse below
        ratings_ensure(player_ids=list(Seat.objects.filter(game_id__in=game_ids).values_list("player_id", flat=True)))
        games, seats, states, settings = lock_tables(game_ids)
        games.update(Game.objects.in_bulk(set(game_ids) - games.keys()))  # a game without a seat
    checked = []
    for item in deals:
        game = games.get(item.game.pk)
        if game is None:
            raise PreferansError(f"{item.where}.game", f"there is no game {item.game.pk}")
        if server is not None and game.server_id != server.pk:
            raise ForeignGame(f"{item.where}.game", "this game belongs to another game server")
        whists = _check_whists(item, seats.get(game.pk, []))
        checked.append((item, game, whists))
    finished = {pk for pk, g in games.items() if g.finished}
    # Replays and the games' last deal numbers: after the locks, so a concurrent first copy of the same deal has
    # committed or not started.
    known, numbers = stored_deals(game_ids, checked)
    now = timezone.now()
    out: list[AppliedDeal] = []
    new_deals: list[Deal] = []
    new_results: list[DealResult] = []
    seen: set[tuple] = set()
    touched: set[int] = set()
    for item, game, whists in checked:
        key = (game.server_id, None if game.server_id else game.pk, item.external_id)
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
        before = {str(pid): states[pid][1] for pid in whists}
        try:
            outcome = rate_deal(before, {str(pid): v for pid, v in whists.items()}, settings)
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
                    deal=deal,
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
        new_results.extend(results)
        out.append(AppliedDeal(deal=deal, applied=True, results=results))
    rows = []
    for pid in sorted(touched):
        row, state = states[pid]
        row.rating, row.max_rating, row.league, row.updated_at = state.rating, state.max_rating, state.league, now
        rows.append(row)
    Deal.objects.bulk_create(new_deals)
    DealResult.objects.bulk_create(new_results)
    update_rows(
        PreferansRating, "player_id", RATING_FIELDS, [[r.pk, *(getattr(r, f) for f in RATING_FIELDS)] for r in rows]
    )
    to_finish = sorted(pk for pk in finished if not games[pk].finished)
    if to_finish:
        Game.objects.filter(pk__in=to_finish).update(finished=True)
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
