"""Reading a ``selfhandicap`` document for the history import (``tournaments.go.history``): every mistake by its
path (``rate`` stops at the first), then the engine's replay under the document's ids.

What the site needs beyond ``rate`` (the module ``tournaments.go.history`` gives the decisions): whole ratings
0..3000, 1 to 30 rounds, komi amounts the tournament can hold, every round played, no ``pair_next``.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ratings.engines.common import EngineError, FieldError
from ratings.engines.parse import is_number, is_whole
from ratings.history import ID_MAX, HistoryError, PersonInfo, parse_people
from tournaments import pairing
from tournaments.pairing.selfhandicap import GAME_KEYS, KOMI_KEYS, OPTION_KEYS, PLAYER_KEYS, TOP_KEYS

from .models import TOURNAMENT_RATING_MAX, GoTournament

SYSTEM = "selfhandicap"
MAX_ROUNDS = 30
KOMI_MAX = 99.5
NAME_MAX = 200
CITY_MAX = 100
DERIVED_PREFIX = "sh-"


@dataclass
class Plan:
    """A checked document: the engine's input under the document's ids, its replay, and the names."""

    id: str
    name: str
    date: dt.date | None
    city: str
    options: pairing.Options
    entrants: list[pairing.Entrant]
    games: list[list[pairing.GameResult | pairing.ByeResult]]
    state: pairing.TournamentState
    people: dict[str, PersonInfo] = field(default_factory=dict)
    known: GoTournament | None = None

    @property
    def boards(self) -> int:
        return sum(isinstance(item, pairing.GameResult) for items in self.games for item in items)

    @property
    def byes(self) -> int:
        return sum(isinstance(item, pairing.ByeResult) for items in self.games for item in items)


# --- checking -------------------------------------------------------------------------------------------------------


def _text(doc: dict[str, Any], key: str, limit: int, errors: list[FieldError]) -> str:
    value = doc.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        errors.append(EngineError(key, f"{value!r} is not a string"))
        return ""
    if len(value) > limit:
        errors.append(EngineError(key, f"longer than {limit} characters"))
        return ""
    return value.strip()


def _bool(raw: dict[str, Any], key: str, path: str, errors: list[FieldError]) -> bool | None:
    value = raw.get(key)
    if value is None or isinstance(value, bool):
        return value
    errors.append(EngineError(f"{path}.{key}" if path else key, f"{value!r} is not true or false"))
    return None


def _options(raw: Any, rounds: int | None, errors: list[FieldError]) -> pairing.Options | None:
    if not isinstance(raw, dict):
        errors.append(EngineError("options", "is not an object"))
        return None
    kwargs: dict[str, Any] = {}
    for key in raw:
        if key not in (*OPTION_KEYS, "komi"):
            errors.append(EngineError(f"options.{key}", f"unknown key (expected one of {_known(OPTION_KEYS, 'komi')})"))
    for key, name in OPTION_KEYS.items():
        value = _bool(raw, key, "options", errors)
        if value is not None:
            kwargs[name] = value
    komi = raw.get("komi", {})
    if not isinstance(komi, dict):
        errors.append(EngineError("options.komi", "is not an object"))
        komi = {}
    for key in komi:
        if key not in KOMI_KEYS:
            errors.append(EngineError(f"options.komi.{key}", f"unknown key (expected one of {_known(KOMI_KEYS)})"))
    for key, name in KOMI_KEYS.items():
        if key not in komi:
            continue
        value = komi[key]
        if not is_number(value) or not 0 <= value <= KOMI_MAX or not float(round(value * 10, 6)).is_integer():
            errors.append(EngineError(f"options.komi.{key}", f"{value!r} is not a komi of 0 to {KOMI_MAX} points"))
        else:
            kwargs[name] = value
    if rounds is None:
        return None
    return pairing.Options(rounds=rounds, **kwargs)


def _known(keys, *more: str) -> str:
    return ", ".join(sorted([*keys, *more]))


def _players(
    doc: dict[str, Any], rounds: int | None, errors: list[FieldError]
) -> tuple[list[pairing.Entrant], dict[str, frozenset[int]]]:
    """The players without a mistake, and every id named with the rounds it is absent from (a player whose rating
    is wrong is still a player of the games: only the rating is named as wrong)."""
    raw = doc.get("players", [])
    entrants: list[pairing.Entrant] = []
    if not isinstance(raw, list):
        return entrants, {}  # parse_people names it
    seen: dict[str, int] = {}
    named: dict[str, frozenset[int]] = {}
    for index, item in enumerate(raw):
        where = f"players[{index}]"
        if not isinstance(item, dict):
            continue  # parse_people names it
        for key in item:
            if key not in PLAYER_KEYS:
                errors.append(EngineError(f"{where}.{key}", f"unknown key (expected one of {_known(PLAYER_KEYS)})"))
        person_id = item.get("id")
        ok = isinstance(person_id, str) and 0 < len(person_id) <= ID_MAX
        if ok and person_id in seen:
            errors.append(EngineError(f"{where}.id", f'"{person_id}" is registered twice (players[{seen[person_id]}])'))
            ok = False
        rating = item.get("rating")
        if "rating" not in item:
            errors.append(EngineError(f"{where}.rating", "missing (the tournament-scale rating, 0 to 3000)"))
            ok = False
        elif not is_whole(rating) or not 0 <= rating <= TOURNAMENT_RATING_MAX:
            errors.append(
                EngineError(f"{where}.rating", f"{rating!r} is not a whole rating 0 to {TOURNAMENT_RATING_MAX}")
            )
            ok = False
        absent = item.get("absent", [])
        rounds_out: set[int] = set()
        if not isinstance(absent, list):
            errors.append(EngineError(f"{where}.absent", "is not a list of round numbers"))
            ok = False
        else:
            for k, number in enumerate(absent):
                if not is_whole(number) or (rounds is not None and not 1 <= number <= rounds) or number in rounds_out:
                    top = rounds if rounds is not None else "rounds"
                    errors.append(EngineError(f"{where}.absent[{k}]", f"{number!r} is not another round 1..{top}"))
                    ok = False
                else:
                    rounds_out.add(int(number))
        if isinstance(person_id, str) and person_id and person_id not in seen:
            seen[person_id] = index
            named[person_id] = frozenset(rounds_out)
        if ok:
            name = item.get("name") if isinstance(item.get("name"), str) else ""
            entrants.append(pairing.Entrant(person_id, int(rating), name.strip(), frozenset(rounds_out)))
    return entrants, named


def _games(
    doc: dict[str, Any], players: dict[str, frozenset[int]], options: pairing.Options | None, errors: list[FieldError]
) -> list[list[pairing.GameResult | pairing.ByeResult]]:
    raw = doc.get("games", [])
    if not isinstance(raw, list):
        errors.append(EngineError("games", "is not a list of rounds"))
        return []
    rounds = options.rounds if options is not None else None
    if rounds is not None and len(raw) != rounds:
        errors.append(
            EngineError(
                "games",
                f"{len(raw)} rounds of results, but the tournament has {rounds} rounds: only a finished tournament "
                "is imported (a tournament in progress is run on the site)",
            )
        )
    out: list[list[pairing.GameResult | pairing.ByeResult]] = []
    for r, items in enumerate(raw):
        round_number = r + 1
        if not isinstance(items, list):
            errors.append(EngineError(f"games[{r}]", "is not a list of games"))
            continue
        seen: dict[str, str] = {}
        parsed: list[pairing.GameResult | pairing.ByeResult] = []

        def person(value: Any, path: str, round_number: int = round_number, seen: dict = seen) -> str | None:
            return _person(value, path, round_number, seen, players, errors)

        for j, item in enumerate(items):
            path = f"games[{r}][{j}]"
            if not isinstance(item, dict):
                errors.append(EngineError(path, "is not an object"))
                continue
            if "bye" in item:
                for key in item:
                    if key != "bye":
                        errors.append(EngineError(f"{path}.{key}", "unknown key (a bye has only bye)"))
                who = person(item["bye"], f"{path}.bye")
                if who is not None:
                    seen[who] = path
                    parsed.append(pairing.ByeResult(who))
                continue
            for key in item:
                if key not in GAME_KEYS:
                    errors.append(EngineError(f"{path}.{key}", f"unknown key (expected one of {_known(GAME_KEYS)})"))
            white = person(item.get("white"), f"{path}.white")
            if white is not None:
                seen[white] = path
            black = None
            if item.get("black") == white and white is not None:
                errors.append(EngineError(f"{path}.black", f'"{white}" cannot play themselves'))
            else:
                black = person(item.get("black"), f"{path}.black")
                if black is not None:
                    seen[black] = path
            winner, both = item.get("winner"), item.get("both")
            if both is not None:
                if both not in (pairing.BOTH_WIN, pairing.BOTH_LOSE):
                    errors.append(EngineError(f"{path}.both", f'{both!r} is neither "win" nor "loss"'))
                if winner is not None:
                    errors.append(EngineError(f"{path}.winner", "a result for both players has no single winner"))
            elif "winner" not in item:
                errors.append(EngineError(f"{path}.winner", "missing (a player id, or null for a draw)"))
            elif winner is None:
                if options is not None and not options.draws_allowed:
                    errors.append(EngineError(f"{path}.winner", "a draw, but this tournament does not allow draws"))
            elif winner not in (item.get("white"), item.get("black")) or not isinstance(winner, str):
                errors.append(EngineError(f"{path}.winner", f"{winner!r} is neither white nor black"))
            handicap, komi = item.get("handicap"), item.get("komi")
            if handicap is not None and (not is_whole(handicap) or not 0 <= handicap <= pairing.MAX_STONES):
                errors.append(
                    EngineError(f"{path}.handicap", f"{handicap!r} is not a number of stones 0..{pairing.MAX_STONES}")
                )
            if komi is not None and komi not in pairing.KOMI_KINDS:
                errors.append(EngineError(f"{path}.komi", f"{komi!r} is not one of {', '.join(pairing.KOMI_KINDS)}"))
            if white is not None and black is not None:
                handicap = int(handicap) if is_whole(handicap) else None
                parsed.append(pairing.GameResult(white, black, winner, handicap, komi, both))
        out.append(parsed)
    return out


def _person(
    value: Any, path: str, round_number: int, seen: dict[str, str], players: dict, errors: list[FieldError]
) -> str | None:
    """A player named in a round: registered, not already in this round, not marked absent in it."""
    if not isinstance(value, str) or value not in players:
        errors.append(EngineError(path, f"{value!r} is not a player of the tournament"))
        return None
    if value in seen:
        errors.append(EngineError(path, f'"{value}" already plays in round {round_number} ({seen[value]})'))
        return None
    if round_number in players[value]:
        errors.append(EngineError(path, f'"{value}" is marked absent in round {round_number}'))
        return None
    return value


def _nul_paths(value: Any, path: str):
    """Where a string (or a key) holds NUL, which no text column stores."""
    if isinstance(value, str):
        if "\x00" in value:
            yield path or "document"
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and "\x00" in key:
                yield where.replace("\x00", "\\x00")
            else:
                yield from _nul_paths(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nul_paths(item, f"{path}[{index}]")


def check_document(doc: Any) -> Plan:
    """The document read into the engine's input and replayed, or ``HistoryError`` with every mistake."""
    if not isinstance(doc, dict):
        raise HistoryError([EngineError("document", "is not an object")])
    errors: list[FieldError] = [EngineError(path, "contains a NUL character") for path in _nul_paths(doc, "")]
    if errors:
        raise HistoryError(errors)
    for key in doc:
        if key not in TOP_KEYS:
            errors.append(EngineError(str(key), f"unknown key (expected one of {_known(TOP_KEYS)})"))
    if doc.get("system", SYSTEM) != SYSTEM:
        errors.append(EngineError("system", f"{doc.get('system')!r} is not {SYSTEM!r}"))
    ident = doc.get("id")
    if ident is not None and (not isinstance(ident, str) or not 0 < len(ident.strip()) <= ID_MAX):
        errors.append(EngineError("id", f"{str(ident)[:20]!r} is not an id of 1 to {ID_MAX} characters"))
        ident = None
    name = _text(doc, "name", NAME_MAX, errors)
    city = _text(doc, "city", CITY_MAX, errors)
    date = None
    if doc.get("date") is not None:
        value = doc["date"]
        try:
            date = dt.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else None
        except ValueError:
            date = None
        if date is None:
            errors.append(EngineError("date", f"{value!r} is not a date (YYYY-MM-DD)"))
    rounds = doc.get("rounds")
    if "rounds" not in doc:
        errors.append(EngineError("rounds", "missing (the number of rounds of the tournament)"))
        rounds = None
    elif not is_whole(rounds) or not 1 <= rounds <= MAX_ROUNDS:
        errors.append(EngineError("rounds", f"{rounds!r} is not a whole number of rounds 1..{MAX_ROUNDS}"))
        rounds = None
    else:
        rounds = int(rounds)
    options = _options(doc.get("options", {}), rounds, errors)
    if _bool(doc, "pair_next", "", errors):
        errors.append(EngineError("pair_next", "the site imports a finished tournament: nothing is left to pair"))
    seed = doc.get("seed")
    if seed is not None and not is_whole(seed):
        errors.append(EngineError("seed", f"{seed!r} is not a whole number"))
    people = parse_people(doc, errors)
    entrants, named = _players(doc, rounds, errors)
    if isinstance(doc.get("players", []), list) and len(doc.get("players", [])) < 2:
        errors.append(EngineError("players", "a tournament has at least 2 players"))
    games = _games(doc, named, options, errors)
    if errors or options is None:
        raise HistoryError(errors)
    try:
        state = pairing.replay(options, entrants, games)
    except EngineError as error:
        raise HistoryError([error]) from None
    plan = Plan(ident.strip() if ident else "", name, date, city, options, entrants, games, state, people)
    if not plan.id:
        digest = hashlib.sha256(json.dumps(fingerprint(plan), ensure_ascii=False).encode("utf-8")).hexdigest()
        plan.id = DERIVED_PREFIX + digest[:16]
    return plan


def fingerprint(plan: Plan) -> list:
    """What makes two documents the same tournament: the options, and each player's rating and rounds as played."""
    o = plan.options
    options = [o.rounds, o.half_stone, o.acceleration, o.draws_allowed, o.tiebreak]
    options += [float(o.komi_normal), float(o.komi_none), float(o.komi_reverse)]
    players = sorted(
        [
            p.id,
            p.rating,
            sorted(p.absent),
            [[e.kind, e.opponent, e.colour, e.result, e.handicap, e.komi] for e in p.history],
        ]
        for p in plan.state.players
    )
    return [options, players]
