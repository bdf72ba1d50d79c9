"""How much disk a history takes on PostgreSQL (issue 29): the database beyond an empty one, table by table, and list
by list where lists share tables; measured from PostgreSQL's own sizes, so it holds whatever the storage format.

When: the "empty" figure is taken right after ``migrate`` (the tables and the rows the migrations write), and the
figures after the import once ``VACUUM (ANALYZE)`` has run on the whole database, before and after alike. That is
how a federation's server sees its database a few minutes after an import: autovacuum marks the dead rows of the
import's updates as free and builds the visibility and free-space maps, but a plain VACUUM gives no space back to
the system (only empty pages at a table's end), so the space those dead rows took is still counted, as it is on the
server's disk until new rows reuse it. ``VACUUM FULL`` would hide that, and no server runs it as a routine. The
WAL is the cluster's, not the database's, and is not counted (``pg_database_size``).

Per table: ``pg_total_relation_size`` (heap, TOAST, indexes, maps), the growth between the two measures. Per list:
a table whose rows lead to ``ratings.RatingList`` by foreign keys (a change directly, an entry through its
snapshot) gives each list the table's growth in proportion to the bytes of that list's rows
(``sum(pg_column_size(row))``), so RR, CRR and online each get a figure though they share the snapshot, entry and
change tables. A table that grew but leads to no list (a system's own table, or one this module does not know) is
counted by the benchmark as the system's; a benchmark with several lists shares it in proportion to what the lists
already have (``list_shares``).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

MB = 1_000_000
YEAR_DAYS = 365.25


@dataclass(frozen=True)
class Sizes:
    database: int
    tables: dict[str, int]
    empty: frozenset[str]


def measure() -> Sizes:
    """``VACUUM (ANALYZE)`` the database, then its size, each table's total size and which tables are empty."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")
        cursor.execute("SELECT pg_database_size(current_database())")
        database = cursor.fetchone()[0]
        cursor.execute(
            "SELECT c.relname, pg_total_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
        )
        tables = dict(cursor.fetchall())
        empty = set()
        for table in tables:
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {connection.ops.quote_name(table)})")
            if not cursor.fetchone()[0]:
                empty.add(table)
    return Sizes(database=database, tables=tables, empty=frozenset(empty))


def grown(before: Sizes, after: Sizes) -> dict[str, int]:
    """Each table's growth in bytes, largest first (the tables that did not grow are left out)."""
    growth = {table: size - before.tables.get(table, 0) for table, size in after.tables.items()}
    return dict(sorted(((t, g) for t, g in growth.items() if g > 0), key=lambda item: -item[1]))


def filled(before: Sizes, after: Sizes) -> list[str]:
    """The tables that were empty before and have rows after: every table the import wrote into from nothing."""
    return sorted(before.empty - after.empty)


def _path_to_list(model) -> list | None:
    """The foreign keys from ``model`` to ``RatingList`` (shortest first, at most three), or None."""
    from ratings.models import RatingList

    queue = deque([(model, [])])
    seen = {model}
    while queue:
        current, path = queue.popleft()
        for field in current._meta.concrete_fields:
            if not field.is_relation or not (field.many_to_one or field.one_to_one):
                continue
            target = field.related_model
            if target is RatingList:
                return [*path, field]
            if target not in seen and len(path) < 2:
                seen.add(target)
                queue.append((target, [*path, field]))
    return None


