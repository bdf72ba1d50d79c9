from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from federation.caching import TABLE_PARAMS, cached_page
from federation.exports import csv_response
from federation.i18n import current_language
from federation.sections import render_sections
from federation.selectors import empty_result_columns, public_tournament_list, public_tournaments, tournament_results
from federation.versions import SCOPES
from tournaments.filters import TournamentFilter
from tournaments.tables import ResultTable, TournamentTable

PER_PAGE = 50


@require_safe
@cached_page(scopes=("tournaments",), params=(TournamentFilter, *TABLE_PARAMS), free=("name",))
def tournament_list(request):
    tournament_filter = TournamentFilter(request.GET, queryset=public_tournament_list())
    table = TournamentTable(tournament_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "tournaments"):
        return download
    return render(request, "tournaments/tournament_list.html", {"filter": tournament_filter, "table": table})


@require_safe
@cached_page(scopes=SCOPES, params=TABLE_PARAMS)
def tournament_detail(request, pk: int):
    tournament = get_object_or_404(public_tournaments(), pk=pk)
    table = ResultTable(tournament_results(tournament=tournament), exclude=empty_result_columns(tournament=tournament))
    RequestConfig(request, paginate={"per_page": 100}).configure(table)
    if download := csv_response(request, table, f"tournament-{tournament.pk}"):
        return download
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "table": table,
            "breadcrumbs": [
                {"label": _("Tournaments"), "url": reverse("tournaments:tournament_list")},
                {"label": tournament.display_name(current_language())},
            ],
            "stages": tournament.stages.all(),
            "sections": render_sections("TOURNAMENT_PAGE_SECTIONS", request, tournament),
        },
    )
