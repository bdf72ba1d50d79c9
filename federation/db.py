"""Database helpers shared by the apps.

``bound_cursor``: the one server-binding cursor of the project (the page versions, the public API's statements and
the preferans deal's hot path use it).
"""

from __future__ import annotations

from django.db import connection


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
    return connection.make_debug_cursor(raw) if connection.queries_logged else connection.make_cursor(raw)
