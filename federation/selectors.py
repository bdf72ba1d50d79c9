"""Reads on the member registry for the public pages: one query per table whatever its length."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery

from federation.caching import answer_key
from federation.latin import latin_key, transliterate
from federation.models import Player, normalize_name
from tournaments.models import Result, Tournament, TournamentStatus


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players (no bots) for the public list; ``tournament_count`` is kept on the row by the services."""
    players = Player.objects.filter(is_bot=False).select_related("club")
    return player_search(queryset=players, search=search)


def player_places() -> tuple[list[str], list[str]]:
    """The cities and countries the registry's people come from: the choices of every list's filter.

    Every list offers the same places (a city with nobody in one list shows that list empty, saying so): one read
    kept in Django's cache under the registry's version and shared by every list's pages. Each list offering only
    its own players' places cost half of a cold RR list page (23 ms of 44 for 20,000 players, the rows 1 ms)."""

    def read() -> tuple[list[str], list[str]]:
        cities, countries = set(), set()
        for city, country in Player.objects.filter(is_bot=False).order_by().values_list("city", "country").distinct():
            if city:
                cities.add(city)
            countries.add(country)
        return sorted(cities), sorted(countries)

    found = answer_key(("registry",), "player-places")
    if found is None:  # the cache is down
        return read()
    return cache.get_or_set("player-places:" + found.etag, read, settings.PUBLIC_PAGE_CACHE_SECONDS)


def player_search(*, queryset: QuerySet[Player], search: str) -> QuerySet[Player]:
    """Every word must match a part of the name in Cyrillic or in Latin ("иванов ив", "Ivanov", "ёлкин").

    A word is also tried in its other spellings: a Cyrillic word as the passport transliteration ("Ёлкин" finds a
    profile with only "Elkin"), a Latin word with the spellings that differ between schemes folded together
    (``federation.latin.latin_key``: "Yolkin" finds "Elkin", "Kondratyev" finds "Kondratev").
    """
    for word in normalize_name(search).split():
        condition = Q()
        for variant in _spellings(word):
            condition |= Q(search_name__contains=variant)
        queryset = queryset.filter(condition)
    return queryset


def _spellings(word: str) -> list[str]:
    variants = [word]
    latin = transliterate(word).lower()
    if latin != word:
        variants.append(latin)
    key = latin_key(word).replace(" ", "")
    if key and word.isascii() and word.isalpha() and key not in variants:
        variants.append(key)
    return variants


@dataclass(frozen=True)
class PlayerChoice:
    """A player as a person picking one sees them: the name, then what tells namesakes apart."""

    pk: int
    label: str


def quoted(name: str) -> str:
    """A name in «» unless it already carries quotes of its own ("«Берсерк-Арена»" stays as it is, not
    "««Берсерк-Арена»»")."""
    if name[:1] in "«\"„“'":
        return name
    return f"«{name}»"


def player_label(player: Player) -> str:
    """ "Иванов Иван — Москва, «Клуб», №123": city, club and the site's id beside the name (the club is read from
    ``player.club``, so select it with the player)."""
    details = [player.city] if player.city else []
    if player.club_id:
        details.append(quoted(player.club.name))
    details.append(f"№{player.pk}")
    return f"{player.full_name} — {', '.join(details)}"


def player_choices(*, search: str, limit: int = 20, offset: int = 0) -> tuple[list[PlayerChoice], bool]:
    """Players (no bots) matching ``search`` as the public search does, labelled for a picker; and whether more
    follow. One query."""
    players = player_search(queryset=Player.objects.filter(is_bot=False), search=search)
    rows = list(players.select_related("club").order_by("search_name", "id")[offset : offset + limit + 1])
    return [PlayerChoice(p.pk, player_label(p)) for p in rows[:limit]], len(rows) > limit


def player_labels(ids) -> dict[int, str]:
    """Labels of these players in one query (the results editor's selected rows)."""
    wanted = {int(pk) for pk in ids if str(pk).isdigit()}
    if not wanted:
        return {}
    return {p.pk: player_label(p) for p in Player.objects.filter(pk__in=wanted).select_related("club")}


def player_likely_duplicates(*, last_name: str, first_name: str = "", exclude_pk: int | None = None, limit: int = 10):
    """Profiles that may be the same person as a new one: the same surname in any spelling, and the same first
    name or its initial when given. Whether to go on is the person's call; this only finds them."""
    if not last_name.strip():
        return []
    players = player_search(queryset=Player.objects.all(), search=last_name)
    if exclude_pk:
        players = players.exclude(pk=exclude_pk)
    found = []
    wanted = normalize_name(first_name)
    for player in players.select_related("club").order_by("search_name", "id")[: limit * 5]:
        surname_keys = {latin_key(player.last_name), latin_key(player.last_name_latin)} - {""}
        if latin_key(last_name) not in surname_keys:
            continue
        if wanted:
            names = {normalize_name(player.first_name), normalize_name(player.first_name_latin)} - {""}
            keys = {latin_key(n) for n in names}
            if names and latin_key(wanted) not in keys and not any(n[:1] == wanted[:1] for n in names):
                continue
        found.append(player)
        if len(found) >= limit:
            break
    return found


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


def public_player(pk: int) -> Player | None:
    """A person's profile (not a bot) with its club, for their page."""
    return Player.objects.filter(is_bot=False).select_related("club").filter(pk=pk).first()


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=TournamentStatus.APPROVED)


def public_tournament_list() -> QuerySet[Tournament]:
    """The public tournaments' list: approved tournaments with their number of participants."""
    participants = Result.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    participants = participants.annotate(n=Count("pk")).values("n")
    return public_tournaments().annotate(result_count=Subquery(participants, output_field=IntegerField()))


def tournament_results(*, tournament: Tournament) -> QuerySet[Result]:
    """A tournament's results as its page and its download show them: each player with their club."""
    return Result.objects.filter(tournament=tournament).select_related("player__club")


def empty_result_columns(*, tournament: Tournament) -> tuple[str, ...]:
    """The columns of a tournament's results that would be empty (issue 28: no blank "Substitute" column): the
    hanchans and substitutes belong to mahjong, and even there show only when some result has them (one query)."""
    if tournament.discipline != "mahjong":
        return ("hanchans_played", "substitute")
    filled = tournament.results.aggregate(
        hanchans=Count("hanchans_played"), substitutes=Count("pk", filter=Q(substitute=True))
    )
    return tuple(
        name
        for name, count in (("hanchans_played", filled["hanchans"]), ("substitute", filled["substitutes"]))
        if not count
    )


def tournament_winners(*, tournaments: list[Tournament]) -> QuerySet[Result]:
    """The first places of ``tournaments`` with their players, for the home page's latest tournaments (one query)."""
    return (
        Result.objects.filter(tournament__in=[t.pk for t in tournaments], place=1)
        .select_related("player")
        .order_by("tournament_id", "pk")
    )
