"""The preferans history in and out as a ``preferans`` document of ``manage.py rate`` (``ratings.history``).

A ``preferans`` document is the starting ratings (with the optional ``max_ratings`` and ``leagues``: the peak and
the league carried over from the federation's list), the bots with their levels' maxima, and the deals in the order
played, grouped in games. The import checks it whole, creates the players, bots and starting ratings, then stores
the games and deals in batches through the bulk import (``services.deals_import_bulk``: the same arithmetic as
``rate``, each batch one transaction), so that ``show_list preferans`` prints what ``rate`` prints.

**Decisions** where the issue and the rules are silent:
- Starting ratings and peaks are kept to 4 decimals (``StartingRating``), a bot level's maximum to 2
  (``BotLevel``): a value with more is refused, naming it, rather than rounded (the site would then publish
  something other than ``rate``). A starting row is written for every player the document gives a rating, peak or
  league; it holds the state the player starts from (the peak is at least the rating, the league the one given or
  the one the peak implies: ``ratings.engines.preferans``, module decisions).
- A deal's optional ``date`` (``YYYY-MM-DD``) dates it; without one it takes the previous deal's date, then
  ``ratings_date``, then today. Dates never go back in the document (``show_list --as-of`` is then the document's
  first deals). A game is dated by its first deal; a deal is stored as applied at noon of its date.
- A deal without ``game`` is its own game ``#<index>``, as ``rate`` names it. A deal's ``players`` may only repeat
  its game's table: the site keeps one table per game, the first deal's.
- Deals have no ids in the format, so a second import is recognised by order, as for DIRS: the site's deals must be
  the first deals of the document (same game, same whists), and only the deals after them are stored, in games new
  to the site (a stored game is continued by its game server or in the admin, not by an import). A player the site
  already rates must start in the document where the site started them.
- The bots of the document become players flagged as bots, with the level of that maximum (created if the site
  has none). A player of the site who is a bot must be listed in ``bots`` with their level's maximum, and a bot of
  the document cannot be a human player of the site.
- The list names the players of the history: those with a starting rating, every bot with a rating, and everyone
  who played a deal (up to ``--as-of``). Its numbers are the published ones: the deals' stored rows and, for the
  newest list, the players' rating rows.
- The site rates with its list's parameters; ``rate`` with the rules' defaults: they agree while the list keeps them.
- Preferans has no rebuild: the rating moves deal by deal and each deal's rows are its history. A starting rating is
  where the player's rating row starts, whether the import creates it or the player's first game later does
  (``services.ratings_ensure``); correcting one in the admin after the player's first deal changes nothing rated.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from federation import versions
from federation.bounds import API_MAX_WHISTS
from federation.models import BotLevel, Player
from ratings.engines.common import EngineError, FieldError
from ratings.engines.parse import parse_date
from ratings.engines.preferans import AMATEUR, PRO, league_for, new_player, read_document
from ratings.history import (
    ID_MAX,
    SITE_PREFIX,
    HistoryError,
    ImportReport,
    parse_people,
    parse_ratings_date,
    people_entries,
    player_ids_map,
    players_ensure,
)
from ratings.models import Engine, RatingList, StartingRating
from ratings.progress import Progress

from .models import DealResult, Game, PreferansRating, Seat
from .services import BulkDeal, BulkGame, analyze_after_import, deals_import_bulk, rating_settings, starting_state

#: Deals per transaction, about (a batch is cut where no game is still open).
BATCH = 100_000
#: ``StartingRating`` keeps 4 decimals and 8 digits before the point; ``BotLevel`` 2 and 7.
RATING_PLACES, RATING_LIMIT = 4, 10**8
BOT_PLACES, BOT_LIMIT = 2, 10**7


def document_game_id(*, pk: int, server_id: int | None, external_id: str) -> str:
    """A game as a document names it: its own id if entered by hand with one, else ``site-<pk>``."""
    return external_id if server_id is None and external_id else f"{SITE_PREFIX}{pk}"


def _places_ok(value: float, places: int, limit: int) -> bool:
    return abs(value) < limit and Decimal(repr(value)).as_tuple().exponent >= -places


def _noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))


# --- the site as it stands ------------------------------------------------------------------------------------------


def _starting_rows() -> dict[int, StartingRating]:
    return {row.player_id: row for row in StartingRating.objects.filter(rating_list__engine=Engine.PREFERANS)}


def _site_games() -> dict[int, str]:
    """Every stored game's document id, by pk."""
    return {
        pk: document_game_id(pk=pk, server_id=server_id, external_id=external)
        for pk, server_id, external in Game.objects.values_list("pk", "server_id", "external_id").iterator(20_000)
    }


