"""The calculator: W and each place's delta for a tournament of N players and s hanchans (`rules/mahjong.md`).

A read-only use of the engine for the calculator page and its JSON endpoint: the same functions the lists use, so
the numbers agree with the lists to the cent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from ratings.engines import mahjong as engine
from ratings.engines.common import EngineError, div_round_half_away

MAX_PLAYERS = 2000
MAX_HANCHANS = 100


@dataclass(frozen=True)
class CalculatorInput:
    players: int
    hanchans: int
    a_percent: float = 100.0
    stages: tuple[tuple[int, int], ...] = ()
    """(hanchans, players) per stage after the first; the first stage has all players."""


def parse(query: dict[str, str]) -> CalculatorInput:
    """The calculator's query (``players``, ``hanchans``, ``a``, ``stages`` as "10/28, 10/8"), or EngineError."""

    def whole(key: str, default: str | None = None, minimum: int = 1, maximum: int = MAX_PLAYERS) -> int:
        raw = (query.get(key) or default or "").strip()
        if not raw.isdigit():
            raise EngineError(key, f"{raw!r} is not a whole number")
        value = int(raw)
        if not minimum <= value <= maximum:
            raise EngineError(key, f"{value} is not between {minimum} and {maximum}")
        return value

    stages: list[tuple[int, int]] = []
    raw_stages = (query.get("stages") or "").strip()
    if raw_stages:
        for index, part in enumerate(raw_stages.replace(";", ",").split(",")):
            pieces = [piece.strip() for piece in part.split("/")]
            if len(pieces) != 2 or not all(piece.isdigit() for piece in pieces):
                raise EngineError(f"stages[{index}]", f"{part.strip()!r} is not hanchans/players, e.g. 10/28")
            stages.append((int(pieces[0]), int(pieces[1])))
    players = whole("players", minimum=2)
    if stages:
        hanchans = sum(h for h, _ in stages)
        if hanchans > MAX_HANCHANS:
            raise EngineError("stages", f"{hanchans} hanchans in all is more than {MAX_HANCHANS}")
        if stages[0][1] != players:
            raise EngineError("stages[0]", f"{stages[0][1]} players, but the tournament has {players}")
    else:
        hanchans = whole("hanchans", maximum=MAX_HANCHANS)
    raw_a = (query.get("a") or "100").strip().replace(",", ".")
    try:
        a_percent = float(raw_a)
    except ValueError:
        raise EngineError("a", f"{raw_a!r} is not a percentage") from None
    if not 0 <= a_percent <= 100:
        raise EngineError("a", f"{a_percent} is not between 0 and 100")
    return CalculatorInput(players=players, hanchans=hanchans, a_percent=a_percent, stages=tuple(stages))


def calculate(data: CalculatorInput) -> dict:
    """K_players, K_hanchans, W (per stage reached for a cut-off tournament) and R and delta of every place.

    In a cut-off tournament the places are taken in the order the stages leave them: the last stage's players hold
    the first places.
    """
    exact = Fraction(repr(data.a_percent))  # the percentage as typed, not the binary float
    a_bp = div_round_half_away(exact.numerator * engine.CENT, exact.denominator)
    stages = tuple(engine.CutoffStage(hanchans=h, players=p) for h, p in data.stages)
    tournament = engine.RatedTournament(
        id="calculator",
        end_date=date(2000, 1, 1),
        players=data.players,
        hanchans=data.hanchans,
        country="RU",
        stages=stages,
    )
    engine.validate_tournament(tournament, "tournament")
    coefficients = engine.tournament_coefficients(tournament)
    # Which stage each place reached: the last stage's players take the first places.
    reached: list[int] = []
    if stages:
        played = [sum(stage.hanchans for stage in stages[: index + 1]) for index in range(len(stages))]
        counts = [stage.players or 0 for stage in stages]
        for index in range(len(stages) - 1, -1, -1):
            leaving = counts[index] - (counts[index + 1] if index + 1 < len(stages) else 0)
            reached.extend([played[index]] * leaving)
    places = []
    for place in range(1, data.players + 1):
        hanchans = reached[place - 1] if stages and place <= len(reached) else data.hanchans
        w = coefficients.w_cents(hanchans if stages else None)
        places.append(
            {
                "place": place,
                "hanchans": hanchans,
                "w": w / engine.CENT,
                "r": engine.base_rank_cents(data.players, place) / engine.CENT,
                "delta": engine.delta_cents(w, data.players, place, a_bp) / engine.CENT,
            }
        )
    return {
        "players": data.players,
        "hanchans": data.hanchans,
        "k_players": coefficients.k_players,
        "k_hanchans": coefficients.k_hanchans,
        "w_avg": coefficients.w_avg,
        "w": coefficients.finalist_w,
        "a": a_bp / engine.CENT,
        "places": places,
    }
