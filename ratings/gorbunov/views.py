"""Public pages of the Gorbunov lists: the index, a list as of any week (CSV too), the calculator and its JSON."""

from __future__ import annotations

import math

from django.http import JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from federation.caching import DATED, TABLE_PARAMS, cached_page
from federation.exports import csv_response
from federation.i18n import current_language
from federation.selectors import player_places
from federation.table_rows import LeanSource
from federation.tables import paginate, stored_count, unfiltered
from ratings.dates import asked_date, shown_list
from ratings.engines.common import FieldError
from ratings.engines.gorbunov import week_start
from ratings.gorbunov import selectors
from ratings.gorbunov.calculator import CalculatorError, changes_for_every_place, tournament_inputs
from ratings.gorbunov.filters import ListFilter
from ratings.gorbunov.tables import PastWeekRows, list_table
from ratings.models import Engine, RatingEntry, RatingList
from tournaments.models import CardFormat, Discipline, Tournament, TournamentStatus

PER_PAGE = 50


@require_safe
def index(request):
    return render(request, "gorbunov/index.html", {"lists": selectors.gorbunov_lists()})


@require_safe
@cached_page(scopes=("registry", "ratings"), params=(ListFilter, *DATED, *TABLE_PARAMS), free={"q": None, **DATED})
def list_detail(request, slug: str):
    asked = asked_date(request.GET)
    # The publication and its list in one query; the list alone when it has none (or does not exist: 404).
    shown = shown_list(selectors.shown_list_snapshots, slug=slug, asked=asked, period_start=week_start)
    snapshot = shown.snapshot
    if snapshot is not None:
        rating_list = snapshot.rating_list
    else:
        rating_list = get_object_or_404(RatingList, slug=slug, engine=Engine.GORBUNOV, is_active=True)
    context = {
        "rating_list": rating_list,
        "name": rating_list.display_name(current_language()),
        "date_message": shown.message,
        "breadcrumbs": [
            {"label": _("Card games"), "url": reverse("ratings:gorbunov:index")},
            {"label": rating_list.display_name(current_language())},
        ],
    }
    cities, countries = player_places()
    if snapshot is None:
        context["filter"] = ListFilter(
            request.GET, queryset=rating_list.snapshots.none(), cities=cities, countries=countries
        )
        return render(request, "gorbunov/list_detail.html", context)
    # No week asked (or a bad one): list_for_date showed the newest publication.
    view = selectors.list_view(snapshot=snapshot, newest=True if asked.day is None else None)
    # Unfiltered, the list has as many rows as the publication stored players: no COUNT(*) over them.
    count = stored_count(snapshot.stored_players) if unfiltered(request, ListFilter, ignore=("week",)) else None
    in_rank_order = request.GET.get("sort", "rank") == "rank" and "_export" not in request.GET
    past_week = count is not None and not view.newest and in_rank_order
    # The filter's queryset is read only when it filters (an older week's page in rank order reads itself).
    rows = RatingEntry.objects.none() if past_week else view.entries
    list_filter = ListFilter(request.GET, queryset=rows, cities=cities, countries=countries)
    if past_week:
        # An older week, as it is mostly asked: a page read in rank order, not every player ranked first.
        table = list_table(PastWeekRows(snapshot=snapshot, count=count, weeks=view.weeks), view=view)
    elif count is not None and view.newest and "_export" not in request.GET:
        # The newest list unfiltered, in any order: its page read by a statement compiled once per process.
        table = list_table(view.entries, view=view)
        table.lean_source = LeanSource(
            ("newest",), selectors.newest_list_entries, {"snapshot_id": snapshot.pk}, {"view": view}
        )
    else:
        table = list_table(list_filter.qs, view=view)
    paginate(request, table, per_page=PER_PAGE, count=count)
    if download := csv_response(request, table, f"{rating_list.slug}-{snapshot.as_of:%Y-%m-%d}"):
        return download
    iso_year, iso_week, _day = snapshot.as_of.isocalendar()
    context.update(
        {
            "filter": list_filter,
            "table": table,
            "snapshot": snapshot,
            "snapshot_week": f"{iso_year}-W{iso_week:02d}",
            "newest": view.newest,
        }
    )
    return render(request, "gorbunov/list_detail.html", context)


@require_safe
def calculator(request):
    lists = list(selectors.gorbunov_lists())
    tournaments = (
        Tournament.objects.filter(discipline=Discipline.CARD_GAMES, status=TournamentStatus.APPROVED)
        .order_by("-end_date", "name")
        .only("pk", "name", "end_date")[:200]
    )
    return render(
        request,
        "gorbunov/calculator.html",
        {"lists": lists, "tournaments": tournaments, "formats": CardFormat.choices},
    )


def _int(request, name: str, default=None) -> int:
    raw = request.GET.get(name, "")
    if raw == "" and default is not None:
        return default
    try:
        return int(raw)
    except ValueError:
        raise CalculatorError(name, _("%(name)s is not a whole number.") % {"name": name}) from None


@require_safe
def calculator_api(request):
    """The calculator's numbers, computed by the engine (one copy of the formula): ``?tournament=`` gives U, Rt, K
    and the format of a tournament; ``?u=&rt=&k=&rating=`` gives the change for every place."""
    language = current_language()
    rating_list = RatingList.objects.filter(slug=request.GET.get("list", ""), engine=Engine.GORBUNOV).first()
    try:
        if request.GET.get("tournament"):
            tournament = Tournament.objects.filter(
                pk=_int(request, "tournament"), discipline=Discipline.CARD_GAMES
            ).first()
            if tournament is None:
                raise CalculatorError("tournament", _("No such card-game tournament."))
            return JsonResponse(tournament_inputs(rating_list=rating_list, tournament=tournament))
        rt_raw = request.GET.get("rt", "").replace(",", ".")
        try:
            rt = float(rt_raw)
            if not math.isfinite(rt):
                raise ValueError(rt_raw)
        except ValueError:
            raise CalculatorError("rt", _("Rt is not a number.")) from None
        data = changes_for_every_place(
            rating_list=rating_list,
            u=_int(request, "u"),
            rt=rt,
            k=_int(request, "k"),
            rating=_int(request, "rating", 100),
            card_format=request.GET.get("format", ""),
            day=timezone.localdate(),
            language=language,
        )
        return JsonResponse(data)
    except FieldError as error:  # the calculator's own checks and the engine's
        return JsonResponse({"error": error.message, "field": error.field}, status=400)
