"""The Go handicap calculator: stones and komi for two ratings on the tournament scale or the DIRS scale.

The rules are the engines': start levels, handicap and the 9-stone limit of the self-handicap pairing
(``tournaments.pairing``, `rules/go.md`, part 1) and DIRS's prescribed handicap (``ratings.dirs.calculator``,
part 2); this module picks the scale and puts the answer into words.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from ratings.dirs.calculator import dirs_handicap, handicap_text
from ratings.engines import dirs
from tournaments import pairing


def tournament_handicap(*, a: int, b: int, half_stone: bool) -> dict:
    """Levels, stones, komi and who takes black for players A and B rated ``a`` and ``b`` on the tournament scale."""
    la, lb = pairing.start_level(a, half_stone=half_stone), pairing.start_level(b, half_stone=half_stone)
    stones, komi = pairing.handicap_for(la - lb, half_stone=half_stone)
    pairable = abs(la - lb) <= pairing.max_level_gap(half_stone=half_stone)
    return {
        "scale": "tournament",
        "level_a": la,
        "level_b": lb,
        "difference": abs(la - lb),
        "pairable": pairable,
        "stones": stones,
        "komi": komi,
        "text": handicap_text(stones, komi) if pairable else _("not pairable: more than 9 stones"),
        "black": "a" if la < lb else "b" if lb < la else None,
        # A tournament rating r is r // 10 on the DIRS scale (rules/go.md, scales).
        "rank_a": dirs.rank_of(a // 10).short,
        "rank_b": dirs.rank_of(b // 10).short,
    }


def handicap(*, scale: str, a: int, b: int, half_stone: bool = False) -> dict:
    """The calculator's answer on the scale chosen; ``DirsError`` names a rating off the DIRS scale."""
    if scale == "dirs":
        return dirs_handicap(a=a, b=b)
    return tournament_handicap(a=a, b=b, half_stone=half_stone)
