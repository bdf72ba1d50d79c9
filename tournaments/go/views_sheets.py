"""The crosstable and the venue's print sheets: the round's pairing by board and from A to Z, result slips for each
board, the standings for the wall. Each sheet is a plain page the browser prints on A4 (``css/go-print.css``).

Sheets follow the pages' visibility: a published round (and any finished round's standings) for everyone once the
tournament is approved (before, its director's and staff's alone), a draft round for the director only; result
slips are the director's.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from federation.i18n import current_language

from . import selectors, sheets
from .views import director_required, visible_or_404


def _round_for(request, go, number: int):
    director = selectors.is_director(request.user, go)
    go_round = sheets.visible_round(go=go, number=number, director=director)
    if go_round is None:
        raise Http404
    return go_round


def _standings_context(request, go, *, cells: bool = True) -> dict:
    chosen, completed = sheets.chosen_round(go=go, requested=request.GET.get("round"))
    lines = sheets.standings_table(go=go, upto=chosen, language=current_language(), cells=cells) if chosen else []
    return {
        "go": go,
        "t": go.tournament,
        "lines": lines,
        "chosen": chosen,
        "completed": completed,
        "rounds": range(1, (chosen or 0) + 1),
        "is_dirs": selectors.is_dirs(go),
    }


@require_safe
def crosstable(request, pk: int):
    """Every player's every round after a finished round: opponent, colour, stones, result; on screen and print."""
    go, _director = visible_or_404(request, pk)
    return render(request, "go/crosstable.html", _standings_context(request, go))


@require_safe
def standings_sheet(request, pk: int):
    go, _director = visible_or_404(request, pk)
    return render(
        request, "go/print/standings.html", {**_standings_context(request, go, cells=False), "sheet": "standings"}
    )


@require_safe
def boards_sheet(request, pk: int, number: int):
    go, _director = visible_or_404(request, pk)
    go_round = _round_for(request, go, number)
    boards = sheets.round_sheet(go_round=go_round, language=current_language())
    language = current_language()
    byes = [b.registration.display_name(language) for b in selectors.round_byes(go_round=go_round, language=language)]
    context = {"go": go, "t": go.tournament, "round": go_round, "boards": boards, "byes": byes, "sheet": "boards"}
    return render(request, "go/print/boards.html", context)


@require_safe
def players_sheet(request, pk: int, number: int):
    go, _director = visible_or_404(request, pk)
    go_round = _round_for(request, go, number)
    seats = sheets.seats(go_round=go_round, language=current_language())
    context = {"go": go, "t": go.tournament, "round": go_round, "seats": seats, "sheet": "players"}
    return render(request, "go/print/players.html", context)


@require_safe
@director_required
def slips_sheet(request, go, number: int):
    go_round = _round_for(request, go, number)
    boards = sheets.round_sheet(go_round=go_round, language=current_language())
    context = {"go": go, "t": go.tournament, "round": go_round, "boards": boards, "sheet": "slips"}
    return render(request, "go/print/slips.html", context)
