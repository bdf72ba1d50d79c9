"""Writing many rows at once, one way for every rating system: ``COPY`` on PostgreSQL, ``INSERT`` batches on SQLite.

A Gorbunov rebuild writes hundreds of thousands of entries and changes, a mahjong day thousands of entries, a
preferans history millions of deal results. On PostgreSQL ``COPY ... FROM STDIN`` stores them several times faster
than ``INSERT``; SQLite (the newcomer's default) has no ``COPY``, so the same rows go in through ``bulk_create`` in
batches. The caller gives a model, the columns (attribute names, ``snapshot_id`` for a foreign key) and the rows as
tuples, and never writes the SQL itself. Foreign keys and other constraints stay on: the database checks every row
it is given, whichever way it arrives.

Two forms of ``COPY``: text (the default) takes decimals as exact text, as the lists write their ratings, and JSON
as objects or as text already dumped; binary (``binary=True``) sends numbers, booleans and timestamps as they are,
with no text to print and parse on either side, which is what a million preferans deals need. psycopg encodes the
binary rows from the columns' types, read off the model's fields.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence

from django.db import connection

from federation import versions

#: Model objects built at a time on SQLite (``bulk_create`` cuts each batch to SQLite's limit of variables).
INSERT_BATCH = 2000


def copy_rows(model, columns: Sequence[str], rows: Iterable[Sequence], *, binary: bool = False, json_text=False) -> int:
    """Insert ``rows`` (tuples in the order of ``columns``) into ``model``'s table; returns how many were written.

    ``json_text``: the JSON columns are given as JSON text already (a caller that builds the text itself). A generator
    of rows may raise midway: on PostgreSQL the ``COPY`` is then abandoned, and with it, in the caller's transaction,
    every row it sent. The model's pages change when the caller's transaction commits (``federation.versions``).
    """
    versions.changed(model)
    fields = {field.attname: field for field in model._meta.concrete_fields}
    selected = [fields[name] for name in columns]
    json_at = [i for i, field in enumerate(selected) if field.get_internal_type() == "JSONField"]
    # COPY is PostgreSQL's bulk load (a million deals in under two minutes, issue 12); SQLite has none.
    if connection.vendor != "postgresql":
        return _insert(model, columns, rows, json_at if json_text else [])
    names = ", ".join(connection.ops.quote_name(field.column) for field in selected)
    sql = f"COPY {connection.ops.quote_name(model._meta.db_table)} ({names}) FROM STDIN"
    written = 0
    with connection.cursor() as cursor:
        if binary:
            if json_at:
                raise ValueError("binary COPY takes no JSON columns; write them as text")
            with cursor.copy(sql + " (FORMAT binary)") as copy:
                copy.set_types([_type_name(field) for field in selected])
                for row in rows:
                    copy.write_row(row)
                    written += 1
            return written
        dump = json_at if not json_text else []
        with cursor.copy(sql) as copy:
            for row in rows:
                if dump:
                    row = list(row)
                    for i in dump:
                        row[i] = json.dumps(row[i])
                copy.write_row(row)
                written += 1
    return written


def update_rows(model, key: str, columns: Sequence[str], rows: Sequence[Sequence]) -> int:
    """Set ``columns`` of the rows of ``model`` found by ``key`` (a unique column): each tuple is the key's value
    followed by the columns' values; returns how many rows were updated.

    On PostgreSQL one ``UPDATE ... FROM unnest(...)`` statement whatever the number of rows (``bulk_update`` builds
    a ``CASE`` per column and row, which costs more to compile than to run); on SQLite ``bulk_update`` by primary
    key. Like a queryset's ``update()``, it changes the public pages' version (``federation.versions``).
    """
    if not rows:
        return 0
    fields = {field.attname: field for field in model._meta.concrete_fields}
    selected = [fields[key], *(fields[name] for name in columns)]
    # One UPDATE ... FROM unnest(...) on PostgreSQL (bulk_update writes a CASE per row and column); SQLite has no
    # arrays to unnest.
    if connection.vendor != "postgresql":
        keys = [row[0] for row in rows]
        pks = dict(model.objects.filter(**{f"{key}__in": keys}).values_list(key, "pk"))
        objects = [model(pk=pks[row[0]], **dict(zip(columns, row[1:], strict=True))) for row in rows if row[0] in pks]
        model.objects.bulk_update(objects, list(columns), batch_size=INSERT_BATCH)
        return len(objects)
    quote = connection.ops.quote_name
    names = [quote(field.column) for field in selected]
    arrays = ", ".join(f"%s::{_type_name(field)}[]" for field in selected)
    assignments = ", ".join(f"{name} = v.{name}" for name in names[1:])
    sql = (
        f"UPDATE {quote(model._meta.db_table)} AS t SET {assignments} "
        f"FROM unnest({arrays}) AS v({', '.join(names)}) WHERE t.{names[0]} = v.{names[0]}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(column) for column in zip(*rows, strict=True)])
        updated = cursor.rowcount
    if updated:
        versions.changed(model)
    return updated


def _type_name(field) -> str:
    """The PostgreSQL type psycopg encodes a column's values as (``varchar(100)`` -> ``varchar``)."""
    return re.sub(r"\(.*\)", "", field.db_type(connection)).strip()


def _insert(model, columns: Sequence[str], rows: Iterable[Sequence], json_at: list[int]) -> int:
    written = 0
    batch = []
    for row in rows:
        values = dict(zip(columns, row, strict=True))
        for i in json_at:
            values[columns[i]] = json.loads(row[i])
        batch.append(model(**values))
        if len(batch) >= INSERT_BATCH:
            model.objects.bulk_create(batch)
            written += len(batch)
            batch = []
    model.objects.bulk_create(batch)
    return written + len(batch)


def reserve_ids(model, count: int) -> Sequence[int]:
    """``count`` new primary keys for ``model``, so that rows of several tables can name each other before any is
    written (a deal's results name the deal): one unbroken range unless another session drew ids meanwhile.

    On PostgreSQL they are drawn from the table's sequence in one statement (the sequence's name looked up once, not
    for every row). On SQLite they follow the highest id ever used; SQLite lets one transaction write at a time, and
    a second import that had read the same highest id fails on the primary key and is rolled back whole.
    """
    if not count:
        return []
    table, pk = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # PostgreSQL's sequence; SQLite has none (see the docstring)
            cursor.execute(
                "SELECT min(v), max(v), CASE WHEN max(v) - min(v) + 1 = count(*) THEN NULL "
                "ELSE array_agg(v ORDER BY v) END "
                "FROM (SELECT nextval((SELECT pg_get_serial_sequence(%s, %s)::regclass)) AS v "
                "FROM generate_series(1, %s)) AS s",
                [table, pk, count],
            )
            low, high, scattered = cursor.fetchone()
            return scattered if scattered is not None else range(low, high + 1)
        cursor.execute(f"SELECT MAX({connection.ops.quote_name(pk)}) FROM {connection.ops.quote_name(table)}")
        highest = cursor.fetchone()[0] or 0
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'")
        if cursor.fetchone():
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            used = cursor.fetchone()
            highest = max(highest, used[0] if used else 0)
    return range(highest + 1, highest + 1 + count)