def _site_deals(games: dict[int, str], ids: dict[int, str]) -> list[tuple[str, dict[str, int]]]:
    """The stored deals in the order rated, as (game, whists) with document ids."""
    deals: list[tuple[str, dict[str, int]]] = []
    last = None
    rows = DealResult.objects.order_by("deal_id", "id").values_list("deal_id", "deal__game_id", "player_id", "whists")
    for deal_id, game_id, player_id, whists in rows.iterator(chunk_size=50_000):
        if deal_id != last:
            deals.append((games[game_id], {}))
            last = deal_id
        deals[-1][1][ids[player_id]] = whists
    return deals


# --- check ----------------------------------------------------------------------------------------------------------


def _check(doc: Any, rating_list: RatingList) -> dict[str, Any]:
    settings = rating_settings()
    read, errors = read_document(doc, settings)
    errors: list[FieldError] = list(errors)
    if not isinstance(doc, dict):
        raise HistoryError(errors)
    people = parse_people(doc, errors)
    ratings_date = parse_ratings_date(doc, errors)
    for key, places, limit in (("ratings", RATING_PLACES, RATING_LIMIT), ("max_ratings", RATING_PLACES, RATING_LIMIT)):
        values = doc.get(key, {})
        for name, value in values.items() if isinstance(values, dict) else ():
            if len(name) > ID_MAX or not name:
                errors.append(EngineError(f"{key}.{name[:20]}", f"a player id has 1 to {ID_MAX} characters"))
            if isinstance(value, int | float) and not isinstance(value, bool) and not _places_ok(value, places, limit):
                errors.append(
                    EngineError(f"{key}.{name}", f"{value!r}: the site keeps a starting rating to {places} decimals")
                )
    bots = doc.get("bots", {})
    for name, value in bots.items() if isinstance(bots, dict) else ():
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and (value < 0 or not _places_ok(value, BOT_PLACES, BOT_LIMIT)):
            message = f"{value!r}: a level's maximum is 0 or more, to {BOT_PLACES} decimals"
            errors.append(EngineError(f"bots.{name}", message))
    raw_deals = doc.get("deals", [])
    raw_deals = raw_deals if isinstance(raw_deals, list) else []
    dates: list[dt.date | None] = []
    tables: dict[str, tuple[str, ...]] = {}
    previous: dt.date | None = None
    for index, raw in enumerate(raw_deals):
        where = f"deals[{index}]"
        if not isinstance(raw, dict):
            dates.append(None)
            continue
        day = None
        if raw.get("date") is not None:
            try:
                day = parse_date(raw["date"], f"{where}.date")
            except EngineError as error:
                errors.append(error)
            if day and previous and day < previous:
                errors.append(EngineError(f"{where}.date", f"{day} is before the deal before it ({previous})"))
            previous = day or previous
        dates.append(day)
        game = raw.get("game") or f"#{index}"
        if isinstance(game, str) and len(game) > ID_MAX:
            errors.append(EngineError(f"{where}.game", f"longer than {ID_MAX} characters"))
        whists = raw.get("whists")
        if isinstance(whists, dict):
            for name, value in whists.items():
                if len(name) > ID_MAX:
                    errors.append(EngineError(f"{where}.whists.{name[:20]}…", f"longer than {ID_MAX} characters"))
                if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) > API_MAX_WHISTS:
                    errors.append(
                        EngineError(f"{where}.whists.{name}", f"{value!r}: a deal gives at most {API_MAX_WHISTS}")
                    )
            players = raw.get("players")
            listed = isinstance(players, list) and all(isinstance(p, str) for p in players)
            table = tuple(players) if listed else tuple(whists)
            if isinstance(game, str) and game not in tables:
                tables[game] = table
            elif isinstance(game, str) and listed and set(table) != set(tables.get(game, ())):
                errors.append(
                    EngineError(f"{where}.players", "the site keeps one table per game, the one of its first deal")
                )
    if errors or read is None:
        raise HistoryError(errors)
    return _check_against_site(read, people, ratings_date, dates, tables, settings)


