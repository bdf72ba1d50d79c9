"""The Gorbunov fragments of the player's and the tournament's pages (``federation.sections``), listed in
``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS``.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _

from federation import charts
from federation.i18n import current_language
from ratings.gorbunov import selectors


def player_section(request, player) -> str | None:
    """Every Gorbunov list the player is rated in: the rating, the starting rating, the history's chart and the
    changes with their explanations (``selectors.player_lists``: two queries)."""
    lists = selectors.player_lists(player_id=player.pk, language=current_language())
    if not lists:
        return None
    items = []
    for index, item in enumerate(lists):
        events = [charts.event(c["event_date"], c["tournament__name"]) for c in item.changes if c["tournament_id"]]
        series = [charts.series(item.name, item.points, stepped=True)]
        chart = charts.time_chart(series, events=events, rating=_("Rating"))
        chart_id = f"gorbunov-chart-{index}"
        items.append({"list": item, "chart": chart, "chart_id": chart_id, "data_id": f"{chart_id}-data"})
    return render_to_string("gorbunov/player_section.html", {"items": items})


def tournament_section(request, tournament) -> str | None:
    items = selectors.tournament_ratings(tournament=tournament, today=timezone.localdate())
    if not items:
        return None
    language = current_language()
    rows = [
        {
            "item": item,
            "name": item.rating_list.display_name(language),
            "changes": [{"change": c, "explanation": c.explanation(language)} for c in item.changes],
        }
        for item in items
    ]
    return render_to_string("gorbunov/tournament_section.html", {"rows": rows})
