"""The preferans fragment of the shared player page (``settings.PLAYER_PAGE_SECTIONS``): six queries at most."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from federation import charts
from federation.i18n import current_language
from ratings.preferans import selectors
from ratings.preferans.models import League


def player_section(request, player) -> str | None:
    rating = selectors.player_rating(player=player)
    if rating is None:
        return None
    language = current_language()
    points = selectors.player_history(player=player)
    games = selectors.player_recent_games(player=player)
    for row in games:
        row["names"] = [p.display_name(language) for p in row["table"]]
    chart = charts.time_chart(
        [charts.series(_("Rating after the game"), [(point.played_at, round(point.rating, 2)) for point in points])],
        rating=_("Rating"),
    )
    context = {
        "rating": rating,
        "points": points,
        "chart": chart,
        "games": games,
        "deals": selectors.player_recent_deals(player=player),
        "starting_league": League(rating.start_league).label if rating.start_league in League.values else "",
    }
    return render_to_string("preferans/_player_section.html", context)