def _check_against_site(read, people, ratings_date, dates, tables, settings) -> dict[str, Any]:
    errors: list[FieldError] = []
    named = list(read.states)
    found = {}
    for start in range(0, len(named), 5000):
        chunk = named[start : start + 5000]
        found.update(
            (row[0], row[1:])
            for row in Player.objects.filter(external_id__in=chunk).values_list(
                "external_id", "pk", "is_bot", "bot_level__max_rating"
            )
        )
    site_ids = [n for n in named if n not in found and n.startswith(SITE_PREFIX) and n[len(SITE_PREFIX) :].isdigit()]
    if site_ids:
        by_pk = {int(n[len(SITE_PREFIX) :]): n for n in site_ids}
        for pk, is_bot, level_max in Player.objects.filter(pk__in=by_pk, external_id="").values_list(
            "pk", "is_bot", "bot_level__max_rating"
        ):
            found[by_pk[pk]] = (pk, is_bot, level_max)
    for name in named:
        if name not in found:
            continue
        _pk, is_bot, level_max = found[name]
        wanted = read.bots.get(name)
        if wanted is not None and not is_bot:
            errors.append(EngineError(f"bots.{name}", "is a player of the site, not a bot"))
        elif wanted is None and is_bot:
            errors.append(EngineError(f"bots.{name}", "missing: this player is a bot of the site"))
        elif wanted is not None and (level_max is None or float(level_max) != wanted):
            errors.append(EngineError(f"bots.{name}", f"{wanted:g}, but the site's bot has the level of {level_max}"))
    starting = _starting_rows()
    rated = set(PreferansRating.objects.filter(player_id__in=[v[0] for v in found.values()]).values_list("player_id"))
    rated = {pk for (pk,) in rated}
    known_players = set()
    for name in named:
        if name not in found:
            continue
        pk = found[name][0]
        bot_max = read.bots.get(name)
        if pk in starting:
            site_start = starting_state(starting[pk], bot_max=bot_max, settings=settings)
        elif pk in rated:
            site_start = new_player(settings, bot_max=bot_max)
        else:
            continue
        known_players.add(name)
        mine = read.states[name]
        if (mine.rating, mine.max_rating, mine.league) != (site_start.rating, site_start.max_rating, site_start.league):
            errors.append(
                EngineError(
                    f"ratings.{name}",
                    f"the site started this player at {site_start.rating:g} (peak {site_start.max_rating:g}, "
                    f"{site_start.league}), not {mine.rating:g} (peak {mine.max_rating:g}, {mine.league})",
                )
            )
    games = _site_games()
    ids = player_ids_map(set(DealResult.objects.values_list("player_id", flat=True).distinct()) if games else set())
    site_deals = _site_deals(games, ids) if games else []
    for index, (game, whists) in enumerate(site_deals):
        if index >= len(read.deals):
            errors.append(
                EngineError("deals", f"the site holds {len(site_deals)} deals, the document {len(read.deals)}")
            )
            break
        deal = read.deals[index]
        if deal.game != game or dict(deal.whists) != whists:
            errors.append(
                EngineError(f"deals[{index}]", "differs from the site's deal in that place; the site's history is kept")
            )
            break
    stored_games = set(games.values()) if not errors else set()
    for index in range(len(site_deals), len(read.deals)):
        if read.deals[index].game in stored_games:
            errors.append(
                EngineError(
                    f"deals[{index}].game",
                    f'game "{read.deals[index].game}" is stored on the site: an import adds new games only',
                )
            )
            break
    if errors:
        raise HistoryError(errors)
    return {
        "read": read,
        "people": people,
        "ratings_date": ratings_date,
        "dates": dates,
        "tables": tables,
        "known_deals": len(site_deals),
        "known_players": known_players,
        "found": found,
    }


