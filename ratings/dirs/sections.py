"""DIRS's fragment of the shared player page (federation.sections): the club rating with its chart."""

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from federation import charts, formatting
from federation.sections import PlayerSection, RatingCard
from ratings.engines import dirs

from . import selectors


def chart_of(points: list[dict]) -> dict:
    """The rating after each rated game on a time axis (``federation.charts``)."""
    label = _("DIRS rating")
    return charts.time_chart([charts.series(label, [(p["date"], p["rating"]) for p in points])], rating=label)


def player_section(request, player) -> PlayerSection | None:
    """The player's DIRS rating (a card at the top of the page: rating, kyu/dan, the last game's change) and the
    chart of its rated games, or nothing without a rating."""
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
    history = [p["rating"] for p in points]
    card = RatingCard(
        discipline=_("Go"),
        name=_("DIRS club rating"),
        url=reverse("dirs:player", args=[player.pk]),
        rating=f"{int(rating.rating):03d}",
        rank=dirs.rank_of(max(int(rating.rating), 0)).short,
        rank_label=_("kyu/dan"),
        change=formatting.delta(int(history[-1] - history[-2])) if len(history) > 1 else "",
        history=history,
        anchor="dirs",
    )
    return PlayerSection(render_to_string("dirs/section_player.html", context), [card])
