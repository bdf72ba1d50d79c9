"""Database helpers shared by the apps.

``bound_cursor``: the one server-binding cursor of the project (the page versions, the public API's statements and
the preferans deal's hot path use it). ``values_rows``: ``QuerySet.values`` read through it (a list page's rows).
"""

from __future__ import annotations

from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


class _BoundDebugWrapper(CursorDebugWrapper):
    """Logs a bound statement as sent (with its placeholders): once psycopg has prepared it, Django's
    ``last_executed_query`` finds no query text and would log ``None`` (query counts and tests read the text)."""

    def execute(self, sql, params=None):
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


def bound_cursor():
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
