"""The Gorbunov fragments of the player's and the tournament's pages (``federation.sections``), listed in
``settings.PLAYER_PAGE_SECTIONS`` and ``settings.TOURNAMENT_PAGE_SECTIONS``.
"""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from federation import charts, formatting
from federation.i18n import current_language
from federation.sections import PlayerSection, RatingCard
from ratings.gorbunov import selectors

#: The newest changes of a list shown when its history is unfolded; the older ones fold once more.
RECENT_CHANGES = 10


def player_section(request, player) -> PlayerSection | None:
    """Every Gorbunov list the player is rated in: a card each (rating, place, change since last week), and folded
    below them the starting rating, the history's chart and the changes with their explanations, newest first
    (``selectors.player_lists``: two queries)."""
    lists = selectors.player_lists(player_id=player.pk, language=current_language())
    if not lists:
        return None
    items = []
    cards = []
    for index, item in enumerate(lists):
        events = [charts.event(c["event_date"], c["tournament__name"]) for c in item.changes if c["tournament_id"]]
        series = [charts.series(item.name, item.points, stepped=True)]
        chart = charts.time_chart(series, events=events, rating=_("Rating"))
        chart_id = f"gorbunov-chart-{index}"
        items.append(
            {
                "list": item,
                "chart": chart,
                "chart_id": chart_id,
                "data_id": f"{chart_id}-data",
                "recent": item.changes[:RECENT_CHANGES],
                "older": item.changes[RECENT_CHANGES:],
            }
        )
        cards.append(
            RatingCard(
                discipline=_("Card games"),
                name=item.name,
                url=reverse("ratings:gorbunov:list_detail", args=[item.slug]),
                rating=formatting.rating(item.rating, 0),
                rank=str(item.rank or ""),
                rank_label=_("place in the list"),
                change=formatting.delta(item.delta, 0) if item.delta is not None else "",
                is_new=item.delta is None,
                history=[rating for _day, rating in item.points],
                anchor=f"gorbunov-{item.slug}",
            )
        )
    return PlayerSection(render_to_string("gorbunov/player_section.html", {"items": items}), cards)


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
