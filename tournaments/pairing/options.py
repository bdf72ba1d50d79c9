"""A self-handicap tournament's options and the arithmetic of one game: start level, points of a win, stones, komi.

`rules/go.md`, part 1, the options table and "Handicap and komi". The replay, the pairing and the Go pages all read
these, so each rule has one copy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError
from ratings.engines.parse import is_number, is_whole, parse_bool

KOMI_NORMAL = "normal"
KOMI_NONE = "none"
KOMI_REVERSE = "reverse"
KOMI_KINDS = (KOMI_NORMAL, KOMI_NONE, KOMI_REVERSE)

MAX_STONES = 9


@dataclass(frozen=True)
class Options:
    """A tournament's settings; every combination is allowed (`rules/go.md`, part 1, the options table).

    PROFS is ``half_stone=False, acceleration=False``; FUS is ``half_stone=True, acceleration=True`` with the
    tie-break. Komi amounts are in points: normal komi to white, "no komi" to white (0.5, so no jigo), reverse komi
    to black.
    """

    rounds: int
    half_stone: bool = False
    acceleration: bool = False
    draws_allowed: bool = False
    tiebreak: bool = True
    komi_normal: float = 6.5
    komi_none: float = 0.5
    komi_reverse: float = 6.5

    def __post_init__(self) -> None:
        if not is_whole(self.rounds) or self.rounds < 1:
            raise EngineError("options.rounds", f"{self.rounds!r} is not a whole number of rounds of at least 1")
        for name in ("half_stone", "acceleration", "draws_allowed", "tiebreak"):
            parse_bool(getattr(self, name), f"options.{name}")
        for name in ("komi_normal", "komi_none", "komi_reverse"):
            value = getattr(self, name)
            if not is_number(value) or value < 0:
                raise EngineError(f"options.{name}", f"{value!r} is not a number of points >= 0")

    @classmethod
    def fus(cls, rounds: int, **changes: Any) -> Options:
        """FUS: half-stone step, acceleration and the tie-break."""
        return cls(rounds=rounds, half_stone=True, acceleration=True, tiebreak=True, **changes)

    @classmethod
    def profs(cls, rounds: int, **changes: Any) -> Options:
        """PROFS: one-stone step, a win is worth 1."""
        return cls(rounds=rounds, half_stone=False, acceleration=False, **changes)

    @property
    def max_level_gap(self) -> int:
        return max_level_gap(half_stone=self.half_stone)

    def komi_points(self, kind: str) -> float:
        """The komi amount of a komi kind, always positive; ``reverse`` is paid to black."""
        return {KOMI_NORMAL: self.komi_normal, KOMI_NONE: self.komi_none, KOMI_REVERSE: self.komi_reverse}[kind]


def start_level(rating: float, *, half_stone: bool) -> int:
    """Start points from a tournament-scale rating.

    `rules/go.md`, part 1, options table: one stone ``rating // 100``, half a stone ``rating * 2 // 100``;
    Decision: a rating below 0 counts as 0, so ``//`` and the seed's truncation toward zero agree.
    """
    rating = max(rating, 0)
    return int(rating * 2 // 100) if half_stone else int(rating // 100)


def win_points(streak: int, round_number: int, rounds: int, *, acceleration: bool) -> int:
    """Points of a win; ``streak`` is the winning streak with this win included.

    `rules/go.md`, part 1, "acceleration": the streak length, but at most ``rounds left after this one + 1``,
    i.e. ``min(streak, rounds - round_number + 1)``; without acceleration a win is worth 1.
    """
    if not acceleration:
        return 1
    return max(1, min(streak, rounds - round_number + 1))


def handicap_for(level_gap: int, *, half_stone: bool) -> tuple[int, str]:
    """Stones and komi kind for a level difference (its sign is ignored).

    `rules/go.md`, part 1, "Handicap and komi": d = 0 is an even game with normal komi; half-stone mode gives
    ``d / 2`` stones with reverse komi for even d and ``(d + 1) / 2`` stones with no komi for odd d; one-stone mode
    gives ``d`` stones, no komi. One stone means black moves first with nothing placed.
    """
    d = abs(level_gap)
    if d == 0:
        return 0, KOMI_NORMAL
    if not half_stone:
        return d, KOMI_NONE
    if d % 2 == 0:
        return d // 2, KOMI_REVERSE
    return (d + 1) // 2, KOMI_NONE


def playable_handicap(level_gap: int, *, half_stone: bool) -> tuple[int, str]:
    """The stones and komi a game is played on: :func:`handicap_for`, but never more than 9 stones.

    `rules/go.md`, "Pairing": no game is played on more than 9 stones, and only the director may pair against a
    rule, by hand. Such a game is played, at the largest handicap the rules allow: that of the largest legal level
    gap (9 stones and reverse komi in half-stone mode, 9 stones and no komi in one-stone mode). Levels and the
    tie-break still come from the levels, so the game counts like any other.
    """
    gap = min(abs(level_gap), max_level_gap(half_stone=half_stone))
    return handicap_for(gap, half_stone=half_stone)


def max_level_gap(*, half_stone: bool) -> int:
    """The largest level gap that stays within 9 stones (`rules/go.md`, "Pairing"; package Decision): 18 or 9."""
    return 2 * MAX_STONES if half_stone else MAX_STONES
