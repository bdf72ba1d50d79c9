"""Database helpers shared by the apps.

``bound_cursor``: the one server-binding cursor of the project (the page versions, the public API's statements and
the preferans deal's hot path use it). ``values_rows``: ``QuerySet.values`` read through it (a list page's rows).
``fixed_rows`` and ``marked_rows``: statements compiled once per process (the same on every page, or but for a few
values) and prepared by PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import logging
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

logger = logging.getLogger(__name__)


class _BoundDebugWrapper(CursorDebugWrapper):
    """Logs a bound statement as sent (with its placeholders): once psycopg has prepared it, Django's
    ``last_executed_query`` finds no query text and would log ``None`` (query counts and tests read the text)."""

    def execute(self, sql, params=None):
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


#: Rows read ahead by ``reads_together`` for the current request, by statement and parameters (None: not in one).
_KEPT: ContextVar[dict | None] = ContextVar("federation_kept_rows", default=None)


def _read_key(sql: str, params) -> tuple:
    return (sql, tuple(tuple(p) if isinstance(p, list) else p for p in params or ()))


class _KeptCursor:
    """``bound_cursor()`` inside ``reads_together``: a statement read ahead gives its kept rows (once), any other is
    sent as usual."""

    def __init__(self, kept: dict):
        self.kept = kept
        self.cursor = None
        self.rows = None

    def execute(self, sql, params=None):
        rows = self.kept.pop(_read_key(sql, params), None)
        if rows is not None:
            self.rows = list(rows)
            return None
        self.rows = None
        if self.cursor is None:
            self.cursor = _bound_cursor()
        return self.cursor.execute(sql, params)

    def fetchall(self):
        if self.rows is None:
            return self.cursor.fetchall()
        rows, self.rows = self.rows, []
        return rows

    def fetchone(self):
        if self.rows is None:
            return self.cursor.fetchone()
        return self.rows.pop(0) if self.rows else None

    def close(self):
        if self.cursor is not None:
            self.cursor.close()

    def __getattr__(self, name):
        if self.rows is not None:  # a statement read ahead has its rows, not a cursor's other state
            raise AttributeError(f"{name}: a statement read ahead (reads_together) gives its rows only")
        if self.cursor is None:
            self.cursor = _bound_cursor()
        return getattr(self.cursor, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


@contextmanager
def reads_together(reads: list[tuple[str, list] | None]):
    """Send these statements (SQL and parameters, as a page will send them through ``bound_cursor``; None is
    skipped) to PostgreSQL at once, in one psycopg pipeline, and within the block answer each from the rows read,
    the first time the page sends it. The rest of the block's statements go as usual.

    Why: a player's page reads a dozen small statements, one per section and part, each answered by PostgreSQL in
    well under a tenth of a millisecond; the round trips were most of the page's database time (issue 16). Each
    section says what it will read (``federation.sections``); a statement it does not send after all (a player
    without a rating) is read for nothing, at the cost of its execution only. On SQLite, or with one statement,
    nothing is read ahead. The statements are logged and counted as any other (``connection.queries``)."""
    outer = _KEPT.get()
    reads = [read for read in reads if read is not None]
    if outer is not None:  # inside another block: what it has not read yet is read now and kept with its rows
        reads = [read for read in reads if _read_key(*read) not in outer]
    if connection.vendor != "postgresql" or len(reads) < (1 if outer is not None else 2):
        yield
        return
    connection.ensure_connection()
    kept: dict = {} if outer is None else outer
    with connection.connection.pipeline():
        cursors = []
        for sql, params in reads:
            cursor = _bound_cursor()
            cursor.execute(sql, params)
            cursors.append((_read_key(sql, params), cursor))
        for key, cursor in cursors:
            kept[key] = cursor.fetchall()
            cursor.close()
    if outer is not None:
        yield
        return
    token = _KEPT.set(kept)
    try:
        yield
    finally:
        _KEPT.reset(token)
        if kept:  # a section that said it would read a statement, and did not (a player without that rating)
            logger.debug("read ahead for nothing: %s", [sql[:60] for sql, _params in kept])


def bound_cursor():
    """A cursor that sends the parameters apart from the statement, on PostgreSQL (see ``_bound_cursor``); inside
    ``reads_together`` one that answers the statements read ahead."""
    kept = _KEPT.get()
    if kept is not None and connection.vendor == "postgresql":
        return _KeptCursor(kept)
    return _bound_cursor()


def marked_statement(key: tuple, build, *, values: dict, limit: int | None = None, offset: int = 0):
    """The SQL and parameters ``marked_rows`` sends for these arguments (for ``reads_together``), None off
    PostgreSQL."""
    if connection.vendor != "postgresql":
        return None
    sql, params, _converters = _marked(key, build, values, limit is not None)
    params = [values[p.name] if type(p) is _Value else p for p in params]
    return sql, (params if limit is None else [*params, limit, offset])


def _bound_cursor():
    """A cursor that sends the parameters apart from the statement, on PostgreSQL.

    Django's psycopg cursors interpolate the parameters into the SQL text, so PostgreSQL parses and plans every
    statement again; with server-side binding psycopg prepares a statement the fifth time a connection runs it
    (``prepare_threshold``, ``federation.settings.base.tune_postgres``), and from then on it is executed from its
    plan, with no array quoted into text. It is Django's own server-binding cursor class inside Django's wrapper, so
    the statements still appear in query logs and counts. On SQLite it is the ordinary cursor.
    """
    if connection.vendor != "postgresql":
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)
    return _BoundDebugWrapper(raw, connection) if connection.queries_logged else connection.make_cursor(raw)


def values_rows(queryset, fields) -> list[dict]:
    """``list(queryset.values(*fields))``, executed through ``bound_cursor``: the same rows (named and converted as
    ``ValuesIterable`` does), without the client-side quoting of every parameter into the statement and the ORM's
    chunked iterators (about half of reading a list's page of 50 rows, issue 16). On SQLite, or for a query that can
    match nothing, it is the ORM's own ``values``."""
    from django.core.exceptions import EmptyResultSet, FullResultSet

    rows = queryset.values(*fields)
    query = rows.query
    if connection.vendor != "postgresql" or rows.db != "default":
        return list(rows)
    compiler = query.get_compiler(rows.db)
    try:
        sql, params = compiler.as_sql()
    except (EmptyResultSet, FullResultSet):
        return list(rows)
    names = list(query.selected) if query.selected else [*query.extra_select, *query.values_select]
    if not query.selected:
        names += list(query.annotation_select)
    if len(names) != len(compiler.select):
        return list(rows)
    converters = compiler.get_converters([column for column, _sql, _alias in compiler.select])
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    if converters:
        fetched = compiler.apply_converters(fetched, converters)
    return [dict(zip(names, row, strict=True)) for row in fetched]


#: ``fixed_rows``' statements, compiled once per process.
_FIXED: dict[tuple, tuple[str, tuple]] = {}


def fixed_rows(key: tuple, queryset) -> list[tuple]:
    """The rows of a query that is the same statement on every page (no value of the request in it; ``key`` names
    it), e.g. the clubs of a filter: its SQL is compiled once per process and run through ``bound_cursor``, so
    PostgreSQL prepares it after its fifth run on a connection. ``queryset`` is a ``values_list``; it is only
    compiled (the first time) or, on another database than PostgreSQL, read as it is."""
    if connection.vendor != "postgresql" or queryset.db != "default":
        return list(queryset)
    if key not in _FIXED:
        _FIXED[key] = queryset.query.sql_with_params()
    sql, params = _FIXED[key]
    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


#: ``marked_rows``' statements: (SQL, parameters, converters) by key, per database; at most ``MARKED_MAX`` (a key
#: may hold what the visitor asks, e.g. a sort order).
_MARKED: dict[tuple, tuple[str, list, list]] = {}
MARKED_MAX = 256


class _Value:
    """The place of one of ``marked_rows``' values among a statement's parameters."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name


def _mark(number: int, value):
    """A stand-in for a value of this type that no row holds, distinct for each value of a statement."""
    if isinstance(value, bool) or not isinstance(value, (int, str, dt.date)):
        raise TypeError(f"marked_rows takes whole numbers, text and dates, not {type(value).__name__}")
    if isinstance(value, int):
        return -4_611_686_018_427_387_000 - number
    if isinstance(value, str):
        return f"\x1fmark{number}\x1f"
    return dt.date(1, 1, 1 + number)


def _marked_statement(key: tuple, build, values: dict, cut: bool) -> tuple[str, list, list]:
    """``build``'s statement with a stand-in for each value (``_Value`` in the parameters), and its converters."""
    marks = {name: _mark(number, value) for number, (name, value) in enumerate(values.items())}
    queryset = build(**marks)
    compiler = queryset.query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    converters = compiler.get_converters([column for column, _sql, _alias in compiler.select])
    names = {mark: name for name, mark in marks.items()}
    params = [_Value(names[p]) if type(p) in (int, str, dt.date) and p in names else p for p in params]
    if {p.name for p in params if type(p) is _Value} != set(values):
        raise ValueError(f"{key}: a value is not among the statement's parameters as it is")
    return (f"{sql} LIMIT %s OFFSET %s" if cut else sql), params, list(converters.items())


def _marked(key: tuple, build, values: dict, cut: bool) -> tuple[str, list, list]:
    statement = (connection.alias, not cut, *key)
    found = _MARKED.get(statement)
    if found is None:
        found = _marked_statement(key, build, values, cut)
        if len(_MARKED) >= MARKED_MAX:
            _MARKED.clear()
        _MARKED[statement] = found
    return found


def marked_rows(key: tuple, build, *, values: dict, limit: int | None = None, offset: int = 0) -> list[tuple]:
    """The rows of ``build(**values)`` (a ``values_list`` queryset; with a ``limit``, that many from ``offset``), for a
    statement that differs from page to page only by these values (ids, a slug, a date) and the page cut.

    On PostgreSQL it is compiled once per process and ``key`` with a stand-in where each value goes, and sent with
    the values, the limit and the offset apart through ``bound_cursor``, so PostgreSQL prepares it after a few runs;
    its rows are converted as the ORM converts them (a JSON field's text is read, ...). The ORM wrote such a
    statement again on every page, which took longer than PostgreSQL took to answer it (issue 16). A value must be
    a whole number, a text or a date that appears among the statement's parameters as it is. Elsewhere (SQLite) the
    queryset is built with the values and read as it is."""
    if connection.vendor != "postgresql":
        rows = build(**values)
        return list(rows[offset : None if limit is None else offset + limit])
    sql, params, converters = _marked(key, build, values, limit is not None)
    params = [values[p.name] if type(p) is _Value else p for p in params]
    with bound_cursor() as cursor:
        cursor.execute(sql, params if limit is None else [*params, limit, offset])
        rows = cursor.fetchall()
    if not converters:
        return rows
    converted = []
    for row in map(list, rows):
        for place, (functions, expression) in converters:
            value = row[place]
            for function in functions:
                value = function(value, expression, connection)
            row[place] = value
        converted.append(tuple(row))
    return converted
