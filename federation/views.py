from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe
from django_tables2 import RequestConfig

from federation import formatting
from federation.caching import TABLE_PARAMS, cached_page
from federation.clubs import club_list, club_players, club_ratings, club_tournaments, public_club, season_start
from federation.context_processors import site_urls
from federation.exports import csv_response
from federation.filters import ClubFilter, PlayerFilter
from federation.i18n import current_language
from federation.identity import current_identity
from federation.models import LOGO_TYPES, Player
from federation.sections import render_player_sections
from federation.selectors import (
    player_list,
    player_results,
    public_player,
    public_tournaments,
    tournament_winners,
)
from federation.tables import ClubTable, ClubTournamentTable, PlayerResultTable, PlayerTable
from federation.versions import SCOPES
from ratings.selectors import latest_publications
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
@cached_page(scopes=("registry", "tournaments", "ratings"))
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
    language = current_language()
    publications = []
    for item in latest_publications():
        places = 0 if item.rating_list.engine == "gorbunov" else 2  # Gorbunov ratings are whole numbers

        def movers(entries, *, places=places, is_new=item.is_new):
            return [
                {
                    "name": e.player.display_name(language),
                    "pk": e.player_id,
                    "value": formatting.rating(e.rating, places) if is_new else formatting.delta(e.delta, places),
                }
                for e in entries
            ]

        publications.append(
            {
                "item": item,
                "name": item.rating_list.display_name(language),
                "gainers": movers(item.gainers),
                "losers": movers(item.losers),
            }
        )
    latest = list(latest)
    winners = {}
    for result in tournament_winners(tournaments=latest):
        winners.setdefault(result.tournament_id, result)
    latest = [{"tournament": t, "winner": winners.get(t.pk)} for t in latest]
    context = {"disciplines": disciplines, "latest": latest, "stats": stats, "publications": publications}
    return render(request, "federation/home.html", context)


@require_safe
@cached_page(scopes=("registry", "tournaments"), params=(PlayerFilter, *TABLE_PARAMS), free=("q",))
def player_list_view(request):
    player_filter = PlayerFilter(request.GET, queryset=player_list())
    table = PlayerTable(player_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "players"):
        return download
    return render(request, "federation/player_list.html", {"filter": player_filter, "table": table})


@require_safe
@cached_page(scopes=SCOPES, params=("page", "per_page", "sort"))
def player_detail(request, pk: int):
    player = public_player(pk)
    if player is None:
        raise Http404
    results = PlayerResultTable(player_results(player=player))
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(results)
    sections, cards = render_player_sections(request, player)
    breadcrumbs = [
        {"label": _("Players"), "url": site_urls()["players"]},
        {"label": player.display_name(current_language())},
    ]
    context = {
        "player": player,
        "results": results,
        "sections": sections,
        "cards": cards,
        # A visitor who pages or sorts the results came for them: the table is unfolded then.
        "results_open": any(key in request.GET for key in ("page", "per_page", "sort")),
        "breadcrumbs": breadcrumbs,
    }
    return render(request, "federation/player_detail.html", context)


@require_safe
@cached_page(scopes=("registry",), params=(ClubFilter, *TABLE_PARAMS))
def club_list_view(request):
    """The clubs by city (``federation.clubs.club_list``), filtered by city and country, with their downloads."""
    club_filter = ClubFilter(request.GET, queryset=club_list())
    table = ClubTable(club_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "clubs"):
        return download
    return render(request, "federation/club_list.html", {"filter": club_filter, "table": table})


# A club's page shows its players' ratings of every system and their tournaments: every scope.
@require_safe
@cached_page(scopes=SCOPES, params=("page",))
def club_detail(request, pk: int):
    """A club: where it meets and whom to ask, its players' current ratings in every list with their movement this
    season, its players and the tournaments they played (``federation.clubs``: its decisions)."""
    club = public_club(pk)
    if club is None:
        raise Http404
    language = current_language()
    today = timezone.localdate()
    players = list(club_players(club=club))
    tournaments = ClubTournamentTable(club_tournaments(club=club))
    RequestConfig(request, paginate={"per_page": 20}).configure(tournaments)
    breadcrumbs = [{"label": _("Clubs"), "url": site_urls()["clubs"]}, {"label": club.display_name(language)}]
    context = {
        "club": club,
        "meeting_place": club.localised("meeting_place", language),
        "contact": club.localised("contact", language),
        "players": players,
        "lists": club_ratings(club=club, players=players, language=language, today=today),
        "season_start": season_start(today),
        "tournaments": tournaments,
        "breadcrumbs": breadcrumbs,
    }
    return render(request, "federation/club_detail.html", context)


def page_not_found(request, exception=None):
    return render(request, "404.html", {"message": _("This page does not exist.")}, status=404)


@require_safe
def about(request):
    identity = current_identity()
    language = current_language()
    return render(
        request,
        "federation/text_page.html",
        {
            "title": _("About the federation"),
            "text": identity.localised("about", language),
            "russian_only": bool(identity.about),
            "page": "about",
        },
    )


@require_safe
def contact(request):
    identity = current_identity()
    language = current_language()
    return render(
        request,
        "federation/text_page.html",
        {
            "title": _("Contact"),
            "text": identity.localised("contact", language),
            "russian_only": bool(identity.contact),
            "email": identity.email,
            "page": "contact",
        },
    )


@require_safe
def identity_css(request):
    """The federation's colours as CSS variables (a stylesheet, not inline styles: the CSP forbids those)."""
    identity = current_identity()
    css = (
        f":root {{ --fed-primary: {identity.primary_colour}; --fed-accent: {identity.accent_colour}; "
        f"--bs-link-color: {identity.primary_colour}; --bs-link-color-rgb: {_rgb(identity.primary_colour)}; }}\n"
    )
    response = HttpResponse(css, content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=31536000, immutable" if request.GET.get("v") else "no-cache"
    return response


def _rgb(colour: str) -> str:
    return ", ".join(str(int(colour[i : i + 2], 16)) for i in (1, 3, 5))


@require_safe
def identity_logo(request):
    identity = current_identity()
    if not identity.logo:
        raise Http404(_("No logo has been set."))
    response = HttpResponse(bytes(identity.logo), content_type=LOGO_TYPES.get(identity.logo_type, "image/png"))
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = "public, max-age=31536000, immutable" if request.GET.get("v") else "no-cache"
    return response


@require_safe
def robots_txt(request):
    sitemap = request.build_absolute_uri(reverse("sitemap"))
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        "Disallow: /en/admin/",
        "Disallow: /*?*_export=",
        "Allow: /",
        f"Sitemap: {sitemap}",
        "",
    ]
    return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