def preferans_history_check(*, doc: dict[str, Any], rating_list: RatingList) -> dict[str, int]:
    plan = _check(doc, rating_list)
    read = plan["read"]
    return {
        "players": len(read.states),
        "bots": len(read.bots),
        "starting ratings": len(_given(doc)),
        "games": len({deal.game for deal in read.deals}),
        "deals": len(read.deals),
        "new deals": len(read.deals) - plan["known_deals"],
    }


def _given(doc: dict[str, Any]) -> list[str]:
    """The players the document gives a starting rating, peak or league (each gets a ``StartingRating``)."""
    names: dict[str, None] = {}
    for key in ("ratings", "max_ratings", "leagues"):
        names.update(dict.fromkeys(doc.get(key, {})))
    return list(names)


# --- import ---------------------------------------------------------------------------------------------------------


def _bot_levels(maxima: set[float]) -> dict[float, int]:
    """A bot level for each maximum: the site's level of that maximum, or a new one named by it."""
    levels: dict[float, int] = {}
    for level_pk, value in BotLevel.objects.order_by("pk").values_list("pk", "max_rating"):
        levels.setdefault(float(value), level_pk)
    for value in sorted(maxima - levels.keys()):
        name = f"{value:g}"
        while BotLevel.objects.filter(name=name).exists():
            name += "+"
        levels[value] = BotLevel.objects.create(name=name[:50], max_rating=Decimal(repr(value))).pk
    return levels


