"""The mahjong history of issue 29: time, disk and exactness of every daily list, per list.

Targets (PostgreSQL): 1,500 players and 300 tournaments over 2.2 years (803 days), with RR, CRR and the online
rating rebuilt on every date (``bench_history_mahjong.mahjong_document``, the daily job's snapshots), imported and
every daily list built in at most 120 s, in at most 300 MB beyond an empty (migrated) database, and every list
exact. Beside them: the ratio to a bare ``COPY`` of the same rows (``bench_history_import._bare_copy``; "the same
rows" are every table the import wrote into from empty, whatever the lists' storage), and each list's MB and bytes
per player-year (``bench._storage``: its rows' share of the tables the lists share; the input, players,
tournaments, stages and results, apart).

Exact: on a sample of dates (every ``BENCH_EXACT_EVERY``-th day of the history, default 30, and its last day), each
list as the site gives it (``ratings.history.list_document``, what ``show_list`` prints) equals ``rate``'s list for
the same document as of that date; the row counts the lists that differ. The check is not timed.

This is issue 14's ``bench_history_mahjong`` at half its players and tournaments over 803 days rather than 730, so
the two benchmarks are comparable; ``BENCH_SCALE`` (a fraction, default 1) shrinks this one too.

    python -m bench history_mahjong_storage
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import time

from bench import _storage
from bench._postgres import database_url, ensure_database, setup_django
from bench.bench_history_import import _bare_copy
from bench.bench_history_mahjong import SEED, mahjong_document

NAME = "bench_history_mahjong_storage"
PLAYERS = 1_500
TOURNAMENTS = 300
DAYS = 803
TARGET = 120.0
MB_TARGET = 300.0
#: Issue 29 sets no ratio for this history, only that it is printed beside the time: with the changes kept, the
#: rows written are a tenth of what they were, and the import's time is the engine's (every daily list of 803 days).
RATIO_TARGET = None
SYSTEMS = ("mahjong-rr", "mahjong-crr", "mahjong-online")


def _differing(doc: dict, *, every: int, today: dt.date) -> tuple[int, int, int]:
    """How many (list, date) pairs of the sample differ from ``rate``, how many were checked, and their entries."""
    from ratings.history import list_document
    from ratings.rate import rate

    first = today - dt.timedelta(days=DAYS - 1)
    dates = sorted({*(first + dt.timedelta(days=d) for d in range(0, DAYS, every)), today})
    differing = compared = 0
    for system in SYSTEMS:
        for day in dates:
            shown = list_document(system=system, as_of=day)
            expected = rate({**doc, "system": system, "as_of": day.isoformat()})
            differing += json.loads(json.dumps(shown)) != json.loads(json.dumps(expected, ensure_ascii=False))
            compared += len(expected["list"])
    return differing, len(SYSTEMS) * len(dates), compared


def run() -> list[dict]:
    url = database_url(NAME)
    ensure_database(url, recreate=True)
    setup_django(NAME)
    from django.utils import timezone

    from federation.models import Player
    from ratings.history import history_import
    from ratings.models import RatingEntry, RatingSnapshot
    from tournaments.models import Result, Stage, Tournament

    scale = float(os.environ.get("BENCH_SCALE", "1"))
    every = int(os.environ.get("BENCH_EXACT_EVERY", "30"))
    players, tournaments = int(PLAYERS * scale), int(TOURNAMENTS * scale)
    today = timezone.localdate()
    doc = mahjong_document(random.Random(SEED), players=players, tournaments=tournaments, today=today, days=DAYS)
    results = sum(len(t["results"]) for t in doc["tournaments"])
    empty = _storage.measure()
    started = time.perf_counter()
    report = history_import(doc=doc)
    seconds = time.perf_counter() - started
    after = _storage.measure()
    found = _storage.storage(empty, after, inputs=[Player, Tournament, Stage, Result])
    snapshots = RatingSnapshot.objects.count()
    entries = RatingEntry.objects.count()
    stored = Player.objects.count()
    rows = [
        {
            "name": "mahjong 1,500 x 2.2 years: import + every daily list (s)",
            "seconds": round(seconds, 1),
            "target": TARGET,
            "detail": f"{players} players ({stored} with a result), {tournaments} tournaments, {results} results "
            f"over {DAYS} days -> {snapshots} snapshots, {entries} entries of {', '.join(report.rebuilt)} "
            f"over {report.created.get('list dates rebuilt', 0)} dates",
        },
        _storage.system_row("mahjong 1,500 x 2.2 years", found, players=stored, days=DAYS, target_mb=MB_TARGET),
        *_storage.list_rows("mahjong 1,500 x 2.2 years", found, players=stored, days=DAYS),
    ]
    started = time.perf_counter()
    differing, checked, compared = _differing(doc, every=every, today=today)
    rows.append(
        {
            "name": "mahjong 1,500 x 2.2 years: lists that differ from rate (a count)",
            "seconds": differing,
            "target": 0.5,
            "detail": f"{checked} lists of {compared} entries checked (RR, CRR, online every {every} days and the "
            f"last day) in "
            f"{time.perf_counter() - started:.0f} s, not timed; the target is none at all",
        }
    )
    written = _storage.filled(empty, after)
    baseline, copied = _bare_copy(written)
    rows.append(
        {
            "name": "mahjong 1,500 x 2.2 years: against a bare COPY of the same rows (ratio)",
            "seconds": round(seconds / baseline if baseline else float("inf"), 2),
            "target": RATIO_TARGET,
            "detail": f"bare COPY of {copied} rows of {len(written)} tables: {baseline:.1f} s; import {seconds:.1f} s",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