def list_bytes(growth: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """The grown tables' bytes given to each list (by slug), and the grown tables that lead to no list."""
    from django.apps import apps
    from django.db import connection

    from ratings.models import RatingList

    models = {model._meta.db_table: model for model in apps.get_models()}
    slugs = dict(RatingList.objects.values_list("pk", "slug"))
    quote = connection.ops.quote_name
    lists: dict[str, int] = {}
    unlinked: dict[str, int] = {}
    for table, size in growth.items():
        model = models.get(table)
        path = _path_to_list(model) if model is not None else None
        if not path:
            unlinked[table] = size
            continue
        joins = [f"FROM {quote(table)} t0"]
        for depth, field in enumerate(path[:-1]):
            target = field.related_model._meta
            joins.append(
                f"JOIN {quote(target.db_table)} t{depth + 1} "
                f"ON t{depth + 1}.{quote(field.target_field.column)} = t{depth}.{quote(field.column)}"
            )
        key = f"t{len(path) - 1}.{quote(path[-1].column)}"
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {key}, sum(pg_column_size(t0.*)) {' '.join(joins)} GROUP BY 1")
            rows = [(pk, int(total)) for pk, total in cursor.fetchall()]
        whole = sum(total for _pk, total in rows)
        for pk, total in rows:
            if whole and pk is not None:
                slug = slugs.get(pk, str(pk))
                lists[slug] = lists.get(slug, 0) + round(size * total / whole)
    return lists, unlinked


def list_shares(lists: dict[str, int], extra: int) -> dict[str, int]:
    """Each list's bytes with ``extra`` (bytes of tables that lead to no list) shared in proportion to them."""
    whole = sum(lists.values())
    if not whole:
        return dict(lists)
    return {slug: size + round(extra * size / whole) for slug, size in lists.items()}


def per_player_year(size: int, *, players: int, days: int) -> float:
    return size / (players * days / YEAR_DAYS) if players and days else float("nan")


def breakdown(growth: dict[str, int], tables: list[str] | None = None, *, top: int = 4) -> str:
    """``table 12.3 MB, ...`` for the largest of ``tables`` (all grown tables by default)."""
    chosen = [(t, g) for t, g in growth.items() if tables is None or t in tables][:top]
    return ", ".join(f"{table.split('_', 1)[-1]} {size / MB:.1f} MB" for table, size in chosen) or "nothing"


@dataclass(frozen=True)
class Storage:
    """What one import added: the database's growth and each table's, the input tables named by the benchmark."""

    database: int
    growth: dict[str, int]
    inputs: frozenset[str]

    @property
    def rating_tables(self) -> dict[str, int]:
        return {t: g for t, g in self.growth.items() if t not in self.inputs}

    @property
    def ratings(self) -> int:
        return sum(self.rating_tables.values())

    @property
    def input(self) -> int:
        return sum(g for t, g in self.growth.items() if t in self.inputs)


def storage(before: Sizes, after: Sizes, *, inputs: list) -> Storage:
    """The growth from ``before`` to ``after``; ``inputs`` are the models holding the history's input."""
    return Storage(
        database=after.database - before.database,
        growth=grown(before, after),
        inputs=frozenset(model._meta.db_table for model in inputs),
    )


def system_row(
    name: str, found: Storage, *, players: int, days: int, target_mb: float = 0, beyond: str = "empty"
) -> dict:
    """The row of one system: the database beyond empty (or ``beyond`` what) in MB, the ratings' bytes per
    player-year in the detail."""
    rating = found.ratings
    return {
        "name": f"{name}: database beyond {beyond} (MB)",
        "seconds": round(found.database / MB, 1),
        "target": target_mb,
        "detail": f"ratings {per_player_year(rating, players=players, days=days):,.0f} bytes per player-year "
        f"({rating / MB:.1f} MB: {breakdown(found.rating_tables)}; {players} players x {days / YEAR_DAYS:.2f} "
        f"years); input {found.input / MB:.1f} MB ({breakdown(found.growth, sorted(found.inputs))}); after VACUUM",
    }


def list_rows(name: str, found: Storage, *, players: int, days: int) -> list[dict]:
    """One row per list of a system whose lists share tables: its MB, bytes per player-year in the detail."""
    lists, unlinked = list_bytes(found.rating_tables)
    shares = list_shares(lists, sum(unlinked.values()))
    whole = ", ".join(f"{t.split('_', 1)[-1]} {g / MB:.1f} MB" for t, g in unlinked.items())
    return [
        {
            "name": f"{name}: {slug}, ratings (MB)",
            "seconds": round(size / MB, 1),
            "target": 0,
            "detail": f"{per_player_year(size, players=players, days=days):,.0f} bytes per player-year "
            f"({players} players x {days / YEAR_DAYS:.2f} years; by its rows' bytes in the shared tables"
            + (f", plus its share of {whole})" if whole else ")"),
        }
        for slug, size in sorted(shares.items())
    ]
