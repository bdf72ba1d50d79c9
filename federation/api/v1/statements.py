"""The public API's hot statements: written once, prepared by PostgreSQL, read as plain rows.

A list or a history answer is a handful of statements that are the same at every request but for an id, a date, a
limit and an offset. Django writes a statement's SQL again at each request (its ORM took longer than the database
to answer) and psycopg, as Django uses it, sends the values inside the SQL text, so PostgreSQL plans it again each
time (planning took longer than running). Here:

- ``Statement(build)``: ``build(**values)`` is the ORM queryset (``values_list``) of the statement; it is compiled
  once with stand-in values (``ID``, ``DAY``) whose places in the parameters are then filled with the request's;
- ``fetch`` sends it with its values apart (``federation.db.bound_cursor``), so PostgreSQL
  prepares it after a few runs on a connection.

On other databases (SQLite, the tests' default) the queryset is simply evaluated with the request's values.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.db import connection

#: Stand-ins compiled into a statement where the request's id and date go: values no row has.
ID = -4_611_686_018_427_387_001
DAY = dt.date(1, 1, 3)


def fetch(sql: str, params) -> list[tuple]:
    """The rows of a statement sent with its values apart (prepared after a few runs on a PostgreSQL connection)."""
    from federation.db import bound_cursor

    with bound_cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def fetch_together(statements: list[tuple[str, list]]) -> list[list[tuple]]:
    """``fetch`` of several statements sent together and answered together (psycopg's pipeline: one exchange with
    PostgreSQL instead of one per statement); one after the other elsewhere."""
    if connection.vendor != "postgresql":
        return [fetch(sql, params) for sql, params in statements]
    from federation.db import bound_cursor

    cursors = []
    connection.ensure_connection()
    with connection.connection.pipeline():
        for sql, params in statements:
            cursor = bound_cursor()
            cursor.execute(sql, params)
            cursors.append(cursor)
    try:
        return [cursor.fetchall() for cursor in cursors]
    finally:
        for cursor in cursors:
            cursor.close()


class Statement:
    """A ``values_list`` statement compiled once per page shape; ``run(id=..., day=..., offset=..., limit=...)`` gives
    its rows. ``build(id, day, offset, limit)`` makes the queryset, sliced where the page is best cut (the limit and
    the offset are written into the SQL by Django: each page shape is its own statement, at most ``SHAPES`` kept)."""

    SHAPES = 64

    def __init__(self, build: Callable[..., object]):
        self.build = build
        self._compiled: dict[tuple[int, int], tuple[str, list]] = {}

    def _template(self, offset: int, limit: int) -> tuple[str, list]:
        found = self._compiled.get((offset, limit))
        if found is None:
            sql, params = self.build(id=ID, day=DAY, offset=offset, limit=limit).query.sql_with_params()
            found = (sql, list(params))
            if len(self._compiled) >= self.SHAPES:
                self._compiled.clear()
            self._compiled[(offset, limit)] = found
        return found

    def sql(self, *, id: int, day: dt.date | None = None, offset: int = 0, limit: int = 1) -> tuple[str, list]:
        """The statement and its values for these values (PostgreSQL's SQL)."""
        sql, params = self._template(offset, limit)
        return sql, [id if value == ID else day if value == DAY else value for value in params]

    def run(self, *, id: int, day: dt.date | None = None, offset: int = 0, limit: int = 1) -> list[tuple]:
        if connection.vendor != "postgresql":
            return list(self.build(id=id, day=day, offset=offset, limit=limit))
        return fetch(*self.sql(id=id, day=day, offset=offset, limit=limit))
