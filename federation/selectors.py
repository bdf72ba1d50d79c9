"""Reads on the member registry for the public pages: one query per table whatever its length."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery

from federation.latin import latin_key, transliterate
from federation.models import Player, normalize_name
from tournaments.models import Result, Tournament, TournamentStatus


def player_list(*, search: str = "") -> QuerySet[Player]:
    """Players (no bots) for the public list; ``tournament_count`` is kept on the row by the services."""
    players = Player.objects.filter(is_bot=False).select_related("club")
    return player_search(queryset=players, search=search)


def player_places(*, players: QuerySet[Player] | None = None, shape: str = "") -> tuple[list[str], list[str]]:
    """The cities and countries these players (all people, no bots, by default) come from, in one query.

    On PostgreSQL a skip scan of the index on (city, country): one index probe per place (a few dozen), not a pass
    over every player (20,000 took 4-10 ms a list page, issue 16); elsewhere ``DISTINCT``. ``shape`` names a
    ``players`` that is always the same query (no value of the request in it): its statement is then built once per
    process, not compiled from the querysets on every page (most of the cost beside the query itself), and its answer
    is kept for the page's version (``federation.caching.page_memo``)."""
    from django.db import connection

    def people() -> QuerySet[Player]:
        found = Player.objects.filter(is_bot=False)
        return found if players is None else found.filter(Exists(players.filter(pk=OuterRef("pk"))))

    if connection.vendor == "postgresql":
        if players is None or shape:
            key = (connection.alias, shape if players is not None else "")
            if key not in _PLACES_STATEMENTS:
                _PLACES_STATEMENTS[key] = _places_statement(people())
            sql, params = _PLACES_STATEMENTS[key]
            return _sorted_places(_run_places(sql, params))
        sql, params = _places_statement(people())
        pairs = _run_places(sql, params)
    elif players is None or shape:
        return _sorted_places(people().order_by().values_list("city", "country").distinct())
    else:
        pairs = people().order_by().values_list("city", "country").distinct()
    return _sorted_places(pairs)


def _run_places(sql: str, params: list) -> list[tuple[str, str]]:
    from federation.db import bound_cursor

    # The same text on every page: prepared by PostgreSQL after its fifth run on a connection.
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


#: A value no id takes: the place of ``places_of``'s key in a statement built once.
_KEY_MARK = -918273645


