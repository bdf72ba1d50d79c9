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
    ratings = selectors.player_ratings(player=player)
    if not ratings:
        return None
    language = current_language()
    items = []
    for index, item in enumerate(ratings):
        items.append(
            {
                "name": item.rating_list.display_name(language),
                "slug": item.rating_list.slug,
                "current": item.current,
                "starting": item.starting,
                "chart_id": f"gorbunov-chart-{index}",
                "data_id": f"gorbunov-chart-{index}-data",
                "chart": charts.time_chart(
                    [charts.series(item.rating_list.display_name(language), item.points, stepped=True)],
                    events=[charts.event(c.event_date, c.tournament.name) for c in item.changes if c.tournament_id],
                    rating=_("Rating"),
                ),
                "changes": [{"change": change, "explanation": change.explanation(language)} for change in item.changes],
            }
        )
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
