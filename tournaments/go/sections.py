"""Go's fragments of the shared player page and tournament page (federation.sections).

The player's DIRS club rating has its own fragment (``ratings.dirs.sections``); this one lists their tournaments,
written in Python (issue 16: the template's loop and a ``{% url %}`` per tournament took longer than the read): the
HTML is what ``go/section_player.html`` wrote, which ``tests/tournaments/go/test_section.py`` checks against it.
"""

from functools import lru_cache

from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

from federation import formatting
from federation.db import marked_rows, marked_statement
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
    return registrations.values_list(*shown)[:SHOWN]


#: Values no id takes: the places of the tournament's and the registration's id in a reversed address.
_TOURNAMENT_MARK, _REGISTRATION_MARK = 918273645546372811, 918273645546372822


@lru_cache(maxsize=16)
def _games_url_parts(language: str | None, prefix: str) -> tuple[str, str, str]:
    """``go:player_games`` around its two ids (escaped, as ``{% url %}`` writes it), reversed once per language."""
    url = escape(reverse("go:player_games", args=[_TOURNAMENT_MARK, _REGISTRATION_MARK]))
    head, rest = url.split(str(_TOURNAMENT_MARK))
    middle, tail = rest.split(str(_REGISTRATION_MARK))
    return head, middle, tail


def player_section(request, player) -> SafeString | None:
    """The Go tournaments the player was registered in, newest first (one query)."""
    rows = marked_rows(("go.player_registrations",), _registrations_query, values={"player_id": player.pk})
    if not rows:
        return None
    head, middle, tail = _games_url_parts(get_language(), get_script_prefix())
    items = "".join(
        f'<li><a href="{head}{tournament_id}{middle}{pk}{tail}">{escape(name)}</a>'
        f" ({escape(formatting.day(start_date))})</li>"
        for tournament_id, pk, name, start_date in rows
    )
    title = escape(gettext("Go tournaments"))
    html = f'<h2 class="h4">{title}</h2>\n<ul class="small">{items}</ul>\n'
    return mark_safe(html)  # every value went through escape


player_section.reads = lambda request, player_id: [
    marked_statement(("go.player_registrations",), _registrations_query, values={"player_id": player_id})
]


def tournament_section(request, tournament) -> str | None:
    """Links to the rounds, the standings and the EGD table of a Go tournament run on the site."""
    if tournament.discipline != Discipline.GO:
        return None
    go = GoTournament.objects.filter(tournament=tournament).first()
    if go is None:
        return None
    rounds = list(go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("number").values_list("number", flat=True))
    return render_to_string("go/section_tournament.html", {"go": go, "rounds": rounds})