def places_of(*, shape: str, rows, key: int) -> tuple[list[str], list[str]]:
    """The cities and countries of the players of ``rows(key)`` (rows with a ``player``, e.g. the entries of one
    snapshot), for a set that differs by one id only: on PostgreSQL its statement is built once per process and
    ``shape`` (a mark in place of the id, replaced by ``key`` on each page), not compiled from the querysets on every
    page (1 ms of a mahjong list page, issue 16); each player is looked up in ``rows`` by its id (an index probe)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return player_places(players=Player.objects.filter(pk__in=rows(key).values("player_id")))
    statement = (connection.alias, f"of:{shape}")
    if statement not in _PLACES_STATEMENTS:
        people = Player.objects.filter(is_bot=False).filter(Exists(rows(_KEY_MARK).filter(player_id=OuterRef("pk"))))
        _PLACES_STATEMENTS[statement] = _places_statement(people)
    sql, params = _PLACES_STATEMENTS[statement]
    params = [key if type(p) is int and p == _KEY_MARK else p for p in params]
    return _sorted_places(_run_places(sql, params))


def _sorted_places(pairs) -> tuple[list[str], list[str]]:
    cities, countries = set(), set()
    for city, country in pairs:
        if city:
            cities.add(city)
        countries.add(country)
    return sorted(cities), sorted(countries)


#: ``_places_statement`` of each fixed ``players`` (``player_places``'s ``shape``), per database.
_PLACES_STATEMENTS: dict[tuple[str, str], tuple[str, list]] = {}


def _places_statement(people: QuerySet[Player]) -> tuple[str, list]:
    """``SELECT DISTINCT city, country`` as a recursive walk of the index ``player_place_idx``: each step takes the
    next (city, country) after the one before."""
    from django.db import connection

    table = connection.ops.quote_name(Player._meta.db_table)
    ordered = people.order_by("city", "country").values_list("city", "country")
    first_sql, first_params = ordered[:1].query.sql_with_params()
    after = ordered.extra(where=[f"({table}.city, {table}.country) > (places.city, places.country)"])[:1]
    next_sql, next_params = after.query.sql_with_params()
    sql = (
        f"WITH RECURSIVE places(city, country) AS (({first_sql}) UNION ALL "
        f"SELECT next.city, next.country FROM places, LATERAL ({next_sql}) next) SELECT city, country FROM places"
    )
    return sql, [*first_params, *next_params]


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


def player_label(player: Player) -> str:
    """ "Иванов Иван — Москва, «Клуб», №123": city, club and the site's id beside the name (the club is read from
    ``player.club``, so select it with the player)."""
    details = [player.city] if player.city else []
    if player.club_id:
        details.append(f"«{player.club.name}»")
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
    return _results_of(player.pk)


def _results_of(player_id: int) -> QuerySet[Result]:
    participants = (
        Result.objects.filter(tournament=OuterRef("tournament"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        Result.objects.filter(player_id=player_id, tournament__status=TournamentStatus.APPROVED)
        .select_related("tournament")
        .annotate(result_count=Subquery(participants, output_field=IntegerField()))
        .order_by("-tournament__end_date", "tournament__name")
    )


def _public_player_rows(pk: int) -> QuerySet:
    from federation.models import Club

    player = [field.attname for field in Player._meta.concrete_fields]
    club = [f"club__{field.attname}" for field in Club._meta.concrete_fields]
    return Player.objects.filter(pk=pk, is_bot=False).values_list(*player, *club)


def public_player_statement(pk: int):
    """What ``public_player(pk)`` sends (``federation.db.reads_together``)."""
    from federation.db import marked_statement

    return marked_statement(("public_player",), _public_player_rows, values={"pk": pk})


def public_player(pk: int) -> Player | None:
    """A person's profile (not a bot) with its club, as ``select_related("club")`` reads it, for their page: one
    statement written once per process and prepared by PostgreSQL (``federation.db.marked_rows``)."""
    from django.db import connection

    from federation.db import marked_rows
    from federation.models import Club

    rows = marked_rows(("public_player",), _public_player_rows, values={"pk": pk})
    if not rows:
        return None
    width = len(Player._meta.concrete_fields)
    player = Player.from_db(connection.alias, None, rows[0][:width])
    club = None if rows[0][width] is None else Club.from_db(connection.alias, None, rows[0][width:])
    Player._meta.get_field("club").set_cached_value(player, club)
    return player


#: What a row of ``player_results_page`` holds, in this order, followed by how many results there are in all.
RESULT_ROW = ("tournament_id", "tournament__end_date", "tournament__name", "tournament__discipline")
RESULT_ROW += ("tournament__city", "place", "result_count")


def _results_page_rows(player_id: int, order: tuple) -> QuerySet:
    from django.db.models import Window

    rows = _results_of(player_id).order_by(*order)
    return rows.annotate(total=Window(Count("pk"))).values_list(*RESULT_ROW, "total")


def player_results_statement(*, player_id: int, order: Callable[[], tuple], shape: tuple, offset: int, limit: int):
    """What ``player_results_page`` sends for these arguments (``federation.db.reads_together``)."""
    from federation.db import marked_statement

    return marked_statement(
        ("player_results_page", *shape),
        lambda player_id: _results_page_rows(player_id, order()),
        values={"player_id": player_id},
        limit=limit,
        offset=offset,
    )


def player_results_page(
    *, player_id: int, order: Callable[[], tuple], shape: tuple, offset: int, limit: int
) -> tuple[list[tuple], int | None]:
    """One page of a player's results (``player_results``) sorted by ``order()`` (``order_by``'s arguments), rows of
    ``RESULT_ROW``, and how many results the player has in all: one statement, the count a window beside the rows
    (it was a ``COUNT(*)`` of its own). The count is None when the page is past the last one (no row carries it).

    ``shape`` names the order (its expressions may hold the reader's language): ``order`` is called and the
    statement written once per process and shape (``federation.db.marked_rows``), so every page of every player in
    one order is one prepared statement."""
    from federation.db import marked_rows

    rows = marked_rows(
        ("player_results_page", *shape),
        lambda player_id: _results_page_rows(player_id, order()),
        values={"player_id": player_id},
        limit=limit,
        offset=offset,
    )
    if not rows:
        return [], 0 if offset == 0 else None
    return [row[:-1] for row in rows], rows[0][-1]


def public_tournaments() -> QuerySet[Tournament]:
    return Tournament.objects.filter(status=TournamentStatus.APPROVED)
