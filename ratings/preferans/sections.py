"""The preferans fragment of the shared player page (``settings.PLAYER_PAGE_SECTIONS``): the rating, the chart of
every game, the latest games and deals, each deal explained."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext

from federation import charts
from ratings.preferans import selectors
from ratings.preferans.models import League


def player_section(request, player) -> str | None:
    rating = selectors.player_rating(player=player)
    if rating is None:
        return None
    games = selectors.player_games(player_id=player.pk)
    chart = charts.time_chart(
        [charts.series(gettext("Rating after the game"), [(g["at"], round(g["rating"], 2)) for g in games])],
        rating=gettext("Rating"),
    )
    context = {
        "rating": rating,
        "games": games,
        "chart": chart,
        "recent": selectors.recent_games(games=games),
        "deals": selectors.recent_deals(player_id=player.pk) if games else [],
        "starting_league": League(rating.start_league).label if rating.start_league in League.values else "",
    }
    return render_to_string("preferans/_player_section.html", context)
