"""Public pages of the mahjong lists: thin views over ``ratings.mahjong.selectors``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from federation.caching import DATED, TABLE_PARAMS, cached_page
from federation.exports import csv_response
from federation.i18n import current_language
from federation.models import Player
from federation.selectors import player_places
from federation.tables import paginate, stored_count, unfiltered
from ratings.dates import asked_date, list_for_date, shown_list
from ratings.engines.common import FieldError
from ratings.mahjong import calculator
from ratings.mahjong.filters import MahjongEntryFilter
from ratings.mahjong.sections import player_context
from ratings.mahjong.selectors import (
    latest_snapshots,
    list_snapshots,
    mahjong_lists,
    rows_of,
    shown_list_snapshots,
    snapshot_dates,
    snapshot_entries,
    tournament_names,
)
from ratings.mahjong.tables import MahjongEntryTable
from ratings.models import RatingList

PER_PAGE = 50
#: What a list's pages show: the players' names and the lists (the frame shows the federation's identity).
LIST_SCOPES = ("registry", "ratings")
#: What the tournaments counted and a player's lists show: the lists and the tournaments' names too.
TOURNAMENT_SCOPES = ("registry", "ratings", "tournaments")
#: What the calculator's page reads of the address: its form's fields, filled in.
CALCULATOR_FIELDS = ("players", "hanchans", "stages", "a")


def _list_or_404(slug: str) -> RatingList:
    rating_list = mahjong_lists().filter(slug=slug).first()
    if rating_list is None:
        raise Http404(_("No such mahjong list."))
    return rating_list


@require_safe
@cached_page(scopes=LIST_SCOPES)
def index(request):
    lists = list(mahjong_lists())
    snapshots = latest_snapshots(lists=lists)
    language = current_language()
    rows = [{"list": rl, "name": rl.display_name(language), "snapshot": snapshots.get(rl.pk)} for rl in lists]
    return render(request, "mahjong/index.html", {"rows": rows})


@require_safe
@cached_page(scopes=LIST_SCOPES, params=(MahjongEntryFilter, *DATED, *TABLE_PARAMS), free={"q": None, **DATED})
def list_detail(request, slug: str):
    asked = asked_date(request.GET)
    # The page shows entries only: the summary (every counted and excluded tournament) is not read. The snapshot
    # and its list in one query; the list alone when it has none (or does not exist: 404).
    shown = shown_list(shown_list_snapshots, slug=slug, asked=asked)
    snapshot = shown.snapshot
    rating_list = snapshot.rating_list if snapshot is not None else _list_or_404(slug)
    context = {
        "rating_list": rating_list,
        "snapshot": snapshot,
        "date_message": shown.message,
        "as_of": asked.day,
        "breadcrumbs": [
            {"label": _("Mahjong"), "url": reverse("ratings:mahjong:index")},
            {"label": rating_list.display_name(current_language())},
        ],
    }
    if snapshot is not None:
        cities, countries = player_places()
        entry_filter = MahjongEntryFilter(
            request.GET, queryset=snapshot_entries(snapshot=snapshot), cities=cities, countries=countries
        )
        rows = entry_filter.qs if snapshot.newest else rows_of(entry_filter.qs, snapshot=snapshot)
        table = MahjongEntryTable(rows)
        # Unfiltered, the list has as many rows as the computation stored entries: no COUNT(*) over them.
        count = stored_count(snapshot.stored_entries) if unfiltered(request, entry_filter) else None
        paginate(request, table, per_page=PER_PAGE, count=count)
        if download := csv_response(request, table, f"{rating_list.slug}-{snapshot.as_of}"):
            return download
        context.update(filter=entry_filter, table=table)
    return render(request, "mahjong/list.html", context)


@require_safe
@cached_page(scopes=LIST_SCOPES, params=("page",))
def dates(request, slug: str):
    rating_list = _list_or_404(slug)
    snapshots = snapshot_dates(rating_list=rating_list)
    page = Paginator(snapshots, 100).get_page(request.GET.get("page"))
    return render(request, "mahjong/dates.html", {"rating_list": rating_list, "page": page})


@require_safe
@cached_page(scopes=TOURNAMENT_SCOPES, params=DATED, free=DATED)
def tournaments(request, slug: str):
    rating_list = _list_or_404(slug)
    shown = list_for_date(list_snapshots(rating_list=rating_list), asked_date(request.GET))
    snapshot = shown.snapshot
    counted, excluded, invalid, maxk = [], [], [], []
    language = current_language()
    if snapshot is not None:
        summary = snapshot.summary
        ids = {row["id"] for row in summary.get("counted", [])} | {row["id"] for row in summary.get("excluded", [])}
        ids |= {row["id"] for row in summary.get("invalid", [])}
        names = tournament_names(ids)
        counted = [{**row, "tournament": names.get(row["id"])} for row in summary.get("counted", [])]
        counted.sort(key=lambda row: (-row["wa"], row["end"]))
        excluded = [
            {"tournament": names.get(row["id"]), "reason": row["ru"] if language.startswith("ru") else row["en"]}
            for row in summary.get("excluded", [])
        ]
        invalid = [{**row, "tournament": names.get(row["id"])} for row in summary.get("invalid", [])]
        maxk = summary.get("maxk", [])
    return render(
        request,
        "mahjong/tournaments.html",
        {
            "rating_list": rating_list,
            "snapshot": snapshot,
            "date_message": shown.message,
            "counted": counted,
            "excluded": excluded,
            "invalid": invalid,
            "maxk": maxk,
        },
    )


@require_safe
@cached_page(scopes=TOURNAMENT_SCOPES, params=DATED, free=DATED)
def player(request, pk: int):
    player = get_object_or_404(Player, pk=pk, is_bot=False)
    asked = asked_date(request.GET)
    context = player_context(player=player, as_of=asked.day, language=current_language())
    if asked.error:
        context["date_message"] = asked.error + " " + _("The newest lists are shown.")
    return render(request, "mahjong/player.html", context)


@require_safe
@cached_page(scopes=("registry",), params=CALCULATOR_FIELDS, free=CALCULATOR_FIELDS)
def calculator_page(request):
    return render(request, "mahjong/calculator.html", {"query": request.GET})


@require_safe
def calculator_json(request):
    try:
        data = calculator.parse(request.GET)
        return JsonResponse(calculator.calculate(data))
    except FieldError as error:
        return JsonResponse({"error": str(error), "field": error.field}, status=400)