def preferans_history_import(
    *,
    doc: dict[str, Any],
    rating_list: RatingList,
    user: AbstractBaseUser | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Load a ``preferans`` document: players and bots, starting ratings, then the new deals in batches."""
    plan = _check(doc, rating_list)
    read = plan["read"]
    report = ImportReport("preferans")
    named = list(read.states)
    players, created = players_ensure(named, plan["people"])
    report.add("players", created, len(named) - created)
    user_id = user.pk if user is not None and user.is_authenticated else None
    today = timezone.localdate()
    dates = plan["dates"]
    first_date = next((d for d in dates if d), None)
    list_date = plan["ratings_date"] or (first_date or today) - dt.timedelta(days=1)
    new_bots = [name for name in read.bots if name not in plan["found"]]
    given = [name for name in _given(doc) if name not in plan["known_players"]]
    with transaction.atomic():
        versions.changed(Player, StartingRating, PreferansRating)  # new players, bots, starting ratings: in bulk
        levels = _bot_levels({read.bots[name] for name in new_bots})
        by_level: dict[int, list[int]] = defaultdict(list)
        for name in new_bots:
            by_level[levels[read.bots[name]]].append(players[name])
        for level_pk, pks in by_level.items():
            Player.objects.filter(pk__in=pks).update(is_bot=True, bot_level_id=level_pk)
        have_start = set(
            StartingRating.objects.filter(rating_list=rating_list, player_id__in=[players[n] for n in given])
            .values_list("player_id", flat=True)
            .iterator()
        )
        starts = []
        for name in given:
            if players[name] in have_start:
                continue
            state = read.states[name]
            starts.append(
                StartingRating(
                    rating_list=rating_list,
                    player_id=players[name],
                    list_date=list_date,
                    rating=Decimal(repr(state.rating)),
                    max_rating=Decimal(repr(state.max_rating)),
                    league=state.league,
                    recorded_by_id=user_id,
                )
            )
        StartingRating.objects.bulk_create(starts, batch_size=5000)
        have_rating = set(
            PreferansRating.objects.filter(player_id__in=players.values()).values_list("player_id", flat=True)
        )
        now = timezone.now()
        rows = [
            PreferansRating(
                player_id=players[name],
                rating=state.rating,
                max_rating=state.max_rating,
                league=state.league,
                updated_at=now,
            )
            for name, state in read.states.items()
            if players[name] not in have_rating
        ]
        PreferansRating.objects.bulk_create(rows, batch_size=5000)
    report.add("bots", len(new_bots), len(read.bots) - len(new_bots))
    report.add("starting ratings", len(starts), len(given) - len(starts))
    report.add("preferans ratings", len(rows), len(named) - len(rows))
    start = plan["known_deals"]
    report.add("deals", 0, start)
    report.add("games", 0, len({deal.game for deal in read.deals[:start]}))
    day = plan["ratings_date"] or today
    days = []
    for value in dates:
        day = value or day
        days.append(day)
    total = len(read.deals) - start
    done = 0
    for first, last in _batches(read.deals, start):
        if progress:
            progress(done, total, f"deals {first + 1}-{last}")
        games: dict[str, BulkGame] = {}
        deals = []
        for index in range(first, last):
            deal = read.deals[index]
            if deal.game not in games:
                table = plan["tables"].get(deal.game) or tuple(deal.whists)
                games[deal.game] = BulkGame(
                    key=deal.game, player_ids=tuple(players[p] for p in table), played_at=_noon(days[index])
                )
            deals.append(
                BulkDeal(
                    game=deal.game,
                    whists={players[p]: value for p, value in deal.whists.items()},
                    applied_at=_noon(days[index]),
                )
            )
        batch = deals_import_bulk(games=list(games.values()), deals=deals)
        report.add("games", batch.games)
        report.add("deals", batch.deals)
        done += last - first
    if total:
        analyze_after_import()
    if progress:
        progress(total, total, "done")
    return report


def _batches(deals, start: int):
    """(first, last) ranges of about ``BATCH`` deals from ``start``, each cut where every game begun is over."""
    last_of: dict[str, int] = {}
    for index in range(start, len(deals)):
        last_of[deals[index].game] = index
    open_games: set[str] = set()
    first = start
    for index in range(start, len(deals)):
        game = deals[index].game
        open_games.add(game)
        if last_of[game] == index:
            open_games.discard(game)
        if index + 1 - first >= BATCH and not open_games:
            yield first, index + 1
            first = index + 1
    if first < len(deals):
        yield first, len(deals)


# --- export and the list --------------------------------------------------------------------------------------------


def _bots() -> dict[int, float]:
    """Every bot with a preferans rating, with its level's maximum."""
    return {
        pk: float(level_max)
        for pk, level_max in PreferansRating.objects.filter(
            player__is_bot=True, player__bot_level__isnull=False
        ).values_list("player_id", "player__bot_level__max_rating")
    }


def preferans_history_export(*, rating_list: RatingList) -> dict[str, Any]:
    """The site's preferans history as a ``preferans`` document: starting ratings, bots, every deal in order."""
    starting = _starting_rows()
    bots = _bots()
    games = _site_games()
    seats: dict[int, list[int]] = defaultdict(list)
    for game_id, player_id in Seat.objects.order_by("game_id", "seat", "id").values_list("game_id", "player_id"):
        seats[game_id].append(player_id)
    deal_rows = list(
        DealResult.objects.order_by("deal_id", "id").values_list(
            "deal_id", "deal__game_id", "deal__applied_at", "player_id", "whists"
        )
    )
    pks = [*starting, *bots, *(row[3] for row in deal_rows)]
    ids = player_ids_map(pks)
    doc: dict[str, Any] = {"system": "preferans"}
    if starting:
        doc["ratings_date"] = min(row.list_date for row in starting.values()).isoformat()
    settings = rating_settings()
    states = {pk: starting_state(row, bot_max=bots.get(pk), settings=settings) for pk, row in starting.items()}
    doc["ratings"] = dict(sorted((ids[pk], state.rating) for pk, state in states.items()))
    doc["max_ratings"] = dict(
        sorted((ids[pk], state.max_rating) for pk, state in states.items() if state.max_rating > state.rating)
    )
    doc["leagues"] = dict(sorted((ids[pk], PRO) for pk, state in states.items() if state.league == PRO))
    doc["bots"] = dict(sorted((ids[pk], value) for pk, value in bots.items()))
    doc["players"] = people_entries(pks)
    deals: list[dict[str, Any]] = []
    last_deal = last_day = None
    begun: set[int] = set()
    for deal_id, game_id, applied_at, player_id, whists in deal_rows:
        if deal_id != last_deal:
            entry: dict[str, Any] = {"game": games[game_id], "whists": {}}
            day = timezone.localtime(applied_at).date()
            if day != last_day:
                entry["date"] = day.isoformat()
                last_day = day
            deals.append(entry)
            last_deal = deal_id
            if game_id not in begun:
                begun.add(game_id)
                entry["_table"] = game_id
        deals[-1]["whists"][ids[player_id]] = whists
    for entry in deals:
        game_id = entry.pop("_table", None)
        table = [ids[p] for p in seats[game_id]] if game_id is not None else []
        if game_id is not None and set(table) != set(entry["whists"]):
            entry["players"] = table  # someone of the table had left before the first deal was over
    doc["deals"] = deals
    return doc


def list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict[str, Any]:
    """The preferans list as of ``as_of`` (the deals of that day and before, or all) as exactly the document
    ``manage.py rate`` prints for the same history: everyone's rating, peak and league, and each deal's changes."""
    from ratings.preferans.selectors import explain_rows

    settings = rating_settings()
    starting = _starting_rows()
    bots = _bots()
    states: dict[int, list] = {}
    for pk, row in starting.items():
        state = starting_state(row, bot_max=bots.get(pk), settings=settings)
        states[pk] = [state.rating, state.max_rating, state.league]
    for pk, level_max in bots.items():
        if pk not in states:
            states[pk] = [level_max, level_max, league_for(AMATEUR, level_max, settings)]
    games = _site_games()
    results = DealResult.objects.order_by("deal_id", "id")
    if as_of is not None:
        midnight = timezone.make_aware(dt.datetime.combine(as_of + dt.timedelta(days=1), dt.time(0)))
        results = results.filter(deal__applied_at__lt=midnight)
    deals: list[dict[str, Any]] = []
    chunk: list[DealResult] = []
    game_of: dict[int, int] = {}

    def flush():
        explained = explain_rows(chunk, settings)
        last = None
        for row in chunk:
            if row.deal_id != last:
                deals.append({"game": games[game_of[row.deal_id]], "changes": []})
                last = row.deal_id
            deals[-1]["changes"].append(
                {
                    "player": row.player_id,
                    "before": row.rating_before,
                    "delta": row.delta,
                    "after": row.rating_after,
                    "explanation": explained[(row.deal_id, row.player_id)].as_dict(),
                }
            )
        chunk.clear()

    for row in (
        results.select_related("deal")
        .only(
            "deal_id",
            "player_id",
            "whists",
            "rating_before",
            "rating_after",
            "delta",
            "pro_before",
            "bot_max",
            "deal__game_id",
        )
        .iterator(chunk_size=20_000)
    ):
        game_of[row.deal_id] = row.deal.game_id
        state = states.get(row.player_id)
        if state is None:
            state = states[row.player_id] = [row.rating_before, row.rating_before, PRO if row.pro_before else AMATEUR]
        after = row.rating_after
        state[0] = after
        if after > state[1]:
            state[1] = after
        if after >= settings.pro_threshold:
            state[2] = PRO
        if len(chunk) >= 20_000 and chunk[-1].deal_id != row.deal_id:
            flush()
        chunk.append(row)
    flush()
    if as_of is None:
        for pk, rating, peak, league in PreferansRating.objects.filter(player_id__in=list(states)).values_list(
            "player_id", "rating", "max_rating", "league"
        ):
            states[pk] = [rating, peak, league]
    ids = player_ids_map(states)
    for deal in deals:
        for change in deal["changes"]:
            change["player"] = ids[change["player"]]
    return {
        "ratings": {ids[pk]: state[0] for pk, state in states.items()},
        "max_ratings": {ids[pk]: state[1] for pk, state in states.items()},
        "leagues": {ids[pk]: state[2] for pk, state in states.items()},
        "deals": deals,
    }


history_check = preferans_history_check
history_import = preferans_history_import
history_export = preferans_history_export
