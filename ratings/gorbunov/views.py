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
from federation.tables import paginate, stored_count, unfiltered
from ratings.dates import asked_date, shown_list
from ratings.engines.common import FieldError
from ratings.engines.gorbunov import week_start
from ratings.gorbunov import selectors
from ratings.gorbunov.calculator import CalculatorError, changes_for_every_place, tournament_inputs
from ratings.gorbunov.filters import ListFilter, iso_week, week_label
from ratings.gorbunov.tables import ListTable
from ratings.models import Engine, RatingEntry, RatingList
from tournaments.models import CardFormat, Discipline, Tournament, TournamentStatus

PER_PAGE = 50


@require_safe
@cached_page(scopes=("ratings",))
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
    name = rating_list.display_name(current_language())
    context = {
        "rating_list": rating_list,
        "name": name,
        "date_message": shown.message,
        "breadcrumbs": [{"label": _("Card games"), "url": reverse("ratings:gorbunov:index")}, {"label": name}],
    }
    rows = selectors.list_rows(snapshot=snapshot, newest=snapshot.newest) if snapshot else None
    cities, countries = player_places()
    entries = rows.entries if rows else RatingEntry.objects.none()
    mondays = selectors.published_mondays(rating_list=rating_list)
    data = request.GET
    if snapshot is not None and not snapshot.newest and data.get("week") != iso_week(snapshot.as_of):
        # The week select shows the week on screen, also when a ?date= (or a week between publications) chose it.
        data = data.copy()
        data["week"] = iso_week(snapshot.as_of)
    context["filter"] = list_filter = ListFilter(
        data, queryset=entries, cities=cities, countries=countries, mondays=mondays
    )
    if rows is None:
        return render(request, "gorbunov/list_detail.html", context)
    # Issue 28: no column of zeros. A list's first week has no change to show (everyone is new: the page says "new
    # list"), nor has a week in which no rated tournament moved anyone (the page says so instead).
    quiet = not snapshot.first and stored_count(snapshot.stored_moved) == 0
    table = ListTable(list_filter.qs, list_rows=rows)
    if snapshot.first or quiet:
        table.columns.hide("delta")  # on the page only: the downloads keep their columns
    # Unfiltered, the list has as many rows as the publication stored players: no COUNT(*) over them.
    count = stored_count(snapshot.stored_players) if unfiltered(request, ListFilter, ignore=("week",)) else None
    paginate(request, table, per_page=PER_PAGE, count=count)
    if download := csv_response(request, table, f"{rating_list.slug}-{snapshot.as_of:%Y-%m-%d}"):
        return download
    context.update(table=table, snapshot=snapshot, snapshot_week=week_label(snapshot.as_of), newest=snapshot.newest)
    context.update(first_week=snapshot.first, quiet_week=quiet)
    return render(request, "gorbunov/list_detail.html", context)


@require_safe
@cached_page(scopes=("tournaments", "ratings"))
def calculator(request):
    lists = list(selectors.gorbunov_lists())
    tournaments = (
        Tournament.objects.filter(discipline=Discipline.CARD_GAMES, status=TournamentStatus.APPROVED)
        .order_by("-end_date", "name")
        .only("pk", "name", "name_en", "end_date")[:200]
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


#: The calculator's own numbers: its answers for them are not stored (each is computed in no time).
CALCULATOR_INPUTS = ("u", "rt", "k", "rating")


@require_safe
@cached_page(
    scopes=("tournaments", "ratings"),
    params=("list", "tournament", "format", *CALCULATOR_INPUTS),
    free=CALCULATOR_INPUTS,
)
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
