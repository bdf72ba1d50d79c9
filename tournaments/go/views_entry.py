"""Fast result entry: every board of a published round on one page, typed from the keyboard (board number, then
W, B, D or F then W/B) or tapped, each board saved on its own (``fetch`` with the CSRF token, ``js/go-entry.js``)
without reloading the page. Nothing is chosen until the director chooses; the service refuses what it always
refuses (a board with a result, a draw where draws are forbidden, a board changed meanwhile) and the page shows the
reason on the board's row.
"""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from . import selectors, services
from .forms import ResultForm
from .models import BoardResult, GoTournament, Round
from .views import director_required


def _round(go: GoTournament, number: int) -> Round:
    go_round = Round.objects.filter(tournament=go, number=number).select_related("tournament__tournament").first()
    if go_round is None:
        raise Http404
    return go_round


@require_safe
@director_required(writes=True)
def entry_page(request, go: GoTournament, number: int):
    go_round = _round(go, number)
    boards = selectors.round_boards(go_round=go_round)
    draws = selectors.draws_allowed(go)
    choices = [
        (BoardResult.WHITE, "w", _("White wins")),
        (BoardResult.BLACK, "b", _("Black wins")),
        *([(BoardResult.DRAW, "d", _("Draw"))] if draws else []),
        (BoardResult.WHITE_FORFEIT, "fw", _("White wins by forfeit")),
        (BoardResult.BLACK_FORFEIT, "fb", _("Black wins by forfeit")),
        (BoardResult.BOTH_LOSE, "xl", _("Both lose")),
        (BoardResult.BOTH_WIN, "xw", _("Both win")),
        (BoardResult.DOUBLE_FORFEIT, "xf", _("Both lose by forfeit")),
    ]
    context = {
        "go": go,
        "t": go.tournament,
        "round": go_round,
        "boards": boards,
        "draws": draws,
        "choices": choices,
        "remaining": sum(1 for b in boards if not b.result),
        "standings_url": reverse("go:standings", args=[go.pk]) + f"?round={number}",
    }
    return render(request, "go/entry.html", context)


@require_POST
@director_required(writes=True, answer_json=True)
def entry_json(request, go: GoTournament, number: int):
    """One board's result as JSON: the board as saved, or the refusal with the field it names (status 400)."""
    go_round = _round(go, number)
    form = ResultForm(request.POST)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        return JsonResponse({"error": str(errors[0]), "field": field}, status=400)
    try:
        board = services.go_result_enter(
            go_round=go_round,
            board_number=form.cleaned_data["board"],
            result=form.cleaned_data["result"],
            version=form.cleaned_data.get("version"),
            user=request.user,
        )
    except services.GoError as error:
        return JsonResponse({"error": error.message, "field": error.field}, status=400)
    remaining = go_round.boards.filter(result="").count()
    return JsonResponse(
        {
            "board": board.number,
            "result": board.result,
            "label": str(board.get_result_display()),
            "version": board.version,
            "remaining": remaining,
        }
    )
