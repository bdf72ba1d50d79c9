"""DIRS's fragment of the shared player page (federation.sections): the club rating with its chart."""

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from federation import charts

from . import selectors


def chart_of(points: list[dict]) -> dict:
    """The rating after each rated game on a time axis (``federation.charts``)."""
    label = _("DIRS rating")
    return charts.time_chart([charts.series(label, [(p["date"], p["rating"]) for p in points])], rating=label)


def player_section(request, player) -> str | None:
    """The player's DIRS rating and the chart of its rated games, or nothing without a rating."""
    rating = selectors.dirs_rating_of(player=player)
    if rating is None:
        return None
    steps = selectors.dirs_rated_steps_of(player_id=player.pk)
    points = selectors.dirs_rating_steps(initial_rating=rating.initial_rating, steps=steps)
    starting = selectors.dirs_starting_rating_of(player_id=player.pk)
    context = {
        "rating": rating,
        "points": points,
        "chart": chart_of(points),
        "player": player,
        "starting": starting,
        "starting_rating": f"{int(starting.rating):03d}" if starting else "",
    }
    return render_to_string("dirs/section_player.html", context)
