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
