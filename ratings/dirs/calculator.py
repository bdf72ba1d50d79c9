"""The handicap DIRS prescribes for two ratings, as the calculator and the club game form show it.

The rule is the engine's (``ratings.engines.dirs.prescribed_handicap``, `rules/go.md`, part 2, "Handicap and komi
from the rating difference"); this module only checks the scale and puts the answer into words.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from federation import formatting
from ratings.engines import dirs

from .models import DIRS_RATING_MAX
from .services import DirsError


def handicap_text(stones: int, komi_kind: str, komi_points=None) -> str:
    """`2 stones, no komi`, `even game, normal komi 6.5`, `1 stone, reverse komi 6.5` (points when known, written the
    reader's way: `обычная коми 6,5`)."""
    points = "" if komi_points is None else f" {formatting.number(komi_points)}"  # 6,5 on a Russian page
    komi = {
        "normal": _("normal komi") + points,
        "none": _("no komi"),
        "reverse": _("reverse komi") + points,
    }.get(komi_kind, komi_kind)
    if stones == 0:
        return _("even game, %(komi)s") % {"komi": komi}
    count = ngettext("%(n)s stone", "%(n)s stones", stones) % {"n": stones}
    return f"{count}, {komi}"


def dirs_handicap(*, a: int, b: int) -> dict:
    """Stones, komi and who takes black for players A and B rated ``a`` and ``b`` on the DIRS scale."""
    for field, rating in (("a", a), ("b", b)):
        if rating > DIRS_RATING_MAX:
            raise DirsError(field, _("The DIRS scale ends at 300."))
    h = dirs.prescribed_handicap(a, b)
    return {
        "scale": "dirs",
        "difference": h.difference,
        "pairable": h.pairable,
        "stones": h.stones,
        "komi": h.komi,
        "text": handicap_text(h.stones, h.komi) if h.pairable else _("not pairable: 10 stones or more"),
        "black": "a" if a < b else "b" if b < a else None,
        "rank_a": dirs.rank_of(a).short,
        "rank_b": dirs.rank_of(b).short,
    }
