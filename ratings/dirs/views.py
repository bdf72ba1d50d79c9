"""DIRS pages: the leaderboard, a player's games and chart, and the organisers' forms for first ratings and games.

Views are thin: a form reads the input, one service writes, ``DirsError`` comes back on the field it names.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from federation.caching import TABLE_PARAMS, cached_page
from federation.exports import csv_response
from federation.i18n import current_language

from . import calculator, selectors, services
from .filters import DirsRatingFilter
from .forms import DirsGameForm, DirsHandicapForm, DirsInitialForm
from .models import DirsRating
from .sections import chart_of
from .tables import DirsGameTable, DirsLeaderboardTable

PER_PAGE = 50


def _can_record(user) -> bool:
    return user.is_authenticated and user.has_perm("dirs.add_dirsgame")


@require_safe
@cached_page(scopes=("registry", "dirs"), params=(DirsRatingFilter, *TABLE_PARAMS), free=("q",))
def leaderboard(request):
    rating_filter = DirsRatingFilter(request.GET, queryset=selectors.dirs_leaderboard())
    table = DirsLeaderboardTable(rating_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "dirs"):
        return download
    return render(
        request,
        "dirs/leaderboard.html",
        {
            "filter": rating_filter,
            "table": table,
            "can_record": _can_record(request.user),
        },
    )


@require_safe
@cached_page(scopes=("registry", "dirs"), params=TABLE_PARAMS)
def player(request, player_id: int):
    try:
        rating = selectors.dirs_rating_get(player_id=player_id)
    except DirsRating.DoesNotExist as error:
        raise Http404 from error
    games = list(selectors.dirs_player_games(player_id=player_id))
    points = selectors.dirs_chart_points(rating=rating, games=games)
    table = DirsGameTable(list(reversed(games)), player_id=player_id)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    context = {"rating": rating, "points": points, "chart": chart_of(points), "table": table}
    return render(request, "dirs/player.html", context)


@login_required
def initial(request):
    if not request.user.has_perm("dirs.add_dirsrating"):
        raise PermissionDenied
    form = DirsInitialForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rating = services.dirs_rating_set_initial(**form.cleaned_data, user=request.user)
        except services.DirsError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("DIRS rating %(r)s set.") % {"r": f"{rating.rating:03d}"})
            return redirect("dirs:game_new")
    return render(request, "dirs/initial_form.html", {"form": form})


@login_required
def game_new(request):
    if not _can_record(request.user):
        raise PermissionDenied
    form = DirsGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.dirs_game_record(user=request.user, **form.cleaned_data)
        except services.DirsError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            lang = current_language()
            reason = game.reason_ru if lang.startswith("ru") else game.reason_en
            if game.rated:
                messages.success(request, _("Rated: %(reason)s") % {"reason": reason})
            else:
                messages.warning(request, _("Recorded, not rated: %(reason)s") % {"reason": reason})
            return redirect("dirs:game_new")
    return render(request, "dirs/game_form.html", {"form": form, "ratings": selectors.dirs_ratings_by_player()})


@require_safe
@cached_page(scopes=(), params=("a", "b"), free={"a": r"\d{1,3}", "b": r"\d{1,3}"})
def handicap_json(request):
    """The handicap DIRS prescribes for two ratings (the game form proposes it); bad input is a 400 naming the field."""
    form = DirsHandicapForm(request.GET)
    if not form.is_valid():
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    try:
        return JsonResponse(calculator.dirs_handicap(**form.cleaned_data))
    except services.DirsError as error:
        return JsonResponse({"errors": {error.field: [error.message]}}, status=400)
