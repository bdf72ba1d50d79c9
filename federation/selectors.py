"""Reads on the member registry for the public pages: one query per table whatever its length."""

from __future__ import annotations

from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery

from federation.models import Player, normalize_name
from tournaments.models import Result, Tournament, TournamentStatus


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players (no bots) for the public list; ``tournament_count`` is kept on the row by the services."""
    players = Player.objects.filter(is_bot=False).select_related("club")
    return player_search(queryset=players, search=search)


def player_places(*, players: QuerySet[Player] | None = None) -> tuple[list[str], list[str]]:
    """The cities and countries these players (all people, no bots, by default) come from, in one query."""
    if players is None:
        players = Player.objects.filter(is_bot=False)
    cities, countries = set(), set()
    for city, country in players.order_by().values_list("city", "country").distinct():
        if city:
            cities.add(city)
        countries.add(country)
    return sorted(cities), sorted(countries)


def player_search(*, queryset: QuerySet[Player], search: str) -> QuerySet[Player]:
    """Every word must match a part of the name in Cyrillic or in Latin ("иванов ив", "Ivanov", "ёлкин")."""
    for word in normalize_name(search).split():
        queryset = queryset.filter(search_name__contains=word)
    return queryset


def player_results(*, player: Player) -> QuerySet[Result]:
    """A player's results in approved tournaments, newest first, with each tournament's number of participants."""
    participants = (
        Result.objects.filter(tournament=OuterRef("tournament"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Result.objects.filter(player=player, tournament__status=TournamentStatus.APPROVED)
        .select_related("tournament")
        .annotate(result_count=Subquery(participants, output_field=IntegerField()))
        .order_by("-tournament__end_date", "tournament__name")
    )


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=TournamentStatus.APPROVED)


# --- page versions (federation.caching): one query that changes whenever what a page shows changes ---------------

Fragment = tuple[str, list]


def version_of(fragments: list[Fragment]) -> str:
    """Run the scalar subqueries of ``fragments`` as one ``SELECT`` and join their values into a version string."""
    from django.db import connection

    sql = "SELECT " + ", ".join(f"({part})" for part, _params in fragments)
    params = [value for _part, values in fragments for value in values]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return "|".join(str(value) for value in row)


def registry_fragments() -> list[Fragment]:
    """What every public page shows besides its own data: players' and clubs' names (their history rows change on
    every edit; new ids on bulk creation) and the federation's identity."""
    from federation.identity import identity_version
    from federation.models import Club

    return [
        (f"SELECT COALESCE(MAX(history_id), 0) FROM {Player.history.model._meta.db_table}", []),
        (f"SELECT COALESCE(MAX(id), 0) FROM {Player._meta.db_table}", []),
        (f"SELECT COALESCE(MAX(history_id), 0) FROM {Club.history.model._meta.db_table}", []),
        ("SELECT %s", [identity_version()]),  # the same cached copy the page renders with
    ]


def player_page_version(player_id: int) -> str:
    """The player's page: the registry, the player's results, and each discipline's part
    (``settings.PLAYER_PAGE_VERSIONS``, dotted paths of ``(player_id) -> list[Fragment]``)."""
    from django.conf import settings
    from django.utils.module_loading import import_string

    fragments = [
        *registry_fragments(),
        (f"SELECT COALESCE(MAX(id), 0) FROM {Result._meta.db_table} WHERE player_id = %s", [player_id]),
        (
            f"SELECT COALESCE(MAX(history_id), 0) FROM {Result.history.model._meta.db_table} WHERE player_id = %s",
            [player_id],
        ),
        (f"SELECT COALESCE(MAX(history_id), 0) FROM {Tournament.history.model._meta.db_table}", []),
    ]
    for path in getattr(settings, "PLAYER_PAGE_VERSIONS", []):
        fragments += import_string(path)(player_id)
    return version_of(fragments)
