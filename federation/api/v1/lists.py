"""``/api/v1/lists/{slug}/``: one page of a list as its page shows it, built straight to JSON.

- **Version** (every request, one query, ``list_version``): the list (its id, system, whether it is active), its
  publications (how many, the newest id and date, when last computed), the edits of the lists and of the players'
  registry (their history rows), and for a current leaderboard (preferans, DIRS) its rows' last change. The ETag is
  made of it and of the request's parameters, so a publication, a rebuild, a renamed player or a new deal changes it
  at the next request, with no signal to forget anything.
- **Warm**: that query and one cache get of the answer stored under the ETag (the body and its ``Last-Modified``).
- **Cold**: one more statement (``dated_page``) for the usual request, the list in force on the date asked (the
  newest, or the one of the date or week asked): the page's rows with their players, cut to the page before the
  players are joined, each with the publication's id, date, time and number of rows. The JSON is written here from
  plain values (tuples, or ``.values_list`` where the ORM reads them): no model instance, no schema validation per
  row, no query per row. The answer has the shape of ``schemas.ListOut`` (the OpenAPI document), which the tests
  check real answers against. When the list shown is not the one asked for, the pages' rule
  (``ratings.dates.list_for_date``) says which and why.
- The statements are compiled once and prepared by PostgreSQL (``statements``).

An older Gorbunov week is read as its page reads it (``ratings.gorbunov.selectors.list_view``: each player's newest
entry up to that week, ranked among them), a few queries more.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from types import SimpleNamespace

from django.db import connection
from django.db.models import Count, Exists, FloatField, IntegerField, OuterRef, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils.dateparse import parse_datetime

from federation.api.v1.statements import Statement, fetch
from federation.models import Player
from ratings.dates import AskedDate, ShownList, list_for_date
from ratings.engines.gorbunov import week_start
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot

DATED = {Engine.GORBUNOV, Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}
MAHJONG = {Engine.MAHJONG_RR, Engine.MAHJONG_CRR, Engine.MAHJONG_ONLINE}

#: The player's columns of a row, in this order, after the row's own (``player_json``).
PLAYER_COLUMNS = ("player_id", "last_name", "first_name", "last_name_latin", "first_name_latin", "city", "country")


@functools.cache
def _version_sql() -> str:
    """The statement of ``list_version``, written once (the history models' managers are built at each access)."""
    from ratings.dirs.models import DirsGame, DirsRating
    from ratings.preferans.models import PreferansRating

    lists, snapshots = RatingList._meta.db_table, RatingSnapshot._meta.db_table
    preferans, dirs, games = PreferansRating._meta.db_table, DirsRating._meta.db_table, DirsGame._meta.db_table
    own = f"FROM {snapshots} s WHERE s.rating_list_id = l.id"
    return (
        f"SELECT l.id, l.engine, (SELECT COUNT(*) {own}), (SELECT MAX(s.id) {own}), (SELECT MAX(s.computed_at) {own}),"
        f" (SELECT MAX(s.as_of) {own}),"
        f" (SELECT MAX(history_id) FROM {RatingList.history.model._meta.db_table}),"
        f" (SELECT MAX(history_id) FROM {Player.history.model._meta.db_table}),"
        f" (SELECT MAX(id) FROM {Player._meta.db_table}),"
        f" CASE WHEN l.engine = %s THEN (SELECT MAX(updated_at) FROM {preferans})"
        f" WHEN l.engine = %s THEN (SELECT MAX(updated_at) FROM {dirs}) END,"
        f" CASE WHEN l.engine = %s THEN (SELECT MAX(player_id) FROM {preferans})"
        f" WHEN l.engine = %s THEN (SELECT MAX(id) FROM {games}) END, l.name, l.name_en"
        f" FROM {lists} l WHERE l.slug = %s AND l.is_active"
    )


def version_rows(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def list_version(slug: str) -> tuple | None:
    """An active list's version, in one query; None when there is no such list. The row: the list's id and system,
    its publications' count, newest id, last computation and newest date, the lists' and the players' newest edits,
    the players' newest id, a leaderboard's last change and newest row, the list's names. Remembered by the process
    until something changes (``federation.changes``)."""
    found = version_rows(_version_sql(), [Engine.PREFERANS, Engine.DIRS, Engine.PREFERANS, Engine.DIRS, slug])
    return found[0] if found else None


def moment(value) -> dt.datetime | None:
    """A time of ``list_version``'s row: PostgreSQL gives it as a time, SQLite as text (in UTC)."""
    if value is None or isinstance(value, dt.datetime):
        return value
    parsed = parse_datetime(str(value))
    return parsed if parsed is None or parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def day(value) -> dt.date | None:
    """A date of ``list_version``'s row: PostgreSQL gives it as a date, SQLite as text."""
    return value if value is None or isinstance(value, dt.date) else dt.date.fromisoformat(str(value))


def rating_list(version: tuple, slug: str) -> RatingList:
    """The list of ``list_version``'s row, as ``reads.list_info`` reads it (with ``latest``), without a query."""
    item = RatingList(id=version[0], engine=version[1], slug=slug, name=version[11], name_en=version[12])
    item.latest = day(version[5])
    return item


def display_name(last: str, first: str, last_latin: str, first_latin: str, language: str) -> str:
    """``Player.display_name`` from the row's columns: Latin for English when there is one, Cyrillic otherwise."""
    if language.startswith("en") and last_latin:
        return f"{last_latin} {first_latin}" if first_latin else last_latin
    return f"{last} {first}" if first and last else (last or first)


def player_json(values, language: str, prefix: str) -> dict:
    """``reads.player_ref`` of a row's player columns (``PLAYER_COLUMNS``)."""
    pk, last, first, last_latin, first_latin, city, country = values
    return {
        "id": pk,
        "name": display_name(last, first, last_latin, first_latin, language),
        "city": city or "",
        "country": country or "",
        "url": f"{prefix}{pk}/",
    }


def _player_fields(relation: str = "player__") -> list[str]:
    return ["player_id", *(f"{relation}{name}" for name in PLAYER_COLUMNS[1:])]


def _snapshots(list_id: int):
    """The list's publications, each with ``newest`` (no later one) and ``rows`` (its entries)."""
    later = RatingSnapshot.objects.filter(rating_list_id=OuterRef("rating_list_id"), as_of__gt=OuterRef("as_of"))
    rows = (
        RatingEntry.objects.filter(snapshot=OuterRef("pk"))
        .order_by()
        .values("snapshot")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return (
        RatingSnapshot.objects.filter(rating_list_id=list_id)
        .only("id", "as_of", "computed_at", "rating_list_id")
        .annotate(newest=~Exists(later), rows=Subquery(rows, output_field=IntegerField()))
    )


#: The newest publication of list ``id`` dated ``day`` or before (the pages' first query for a date).
IN_FORCE = Statement(
    lambda id, day, offset, limit: (
        _snapshots(id)
        .filter(as_of__lte=day)
        .order_by("-as_of")
        .values_list("id", "as_of", "computed_at", "newest", "rows")[offset : offset + limit]
    )
)


def shown(list_id: int, engine: str, asked: AskedDate) -> ShownList:
    """The publication the list's page shows for the date asked (with ``rows``: its entries, and ``newest``), and the
    message, by the pages' rule (``ratings.dates.list_for_date``). One prepared statement when the list shown is the
    one asked for (the newest, or the one of the date or week asked); otherwise the rule's own queries say why."""
    period_start = week_start if engine == Engine.GORBUNOV else None
    if not asked.error:
        found = IN_FORCE.run(id=list_id, day=asked.day or dt.date.max, limit=1)
        if found:
            pk, as_of, computed_at, newest, count = found[0]
            if asked.day is None or as_of == (period_start(asked.day) if period_start else asked.day):
                snapshot = RatingSnapshot(id=pk, rating_list_id=list_id, as_of=as_of, computed_at=computed_at)
                snapshot.newest, snapshot.rows = newest, count
                return ShownList(snapshot)
    if period_start is not None:
        return list_for_date(_snapshots(list_id), asked, period_start=period_start)
    return list_for_date(_snapshots(list_id), asked)


def _entries(snapshot_id: int, offset: int, limit: int, mahjong: bool):
    """The page's entries of a publication in rank order with their players' columns: the page is cut first, from
    the index, and only its rows are joined to the players."""
    page = RatingEntry.objects.filter(snapshot_id=snapshot_id).order_by("rank", "player_id").values("pk")
    entries = RatingEntry.objects.filter(pk__in=page[offset : offset + limit]).order_by("rank", "player_id")
    if mahjong:
        entries = entries.annotate(
            part_a=Cast(KT("details__part_a"), FloatField()), part_b=Cast(KT("details__part_b"), FloatField())
        )
    own = ["rank", "rating", "delta", "events", *(["part_a", "part_b"] if mahjong else [])]
    return entries.values_list(*own, *_player_fields())


#: The rows of a publication in rank order: a Gorbunov list's newest, a mahjong list's any.
ENTRIES = Statement(lambda id, day, offset, limit: _entries(id, offset, limit, False))
MAHJONG_ENTRIES = Statement(lambda id, day, offset, limit: _entries(id, offset, limit, True))


@functools.cache
def _in_force_sql(mahjong: bool) -> str:
    """One page of the publication of a list in force on a date, each row followed by the publication's id, date,
    time of computation (seconds since 1970) and number of rows: the usual request in one statement. Written for
    PostgreSQL (a lateral join cuts the page from the index before the players are joined, which the ORM does not
    write); ``rows`` reads the same rows elsewhere."""
    entries, snapshots = RatingEntry._meta.db_table, RatingSnapshot._meta.db_table
    parts = ", (e.details ->> 'part_a')::float8, (e.details ->> 'part_b')::float8" if mahjong else ""
    players = ", ".join(f"p.{name if name != 'player_id' else 'id'}" for name in PLAYER_COLUMNS)
    return (
        f"WITH s AS MATERIALIZED (SELECT z.id, z.as_of, EXTRACT(EPOCH FROM z.computed_at) AS stamp,"
        f" (SELECT COUNT(*) FROM {entries} c WHERE c.snapshot_id = z.id) AS n"
        f" FROM {snapshots} z WHERE z.rating_list_id = %s AND z.as_of <= %s ORDER BY z.as_of DESC LIMIT 1)"
        f" SELECT e.rank, e.rating, e.delta, e.events{parts}, {players}, s.id, s.as_of, s.stamp, s.n"
        f" FROM s CROSS JOIN LATERAL (SELECT * FROM {entries} x WHERE x.snapshot_id = s.id"
        f" ORDER BY x.rank, x.player_id LIMIT %s OFFSET %s) e"
        f" JOIN {Player._meta.db_table} p ON p.id = e.player_id ORDER BY e.rank, e.player_id"
    )


def dated_page(list_id: int, engine: str, newest_day, asked: AskedDate, *, offset: int, limit: int):
    """(snapshot or None, message, count, rows) of a page of a dated list as the page shows it for the date asked.

    On PostgreSQL, one statement when the list shown is the one asked for (the newest, or the one of the date or
    week asked) and is read from its own rows (a mahjong list's, a Gorbunov list's newest); otherwise the publication
    is found by the pages' rule (``shown``) and its rows read as its page reads them (``rows``)."""
    mahjong = engine in MAHJONG
    if connection.vendor == "postgresql" and not asked.error:
        found = fetch(_in_force_sql(mahjong), [list_id, asked.day or dt.date.max, limit, offset])
        if found:
            pk, as_of, stamp, count = found[0][-4:]
            exact = asked.day is None or as_of == (asked.day if mahjong else week_start(asked.day))
            if exact and (mahjong or as_of == newest_day):
                computed_at = dt.datetime.fromtimestamp(float(stamp), tz=dt.UTC)
                snapshot = RatingSnapshot(id=pk, rating_list_id=list_id, as_of=as_of, computed_at=computed_at)
                return snapshot, "", count, [_entry(row[:-4], mahjong) for row in found]
    picked = shown(list_id, engine, asked)
    if picked.snapshot is None:
        return None, picked.message, 0, []
    count, page_rows = rows(engine, picked.snapshot, league="", offset=offset, limit=limit)
    return picked.snapshot, picked.message, count, page_rows


def _entry(row: tuple, mahjong: bool) -> tuple:
    """(rank, rating, delta, tournaments, parts, player columns) of an entry's row (``_entries``)."""
    parts = {"part_a": row[4], "part_b": row[5]} if mahjong else {}
    delta = None if row[2] is None else float(row[2])
    return (row[0], float(row[1]), delta, row[3], parts, row[6 if mahjong else 4 :])


def rows(engine: str, snapshot, *, league: str, offset: int, limit: int) -> tuple[int, list[tuple]]:
    """(count, rows) of one page in the page's order; each row (rank, rating, delta, tournaments, parts, player
    columns)."""
    end = offset + limit
    if (engine == Engine.GORBUNOV and snapshot.newest) or engine in MAHJONG:
        mahjong = engine in MAHJONG
        statement = MAHJONG_ENTRIES if mahjong else ENTRIES
        out = [_entry(row, mahjong) for row in statement.run(id=snapshot.pk, limit=limit, offset=offset)]
        return snapshot.rows or 0, out
    if engine == Engine.GORBUNOV:
        from ratings.gorbunov.selectors import list_view

        view = list_view(snapshot=snapshot)
        entries = view.entries.order_by("-rating", "player_id")
        out = []
        for rating, delta, events, snapshot_id, *player in entries.values_list(
            "rating", "delta", "events", "snapshot_id", *_player_fields()
        )[offset:end]:
            rank = view.rank(SimpleNamespace(rating=rating))
            moved = view.delta(SimpleNamespace(delta=delta, snapshot_id=snapshot_id))
            out.append((rank, float(rating), None if moved is None else float(moved), events, {}, player))
        return entries.count(), out
    if engine == Engine.PREFERANS:
        from ratings.preferans.selectors import leaderboard

        ratings = leaderboard(league=league)
        fields = ("rating", "max_rating", "deals", *_player_fields())
        out = [
            (offset + n, float(rating), None, None, {"max_rating": peak, "deals": deals}, player)
            for n, (rating, peak, deals, *player) in enumerate(ratings.values_list(*fields)[offset:end], start=1)
        ]
        return ratings.count(), out
    if engine == Engine.DIRS:
        from ratings.dirs.selectors import dirs_leaderboard

        ratings = dirs_leaderboard()
        fields = ("place", "rating", "games", "acceleration", *_player_fields())
        out = [
            (place, float(rating), None, None, {"games": games, "acceleration": acceleration}, player)
            for place, rating, games, acceleration, *player in ratings.values_list(*fields)[offset:end]
        ]
        return ratings.count(), out
    return 0, []


def entries_json(page_rows: list[tuple], language: str, prefix: str) -> list[dict]:
    return [
        {
            "rank": rank,
            "player": player_json(player, language, prefix),
            "rating": rating,
            "delta": delta,
            "tournaments": events,
            "parts": parts,
        }
        for rank, rating, delta, events, parts, player in page_rows
    ]


def dumps(answer: dict) -> bytes:
    """JSON as the API writes it (UTF-8, dates as ISO text)."""
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"), default=_iso).encode()


def _iso(value):
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")
