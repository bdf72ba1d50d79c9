"""Public pages of the preferans rating: the leaderboards, a game's deals, the calculator and its JSON cells."""

from __future__ import annotations

import math

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from federation.caching import TABLE_PARAMS, cached_page
from federation.exports import csv_response
from federation.i18n import current_language
from federation.selectors import player_places
from ratings.preferans import selectors
from ratings.preferans.filters import LeaderboardFilter
from ratings.preferans.models import Game, League
from ratings.preferans.tables import LeaderboardTable

PER_PAGE = 50
CALC_DEFAULT_RATINGS = [1000, 1200, 1400, 1600, 1800, 2000, 2200]
CALC_DEFAULT_TABLES = [1000, 1200, 1400, 1600, 1800, 2000, 2200]
#: What the calculator's cells are asked with: any text, answered every time (never stored).
CALC_PARAMS = ("ratings", "tables", "whists")


@require_safe
@cached_page(scopes=("registry", "preferans"), params=(LeaderboardFilter, "league", *TABLE_PARAMS), free=("q",))
def index(request):
    league = request.GET.get("league", League.AMATEUR)
    if league not in League.values:
        league = League.AMATEUR
    cities, countries = player_places()
    board = LeaderboardFilter(
        request.GET, queryset=selectors.leaderboard(league=league), cities=cities, countries=countries
    )
    table = LeaderboardTable(board.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, f"preferans-{league}"):
        return download
    context = {
        "filter": board,
        "table": table,
        "league": league,
        "leagues": League.choices,
        "counts": selectors.league_counts(),
    }
    return render(request, "preferans/index.html", context)


@require_safe
@cached_page(scopes=("registry", "preferans"), params=("page",))
def games(request):
    """Every game, newest first (issue 16: a list of preferans games)."""
    page = selectors.games_page(page_number=request.GET.get("page"))
    language = current_language()
    rows = [
        {"game": game, "names": [seat.player.display_name(language) for seat in game.seats.all()]}
        for game in page.object_list
    ]
    context = {
        "page": page,
        "rows": rows,
        "breadcrumbs": [{"label": _("Preferans"), "url": reverse("preferans:index")}, {"label": _("Games")}],
    }
    return render(request, "preferans/games.html", context)


@require_safe
@cached_page(scopes=("registry", "preferans", "ratings"), params=())
def game_detail(request, pk: int):
    game = get_object_or_404(Game.objects.select_related("server"), pk=pk)
    context = {
        "game": game,
        "deals": selectors.game_deals(game=game),
        "totals": selectors.game_totals(game=game),
        "breadcrumbs": [
            {"label": _("Preferans"), "url": reverse("preferans:index")},
            {"label": _("Games"), "url": reverse("preferans:games")},
            {"label": str(game)},
        ],
    }
    return render(request, "preferans/game_detail.html", context)


@require_safe
@cached_page(scopes=("registry",))
def calculator(request):
    context = {"ratings": CALC_DEFAULT_RATINGS, "tables": CALC_DEFAULT_TABLES, "whists": 0}
    return render(request, "preferans/calculator.html", context)


def _numbers(raw: str, name: str) -> list[float]:
    values = []
    for part in raw.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            value = float(part)
        except ValueError:
            raise ValueError(name, _("“%(value)s” is not a number.") % {"value": part}) from None
        if not math.isfinite(value) or not selectors.CALC_MIN_RATING <= value <= selectors.CALC_MAX_RATING:
            raise ValueError(
                name,
                _("A rating must be between %(low)s and %(high)s.")
                % {"low": int(selectors.CALC_MIN_RATING), "high": int(selectors.CALC_MAX_RATING)},
            )
        values.append(value)
    if not values:
        raise ValueError(name, _("Give at least one rating."))
    return values


@require_safe
@cached_page(scopes=("ratings",), params=CALC_PARAMS, free=CALC_PARAMS)
def calculator_data(request):
    """The calculator's cells as JSON, from the engine's ``deal_delta``: one formula for the page and the rating."""
    try:
        ratings = _numbers(request.GET.get("ratings", ""), "ratings")
        tables = _numbers(request.GET.get("tables", ""), "tables")
        raw_whists = request.GET.get("whists", "").strip()
        try:
            whists = int(raw_whists)
        except ValueError:
            raise ValueError("whists", _("Whists are a whole number.")) from None
        if abs(whists) > selectors.CALC_MAX_WHISTS:
            raise ValueError("whists", _("Whists must be between -1000 and 1000."))
        if len(ratings) * len(tables) > selectors.CALC_MAX_CELLS:
            raise ValueError("ratings", _("The table is too large: at most 400 cells."))
    except ValueError as error:
        field, message = error.args
        return JsonResponse({"errors": [{"field": field, "message": message}]}, status=400)
    grid = selectors.calculator_grid(ratings=ratings, table_ratings=tables, whists=whists)
    return JsonResponse({"ratings": ratings, "tables": tables, "whists": whists, "cells": grid})
