"""The preferans fragment of the shared player page (``settings.PLAYER_PAGE_SECTIONS``): the rating, the chart of
every game, the latest games and deals, each deal explained."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext

from federation import charts, formatting
from federation.sections import PlayerSection, RatingCard
from ratings.preferans import selectors
from ratings.preferans.models import League


def player_section(request, player) -> PlayerSection | None:
    """The player's preferans rating (a card at the top of the page: rating, league, the last game's change) and,
    below, the chart, the latest games and deals."""
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
    card = RatingCard(
        discipline=gettext("Preferans"),
        name=gettext("Preferans rating"),
        url=reverse("preferans:index"),
        rating=formatting.rating(rating.rating, 2),
        rank=rating.get_league_display(),
        rank_label=gettext("League"),
        change=formatting.delta(games[-1]["delta"], 2) if games else "",
        history=[float(g["rating"]) for g in games],
        anchor="preferans",
    )
    return PlayerSection(render_to_string("preferans/_player_section.html", context), [card])
