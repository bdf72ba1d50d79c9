"""``manage.py rate`` for the mahjong lists: the JSON document of `RATE_CLI.md`, "Mahjong", in and out."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ratings.engines.common import EngineError
from ratings.engines.mahjong.coefficients import CENT, base_rank_cents
from ratings.engines.mahjong.inputs import CRR, ONLINE, RR, CutoffStage, Placement, PlayerInfo, RatedTournament
from ratings.engines.mahjong.lists import Score
from ratings.engines.mahjong.state import compute_list
from ratings.engines.parse import parse_bool, parse_date, parse_int, parse_list, parse_object, parse_str, require

_LISTS = {"mahjong-rr": RR, "mahjong-crr": CRR, "mahjong-online": ONLINE}
_FLAGS = ("ema", "accredited", "open", "online", "rank_restricted", "rank_restriction_legitimate")


def _parse_tournament(raw: Any, path: str, country: str) -> RatedTournament:
    obj = parse_object(raw, path)
    stages: list[CutoffStage] = []
    if "stages" in obj:
        for index, raw_stage in enumerate(parse_list(obj["stages"], f"{path}.stages")):
            stage_path = f"{path}.stages[{index}]"
            stage = parse_object(raw_stage, stage_path)
            players = stage.get("players")
            stages.append(
                CutoffStage(
                    hanchans=parse_int(require(stage, "hanchans", stage_path), f"{stage_path}.hanchans", minimum=1),
                    players=None if players is None else parse_int(players, f"{stage_path}.players", minimum=1),
                )
            )
        if not stages:
            raise EngineError(f"{path}.stages", "is empty; leave it out for a tournament without cut-offs")
    if stages and "hanchans" not in obj:
        hanchans = sum(stage.hanchans for stage in stages)
    else:
        hanchans = parse_int(require(obj, "hanchans", path), f"{path}.hanchans", minimum=1)
    results: list[Placement] = []
    for index, raw_result in enumerate(parse_list(obj.get("results", []), f"{path}.results")):
        result_path = f"{path}.results[{index}]"
        result = parse_object(raw_result, result_path)
        player = require(result, "player", result_path)
        played = result.get("hanchans")
        results.append(
            Placement(
                player=None if player is None else parse_str(player, f"{result_path}.player"),
                place=parse_int(require(result, "place", result_path), f"{result_path}.place"),
                hanchans=None if played is None else parse_int(played, f"{result_path}.hanchans"),
            )
        )
    flags = {flag: parse_bool(obj.get(flag, False), f"{path}.{flag}") for flag in _FLAGS}
    return RatedTournament(
        id=parse_str(require(obj, "id", path), f"{path}.id"),
        end_date=parse_date(require(obj, "end_date", path), f"{path}.end_date"),
        players=parse_int(require(obj, "players", path), f"{path}.players"),
        hanchans=hanchans,
        country=parse_str(obj.get("country", country), f"{path}.country"),
        results=tuple(results),
        stages=tuple(stages),
        name=str(obj.get("name", "")),
        **flags,
    )


def _score_dict(score: Score) -> dict[str, Any]:
    return {
        "tournament": score.tournament,
        "place": score.place,
        "players": score.players,
        "hanchans": score.hanchans,
        "w": score.w,
        "r": base_rank_cents(score.players, score.place) / CENT,
        "a": score.a_percent,
        "delta": score.delta,
        "part_a": score.in_part_a,
        "part_b": score.in_part_b,
    }


def rate_document(doc: dict[str, Any]) -> dict[str, Any]:
    """``manage.py rate`` for ``mahjong-rr``, ``mahjong-crr`` and ``mahjong-online`` (`RATE_CLI.md`, "Mahjong").

    Besides the contract's keys, each list entry carries the chosen tournaments, every tournament's numbers
    (``details``, with A as the published percentage) and the explanation; each excluded tournament carries the
    Russian reason. Tournaments may also give ``rank_restriction_legitimate`` and, per stage, ``players``.
    """
    doc = parse_object(doc, "document")
    system = require(doc, "system")
    if not isinstance(system, str) or system not in _LISTS:
        raise EngineError("system", f"{system!r} is not one of {', '.join(_LISTS)}")
    as_of = parse_date(require(doc, "as_of"), "as_of")
    country = parse_str(doc.get("country", _LISTS[system].country), "country")
    settings = replace(_LISTS[system], country=country)

    players: list[PlayerInfo] = []
    seen_players: set[str] = set()
    for index, raw in enumerate(parse_list(doc.get("players", []), "players")):
        path = f"players[{index}]"
        obj = parse_object(raw, path)
        player_id = parse_str(require(obj, "id", path), f"{path}.id")
        if player_id in seen_players:
            raise EngineError(f"{path}.id", f"{player_id!r} appears twice")
        seen_players.add(player_id)
        players.append(
            PlayerInfo(
                id=player_id,
                country=parse_str(require(obj, "country", path), f"{path}.country"),
                name=str(obj.get("name", "")),
            )
        )
    tournaments = [
        _parse_tournament(raw, f"tournaments[{index}]", country)
        for index, raw in enumerate(parse_list(require(doc, "tournaments"), "tournaments"))
    ]
    result = compute_list(settings=settings, as_of=as_of, tournaments=tournaments, players=players)
    return {
        "as_of": as_of.isoformat(),
        "list": [
            {
                "rank": entry.rank,
                "player": entry.player,
                "rating": entry.rating,
                "part_a": entry.part_a,
                "part_b": entry.part_b,
                "tournaments": entry.tournaments,
                "part_a_tournaments": list(entry.part_a_tournaments),
                "part_b_tournaments": list(entry.part_b_tournaments),
                "details": [_score_dict(score) for score in entry.scores],
                "explanation": entry.explanation.as_dict(),
            }
            for entry in result.entries
        ],
        "excluded": [
            {"tournament": item.tournament, "reason": item.reason.en, "reason_ru": item.reason.ru}
            for item in result.excluded
        ],
        "maxk": [{"tournament": item.tournament, "w": item.w, "a": item.a, "wa": item.wa} for item in result.maxk],
    }
