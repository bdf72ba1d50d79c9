"""``/api/v1/lists/{slug}/``: one page of a list as its page shows it, read through the pages' own selectors.

The publication shown for the date or week asked is the one the list's page shows (``ratings.dates.list_for_date``,
with the page's message when it is not the one asked for); its rows are the page's rows in the page's default order
(``ratings.gorbunov.selectors.list_rows``, ``ratings.mahjong.selectors.snapshot_entries``,
``ratings.preferans.selectors.leaderboard``, ``ratings.dirs.selectors.dirs_leaderboard``), one page of them. The
answer is cached under the versions of what it shows (``federation.caching``, in ``views``).
"""

from __future__ import annotations

from django.core.paginator import Paginator

from federation.api.v1 import reads
from federation.api.v1.reads import MAHJONG
from ratings.dates import AskedDate, list_for_date
from ratings.engines.gorbunov import week_start
from ratings.models import Engine, RatingList


def scopes(engine: str) -> tuple[str, ...]:
    """What a list's answer shows (``federation.versions``): the players' names and the list's own rows."""
    own = {Engine.PREFERANS: "preferans", Engine.DIRS: "dirs"}.get(engine, "ratings")
    return ("registry", own)


def _number(value) -> float | None:
    return None if value is None else float(value)


def _gorbunov(rating_list: RatingList, asked: AskedDate):
    from ratings.gorbunov import selectors

    shown = list_for_date(selectors.shown_list_snapshots(slug=rating_list.slug), asked, period_start=week_start)
    if shown.snapshot is None:
        return shown, [], None
    rows = selectors.list_rows(snapshot=shown.snapshot, newest=shown.snapshot.newest)
    order = ("rank", "player_id") if rows.newest else ("-rating", "player_id")  # the table's default order

    def entry(row, position: int) -> tuple:
        return rows.rank(row), row.rating, row.change, row.events, {}

    return shown, rows.entries.order_by(*order), entry


def _mahjong(rating_list: RatingList, asked: AskedDate):
    from ratings.mahjong.selectors import rows_of, shown_list_snapshots, snapshot_entries

    shown = list_for_date(shown_list_snapshots(slug=rating_list.slug), asked)
    if shown.snapshot is None:
        return shown, [], None
    rows = snapshot_entries(snapshot=shown.snapshot, with_parts=True)
    rows = rows.order_by("rank", "player_id") if shown.snapshot.newest else rows_of(rows, snapshot=shown.snapshot)

    def entry(row, position: int) -> tuple:
        parts = {"part_a": row.details.get("part_a"), "part_b": row.details.get("part_b")}
        return row.rank, row.rating, row.delta, row.events, parts

    return shown, rows, entry


def page_of(rating_list: RatingList, *, asked: AskedDate, league: str, page: int, per_page: int, urls) -> dict:
    """The answer of ``/lists/{slug}/`` (``schemas.ListOut``)."""
    engine = rating_list.engine
    shown = None
    if engine == Engine.GORBUNOV:
        shown, rows, entry = _gorbunov(rating_list, asked)
    elif engine in MAHJONG:
        shown, rows, entry = _mahjong(rating_list, asked)
    elif engine == Engine.PREFERANS:
        from ratings.preferans.selectors import leaderboard

        rows = leaderboard(league=league)

        def entry(row, position: int) -> tuple:  # the leaderboard's row number is its rank, as on its page
            return position, row.rating, None, None, {"max_rating": _number(row.max_rating), "deals": row.deals}

    else:
        from ratings.dirs.selectors import dirs_leaderboard

        rows = dirs_leaderboard()

        def entry(row, position: int) -> tuple:
            return row.place, row.rating, None, None, {"games": row.games, "acceleration": row.acceleration}

    paginator = Paginator(rows, per_page)
    offset = (page - 1) * per_page
    out = []
    for number, row in enumerate(paginator.page(page).object_list if page <= paginator.num_pages else [], 1):
        rank, rating, delta, events, parts = entry(row, offset + number)
        out.append(
            {
                "rank": rank,
                "player": reads.player_ref(row.player, urls),
                "rating": float(rating),
                "delta": _number(delta),
                "tournaments": events,
                "parts": {name: _number(value) for name, value in parts.items()},
            }
        )
    snapshot = shown.snapshot if shown else None
    return {
        "list": reads.list_info(rating_list, urls),
        "as_of": snapshot.as_of if snapshot else None,
        "week": reads.iso_week(snapshot.as_of) if snapshot and engine == Engine.GORBUNOV else None,
        "message": str(shown.message) if shown else "",
        "league": league if engine == Engine.PREFERANS else None,
        "paging": reads.paging(paginator.count, page, per_page),
        "entries": out,
    }
