from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from federation.exports import csv_response
from federation.filters import PlayerFilter
from federation.models import Player
from federation.sections import render_sections
from federation.selectors import player_list, player_results, public_tournaments
from federation.tables import PlayerResultTable, PlayerTable
from tournaments.models import Discipline

PER_PAGE = 50
#: Where each discipline's ratings live, for the home page.
RATINGS_PAGE = {
    Discipline.CARD_GAMES: "ratings:gorbunov:index",
    Discipline.MAHJONG: "ratings:mahjong:index",
    Discipline.GO: "go:index",
    Discipline.PREFERANS: "preferans:index",
}


@require_safe
def home(request):
    counts = dict(
        public_tournaments().order_by().values_list("discipline").annotate(n=Count("pk")).values_list("discipline", "n")
    )
    disciplines = [
        {"value": value, "label": label, "count": counts.get(value, 0), "ratings_url": reverse(RATINGS_PAGE[value])}
        for value, label in Discipline.choices
    ]
    latest = public_tournaments().order_by("-end_date", "name")[:10]
    stats = Player.objects.aggregate(players=Count("pk", filter=Q(is_bot=False)))
    return render(request, "federation/home.html", {"disciplines": disciplines, "latest": latest, "stats": stats})


@require_safe
def player_list_view(request):
    player_filter = PlayerFilter(request.GET, queryset=player_list())
    table = PlayerTable(player_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "players"):
        return download
    return render(request, "federation/player_list.html", {"filter": player_filter, "table": table})


@require_safe
def player_detail(request, pk: int):
    player = get_object_or_404(Player.objects.select_related("club"), pk=pk, is_bot=False)
    table = PlayerResultTable(player_results(player=player))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    sections = render_sections("PLAYER_PAGE_SECTIONS", request, player)
    return render(request, "federation/player_detail.html", {"player": player, "table": table, "sections": sections})


def page_not_found(request, exception=None):
    return render(request, "404.html", {"message": _("This page does not exist.")}, status=404)


def bad_request(request, exception=None):
    return render(request, "400.html", {"message": _("The address cannot be read.")}, status=400)
