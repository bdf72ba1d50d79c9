"""``manage.py rate`` for a self-handicap tournament: the JSON document of `RATE_CLI.md`, "Self-handicap tournament"."""

from __future__ import annotations

from typing import Any

from ratings.engines.common import EngineError
from ratings.engines.parse import check_keys, is_number, is_whole, parse_bool, parse_list, parse_object, require
from tournaments.pairing.options import Options
from tournaments.pairing.pairing import pair_round
from tournaments.pairing.standings import ByeResult, Entrant, GameResult, replay, standings

OPTION_KEYS = {
    "half_stone": "half_stone",
    "acceleration": "acceleration",
    "draws": "draws_allowed",
    "tiebreak": "tiebreak",
}
KOMI_KEYS = {"normal": "komi_normal", "none": "komi_none", "reverse": "komi_reverse"}
#: ``id``, ``name``, ``date`` and ``city`` name the tournament for ``import_history`` (``tournaments.go.history``);
#: a player's ``name_latin``, ``city``, ``club`` and ``country`` likewise. ``rate`` reads none of them.
TOP_KEYS = {"system", "options", "rounds", "players", "games", "pair_next", "seed", "id", "name", "date", "city"}
PLAYER_KEYS = {"id", "rating", "name", "absent", "name_latin", "city", "club", "country"}
GAME_KEYS = {"white", "black", "winner", "handicap", "komi", "both"}


def _parse_options(raw: Any, rounds: Any) -> Options:
    parse_object(raw, "options")
    check_keys(raw, [*OPTION_KEYS, "komi"], "options")
    kwargs: dict[str, Any] = {}
    for key, name in OPTION_KEYS.items():
        if key in raw:
            kwargs[name] = parse_bool(raw[key], f"options.{key}")
    komi = parse_object(raw.get("komi", {}), "options.komi")
    check_keys(komi, KOMI_KEYS, "options.komi")
    for key, name in KOMI_KEYS.items():
        if key in komi:
            if not is_number(komi[key]) or komi[key] < 0:
                raise EngineError(f"options.komi.{key}", f"{komi[key]!r} is not a number of points >= 0")
            kwargs[name] = komi[key]
    if not is_whole(rounds) or rounds < 1:
        raise EngineError("rounds", f"{rounds!r} is not a whole number of rounds of at least 1")
    return Options(rounds=rounds, **kwargs)


def _parse_players(raw: Any) -> list[Entrant]:
    entrants = []
    for i, item in enumerate(parse_list(raw, "players")):
        path = f"players[{i}]"
        parse_object(item, path)
        check_keys(item, PLAYER_KEYS, path)
        player_id = require(item, "id", path)
        rating = require(item, "rating", path)
        name = item.get("name", "")
        if not isinstance(name, str):
            raise EngineError(f"{path}.name", f"{name!r} is not a string")
        absent = parse_list(item.get("absent", []), f"{path}.absent", what="a list of round numbers")
        for k, r in enumerate(absent):
            if not is_whole(r):
                raise EngineError(f"{path}.absent[{k}]", f"{r!r} is not a round number")
        entrants.append(Entrant(id=player_id, rating=rating, name=name, absent=frozenset(absent)))
    return entrants


def _parse_games(raw: Any) -> list[list[GameResult | ByeResult]]:
    rounds: list[list[GameResult | ByeResult]] = []
    for r, round_raw in enumerate(parse_list(raw, "games", what="a list of rounds")):
        items: list[GameResult | ByeResult] = []
        for j, item in enumerate(parse_list(round_raw, f"games[{r}]", what="a list of games")):
            path = f"games[{r}][{j}]"
            parse_object(item, path)
            if "bye" in item:
                check_keys(item, {"bye"}, path)
                items.append(ByeResult(item["bye"]))
                continue
            check_keys(item, GAME_KEYS, path)
            white = require(item, "white", path)
            black = require(item, "black", path)
            both = item.get("both")
            if both is None:
                winner = require(item, "winner", path, hint=" (a player id, or null for a draw)")
            else:
                winner = item.get("winner")
            items.append(GameResult(white, black, winner, item.get("handicap"), item.get("komi"), both))
        rounds.append(items)
    return rounds


def rate_document(doc: dict) -> dict:
    """The ``selfhandicap`` section of `RATE_CLI.md`: a JSON document in, a JSON document out.

    Input beyond the contract: ``options.draws`` (default false), ``options.tiebreak`` (default true),
    ``options.komi`` (``{"normal": 6.5, "none": 0.5, "reverse": 6.5}``), a player's ``name`` and ``absent`` (round
    numbers the player sits out), a game's ``both`` (``"win"`` or ``"loss"``, without ``winner``: a special result
    for both players), ``seed`` (the colour draw of the next round), and the keys that only name things
    for the history import (the tournament's ``id``, ``name``, ``date``, ``city``; a player's ``name_latin``,
    ``city``, ``club``, ``country``). Options default to PROFS
    (``half_stone`` and ``acceleration`` false). Output beyond the contract: each standing's ``start_level``,
    ``rating``, ``shared`` and ``explanation``; each board's number, komi points, levels and colour reason; with
    ``pair_next``, the ``round``, the ``seed`` used and the ``issues`` of the pairing.
    """
    parse_object(doc, "document")
    check_keys(doc, TOP_KEYS)
    system = doc.get("system", "selfhandicap")
    if system != "selfhandicap":
        raise EngineError("system", f'{system!r} is not "selfhandicap"')
    rounds = require(doc, "rounds", hint=" (the number of rounds of the tournament)")
    options = _parse_options(doc.get("options", {}), rounds)
    entrants = _parse_players(doc.get("players", []))
    games = _parse_games(doc.get("games", []))
    pair_next = parse_bool(doc.get("pair_next", False), "pair_next")
    seed = doc.get("seed")
    if seed is not None and not is_whole(seed):
        raise EngineError("seed", f"{seed!r} is not a whole number")
    state = replay(options, entrants, games)
    out: dict[str, Any] = {"standings": [s.as_dict() for s in standings(state)]}
    if pair_next:
        if state.next_round > options.rounds:
            raise EngineError("pair_next", f"all {options.rounds} rounds have been played")
        pairing = pair_round(state, seed=seed)
        out["next_round"] = pairing.as_list()
        out["round"] = pairing.round
        out["seed"] = pairing.seed
        out["issues"] = [i.as_dict() for i in pairing.issues]
    return out
