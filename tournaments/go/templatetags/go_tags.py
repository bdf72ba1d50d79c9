"""Small labels for the Go pages: names in the visitor's alphabet, handicap and komi in words, kyu/dan."""

import re

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from federation.i18n import current_language
from ratings.engines import dirs

register = template.Library()


@register.filter
def reg_name(registration) -> str:
    return registration.display_name(current_language())


@register.filter
def player_name(player) -> str:
    return player.display_name(current_language())


def handicap_text(stones: int, komi_kind: str, komi_points=None) -> str:
    """`2 stones, no komi`, `even game, normal komi 6.5`, `1 stone, reverse komi 6.5` (points when known)."""
    points = "" if komi_points is None else f" {komi_points:g}" if isinstance(komi_points, float) else f" {komi_points}"
    komi = {
        "normal": _("normal komi") + points,
        "none": _("no komi"),
        "reverse": _("reverse komi") + points,
    }.get(komi_kind, komi_kind)
    if stones == 0:
        return _("even game, %(komi)s") % {"komi": komi}
    count = ngettext("%(n)s stone", "%(n)s stones", stones) % {"n": stones}
    return f"{count}, {komi}"


@register.simple_tag
def handicap(board) -> str:
    return handicap_text(board.handicap, board.komi_kind, board.komi)


@register.filter
def dirs_rank(rating) -> str:
    return dirs.rank_of(max(int(rating), 0)).short


@register.filter
def tournament_rank(rating) -> str:
    """The tournament scale: 100 points a stone (2100 = 1 dan); a DIRS rating r is 10 r on it."""
    return dirs.rank_of(max(int(rating), 0) // 10).short


_KEY = re.compile(r"\br(\d+)\b")


@register.simple_tag
def issue_text(issue: dict, names: dict) -> str:
    """An engine issue in the visitor's language, with the engine's ids (``r17``) replaced by names."""
    text = issue.get("ru") if current_language().startswith("ru") else issue.get("en")
    return _KEY.sub(lambda m: names.get(int(m.group(1)), m.group(0)), text or "")


@register.filter
def override_text(entry: dict) -> str:
    return entry.get("ru") if current_language().startswith("ru") else entry.get("en")
