"""``id_rows``: a statement that is the same on every page but for one id (a player's rows on their page), compiled
once per process.

Django compiles a queryset's SQL again at every request, and for the small reads of the player page's sections
that took several times longer than PostgreSQL took to answer (issue 16). Here the ``values_list`` is built and
compiled once, with a mark in place of the id, and each page sends the compiled text with its own id through
``federation.db.bound_cursor`` (so PostgreSQL prepares it after a few runs on a connection). The public API's lists
do the same for statements of several values and page shapes (``federation.api.v1.statements``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connection

from federation.db import bound_cursor

#: A value no id takes: the places of the page's id in a statement compiled once.
ID_MARK = -4_611_686_018_427_387_003

#: The compiled statements, by database alias and the name ``id_rows`` is given.
_COMPILED: dict[tuple[str, str], tuple[str, tuple]] = {}


def id_rows(name: str, build: Callable[[int], object], pk: int) -> list[tuple]:
    """``list(build(pk))`` for a ``values_list`` ``build`` makes from an id; ``name`` names the statement.

    On PostgreSQL ``build`` runs once per process, with ``ID_MARK``; every parameter equal to the mark takes ``pk``.
    The rows are the database's values, without Django's converters: for columns whose database value is already
    the Python value (integers, text, dates, numerics; not a JSON or a custom field). On another database (SQLite)
    the queryset is built and read as it is.
    """
    if connection.vendor != "postgresql":
        return list(build(pk))
    key = (connection.alias, name)
    compiled = _COMPILED.get(key)
    if compiled is None:
        compiled = _COMPILED[key] = build(ID_MARK).query.sql_with_params()
    sql, params = compiled
    with bound_cursor() as cursor:
        cursor.execute(sql, [pk if type(value) is int and value == ID_MARK else value for value in params])
        return cursor.fetchall()
