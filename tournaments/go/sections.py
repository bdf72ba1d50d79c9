"""Go's fragments of the shared player page and tournament page (federation.sections).

The player's DIRS club rating has its own fragment (``ratings.dirs.sections``); this one lists their tournaments.
"""

from django.template.loader import render_to_string

from federation.i18n import current_language
from federation.latin import display
from tournaments.models import Discipline, TournamentStatus

from .models import GoTournament, Registration, RoundStatus

#: The most tournaments the player page lists.
SHOWN = 50


def _registrations_query(player_id: int):
    """Approved tournaments only: a draft or submitted one is its director's and staff's alone (issue 27)."""
    registrations = Registration.objects.filter(
        player_id=player_id, tournament__tournament__status=TournamentStatus.APPROVED
    ).order_by("-tournament__tournament__start_date")
    shown = ("tournament_id", "pk", "tournament__tournament__name", "tournament__tournament__start_date")
    return registrations.values_list(*shown, "tournament__tournament__name_en")[:SHOWN]


def player_section(request, player) -> str | None:
    """The Go tournaments the player was registered in, newest first (one query)."""
    language = current_language()
    registrations = [
        (tournament_id, pk, display(name, name_en, language=language), start_date)  # Tournament.display_name's rule
        for tournament_id, pk, name, start_date, name_en in _registrations_query(player.pk)
    ]
    if not registrations:
        return None
    return render_to_string("go/section_player.html", {"registrations": registrations})


def tournament_section(request, tournament) -> str | None:
    """Links to the rounds, the standings and the EGD table of a Go tournament run on the site."""
    if tournament.discipline != Discipline.GO:
        return None
    go = GoTournament.objects.filter(tournament=tournament).first()
    if go is None:
        return None
    rounds = list(go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("number").values_list("number", flat=True))
    return render_to_string("go/section_tournament.html", {"go": go, "rounds": rounds})
