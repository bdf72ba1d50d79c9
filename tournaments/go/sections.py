"""Go's fragments of the shared player page and tournament page (federation.sections)."""

from django.db.models import Q
from django.template.loader import render_to_string

from tournaments.models import Discipline

from . import selectors
from .models import DirsRating, GoTournament, Registration, RoundStatus


def player_section(request, player) -> str | None:
    """DIRS rating with its chart, and the Go tournaments the player was registered in (three queries)."""
    rating = DirsRating.objects.select_related("club").filter(player=player).first()
    registrations = list(
        Registration.objects.filter(player=player)
        .select_related("tournament__tournament")
        .order_by("-tournament__tournament__start_date")[:50]
    )
    if rating is None and not registrations:
        return None
    points = []
    if rating is not None:
        games = list(selectors.dirs_player_games(player_id=player.pk).filter(Q(rated=True)))
        points = selectors.dirs_chart_points(rating=rating, games=games)
    return render_to_string(
        "go/section_player.html",
        {"rating": rating, "points": points, "registrations": registrations, "player": player},
        request=request,
    )


def tournament_section(request, tournament) -> str | None:
    """Links to the rounds, the standings and the EGD table of a Go tournament run on the site."""
    if tournament.discipline != Discipline.GO:
        return None
    go = GoTournament.objects.filter(tournament=tournament).first()
    if go is None:
        return None
    rounds = list(go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("number").values_list("number", flat=True))
    return render_to_string("go/section_tournament.html", {"go": go, "rounds": rounds}, request=request)
