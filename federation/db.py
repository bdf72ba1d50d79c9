"""Database helpers shared by the apps.

``bound_cursor``: the one server-binding cursor of the project (the page versions, the public API's statements and
the preferans deal's hot path use it).
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
