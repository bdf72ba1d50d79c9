"""DIRS's fragment of the shared player page (federation.sections): the club rating with its chart.

The fragment is written in Python, not rendered from a template (issue 16: the template, its include of the chart
and its two ``{% url %}`` took as long as the reads): the HTML is what ``dirs/section_player.html`` wrote, in both
languages, which ``tests/ratings/dirs/test_section.py`` checks against that template.
"""

from functools import lru_cache

from django.urls import get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from federation import charts, formatting
from federation.tables import url_with_id
from ratings.engines import dirs

from . import selectors


def chart_of(points: list[dict]) -> dict:
    """The rating after each rated game on a time axis (``federation.charts``)."""
    label = gettext("DIRS rating")
    return charts.time_chart([charts.series(label, [(p["date"], p["rating"]) for p in points])], rating=label)


@lru_cache(maxsize=16)
def _guide_url(language: str | None, prefix: str) -> str:
    """The guide's address, reversed once per language and script prefix (what ``reverse`` depends on)."""
    return escape(reverse("ratings:guide", args=["go"]))


def player_section(request, player) -> SafeString | None:
    """The player's DIRS rating and the chart of its rated games (two queries), or nothing without a rating."""
    card = selectors.dirs_card_of(player_id=player.pk)
    if card is None:
        return None
    title = escape(gettext("DIRS club rating"))
    guide = escape(gettext("How this rating works"))
    label = escape(gettext("DIRS rating"))
    url = escape(url_with_id("dirs:player", player.pk))
    rank = escape(dirs.rank_of(max(card.rating, 0)).short)
    club = f", {escape(card.club_name)}" if card.club_id is not None else ""
    html = (
        f'<h2 class="h4">{title}</h2>\n'
        f'<p class="small"><a class="guide-link" href="{_guide_url(get_language(), get_script_prefix())}">{guide}</a>'
        f'</p>\n<p>{label} <a href="{url}"><strong>{card.rating:03d}</strong></a> ({rank}){club}</p>\n'
        f"{_starting(card)}\n{_chart(card, player.pk)}\n"
    )
    return mark_safe(html)  # every value went through escape (the translations are written as the template did)


player_section.reads = lambda request, player_id: selectors.player_statements(player_id=player_id)


def _starting(card: selectors.DirsCard) -> str:
    if card.start_date is None:
        return ""
    text = gettext(
        "Starting rating %(rating)s (acceleration %(acceleration)s), carried over from the federation's list of "
        "%(date)s."
    ) % {
        "rating": f"{int(card.start_rating):03d}",
        "acceleration": card.start_acceleration or 0,
        "date": escape(formatting.day(card.start_date)),
    }
    return f'<p class="small text-muted dirs-starting">{text}</p>'


def _chart(card: selectors.DirsCard, player_id: int) -> str:
    """The chart of the rated games (as ``dirs/_chart.html`` includes it), or nothing without a rated game."""
    steps = selectors.dirs_rated_steps_of(player_id=player_id)
    if not steps:
        return ""
    points = selectors.dirs_rating_steps(initial_rating=card.initial_rating, steps=steps)
    label = gettext("DIRS rating after each game")
    return charts.chart_html(chart_of(points), "dirs-chart", "dirs-points", label) + "\n"
