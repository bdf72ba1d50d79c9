"""Small labels for the Go tournament pages: names in the visitor's alphabet, handicap and komi in words, kyu/dan."""

import re

from django import template
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from federation.i18n import current_language
from ratings.dirs.calculator import handicap_text
from ratings.engines import dirs

register = template.Library()


@register.filter
def reg_name(registration) -> str:
    return registration.display_name(current_language())


@register.simple_tag
def handicap(board) -> str:
    return handicap_text(board.handicap, board.komi_kind, board.komi)


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


@register.filter
def record_text(record) -> str:
    """A line of the director's record in the reader's language."""
    return record.text(current_language())


@register.simple_tag
def crosstable_cell(cell) -> str:
    """One round of a crosstable line as a table cell: ``12+`` over ``w3``; a bye, or not played.

    Built in Python rather than in the template: the crosstable of a big field has thousands of cells.
    """
    if cell.kind == "bye":
        return mark_safe('<td class="round bye">+ <small>{}</small></td>'.format(escape(_("bye"))))
    if cell.kind == "requested":
        return mark_safe('<td class="round absent">— <small>{}</small></td>'.format(escape(_("by request"))))
    if cell.kind != "game":
        return mark_safe('<td class="round absent">—</td>')
    sign = {"+": "win", "-": "loss", "=": "draw"}.get(cell.sign, "pending")
    # The colour letter with its full name on hover (the legend under the table says it for a phone).
    colour = {"w": _("white"), "b": _("black")}.get(cell.colour)
    shown = {"-": "−"}.get(cell.sign, cell.sign)
    title = f"{cell.opponent_name}: {cell.special}" if cell.special else cell.opponent_name
    return format_html(
        '<td class="round {}" title="{}">{}{}{}{}<br><small>{}{}</small></td>',
        sign,
        title,
        cell.opponent,
        shown,
        "!" if cell.forfeit else "",
        "*" if cell.special else "",
        format_html('<abbr title="{}">{}</abbr>', colour, cell.colour) if colour else cell.colour,
        cell.stones,
    )
