"""What a mahjong list is given: tournaments with their placements and stages, players' countries, the list's rules.

The services turn their rows into these frozen dataclasses; :func:`validate_tournament` refuses what cannot be a
tournament, naming the field as ``manage.py rate`` spells it, so a service can map the error back onto its rows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from datetime import date
from typing import Any

from ratings.engines.common import EngineError
from ratings.engines.parse import check_keys, parse_bool, parse_date, parse_int, parse_str


@dataclass(frozen=True)
class PlayerInfo:
    """A player named in the results. ``name`` orders players whose ratings are equal (the id when empty)."""

    id: str
    country: str
    name: str = ""


@dataclass(frozen=True)
class Placement:
    """One participant's place. ``player`` is None for a participant without a profile (counted in N only).

    ``hanchans`` is what this player played; it is required in a cut-off tournament and ignored otherwise.
    """

    player: str | None
    place: int
    hanchans: int | None = None


@dataclass(frozen=True)
class CutoffStage:
    """One stage of a cut-off tournament; ``players`` is how many started it, when known."""

    hanchans: int
    players: int | None = None


@dataclass(frozen=True)
class RatedTournament:
    """A tournament as the lists see it.

    ``players`` is N (substitutes and players without a profile included). ``hanchans`` is the tournament's length,
    the sum of its stages when it has any. The flags are what federation staff set (`rules/mahjong.md`, "The three
    lists"): accreditation, openness, EMA status, online, rank restriction and whether that restriction is
    legitimate.
    """

    id: str
    end_date: date
    players: int
    hanchans: int
    country: str
    results: tuple[Placement, ...] = ()
    stages: tuple[CutoffStage, ...] = ()
    ema: bool = False
    accredited: bool = False
    open: bool = False
    online: bool = False
    rank_restricted: bool = False
    rank_restriction_legitimate: bool = False
    name: str = ""

    @property
    def is_cutoff(self) -> bool:
        return bool(self.stages)


@dataclass(frozen=True)
class ListSettings:
    """The rules of one list, with the values of `rules/mahjong.md`, "The three lists", as defaults.

    ``online``: the list takes online tournaments only (True) or offline ones only (False).
    ``full_rules_from``: tournaments that end before it need only ``min_players`` (RR before 2018); None: always the
    full rules. ``ema_abroad``: EMA tournaments abroad with a player of ``country`` count.
    ``rank_restricted_from``: rank-restricted tournaments that end on or after it count when judged legitimate;
    None: never. ``lists_everyone``: every player is listed (online), otherwise only players of ``country``.
    """

    code: str = "rr"
    country: str = "RU"
    online: bool = False
    min_players: int = 16
    min_hanchans: int = 4
    full_rules_from: date | None = date(2018, 1, 1)
    requires_accreditation: bool = True
    requires_open: bool = True
    ema_abroad: bool = True
    rank_restricted_from: date | None = None
    part_b_count: int = 4
    lists_everyone: bool = False
    min_tournaments: int = 2


RR = ListSettings()
CRR = ListSettings(
    code="crr", min_players=12, min_hanchans=3, full_rules_from=None, requires_accreditation=False, requires_open=False
)
ONLINE = ListSettings(
    code="online",
    online=True,
    min_players=12,
    min_hanchans=3,
    full_rules_from=None,
    requires_accreditation=False,
    requires_open=False,
    ema_abroad=False,
    rank_restricted_from=date(2021, 5, 19),
    part_b_count=3,
    lists_everyone=True,
)
PRESETS: dict[str, ListSettings] = {"rr": RR, "crr": CRR, "online": ONLINE}


def list_settings_from_params(params: Mapping[str, Any], *, preset: str = "rr") -> ListSettings:
    """A list's settings from the parameters stored with it (a ``RatingList`` row), on top of a preset.

    Dates may be ISO strings; an unknown key or a value of the wrong type is an :class:`EngineError` naming it.
    """
    if preset not in PRESETS:
        raise EngineError("preset", f"{preset!r} is not one of {', '.join(PRESETS)}")
    base = PRESETS[preset]
    check_keys(params, [f.name for f in fields(ListSettings)])
    changes: dict[str, Any] = {}
    for key, value in params.items():
        current = getattr(base, key)
        if key in ("full_rules_from", "rank_restricted_from"):
            changes[key] = None if value is None else parse_date(value, key)
        elif isinstance(current, bool):
            changes[key] = parse_bool(value, key)
        elif isinstance(current, int):
            changes[key] = parse_int(value, key, minimum=0 if key != "part_b_count" else 1)
        else:
            changes[key] = parse_str(value, key)
    return replace(base, **changes)


def validate_tournament(tournament: RatedTournament, path: str) -> None:
    """Raise :class:`EngineError` naming the field (``tournaments[3].results[7].place``) when the data is impossible."""
    if tournament.players < 2:
        raise EngineError(f"{path}.players", f"{tournament.players} is fewer than 2 players")
    if tournament.hanchans < 1:
        raise EngineError(f"{path}.hanchans", f"{tournament.hanchans} is fewer than 1 hanchan")
    stages = tournament.stages
    if stages:
        for index, stage in enumerate(stages):
            if stage.hanchans < 1:
                raise EngineError(f"{path}.stages[{index}].hanchans", f"{stage.hanchans} is fewer than 1 hanchan")
        total = sum(stage.hanchans for stage in stages)
        if tournament.hanchans != total:
            raise EngineError(f"{path}.hanchans", f"{tournament.hanchans} is not the sum of the stages ({total})")
        if stages[0].players is not None and stages[0].players != tournament.players:
            raise EngineError(
                f"{path}.stages[0].players",
                f"{stages[0].players} differs from the tournament's players ({tournament.players})",
            )
        later = [stage.players for stage in stages[1:]]
        if any(count is not None for count in later) and any(count is None for count in later):
            missing = 1 + later.index(None)
            raise EngineError(f"{path}.stages[{missing}].players", "missing; give players for every stage or for none")
        previous = tournament.players
        for index, count in enumerate(later, start=1):
            if count is not None:
                if count < 1 or count > previous:
                    raise EngineError(
                        f"{path}.stages[{index}].players", f"{count} is not between 1 and the stage before ({previous})"
                    )
                previous = count
    if len(tournament.results) > tournament.players:
        raise EngineError(f"{path}.results", f"{len(tournament.results)} results but players is {tournament.players}")
    seen: dict[str, int] = {}
    for index, result in enumerate(tournament.results):
        where = f"{path}.results[{index}]"
        if not 1 <= result.place <= tournament.players:
            if result.place > tournament.players:
                message = f"{result.place} is larger than players ({tournament.players})"
            else:
                message = f"{result.place} is smaller than 1"
            raise EngineError(f"{where}.place", message)
        if result.player is not None:
            if result.player in seen:
                raise EngineError(
                    f"{where}.player",
                    f"{result.player!r} appears twice in this tournament (results[{seen[result.player]}])",
                )
            seen[result.player] = index
        if stages and result.hanchans is None:
            raise EngineError(f"{where}.hanchans", "missing; a tournament with stages needs each result's hanchans")
        if result.hanchans is not None:
            if result.hanchans < 1:
                raise EngineError(f"{where}.hanchans", f"{result.hanchans} is fewer than 1 hanchan")
            if result.hanchans > tournament.hanchans:
                holds = "the stages hold" if stages else "the tournament has"
                raise EngineError(
                    f"{where}.hanchans", f"{result.hanchans} is more than {holds} ({tournament.hanchans})"
                )
