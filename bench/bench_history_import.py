"""A federation moves in (issue 14): its whole history through ``import_history``, against a bare COPY of the same rows.

Targets: ten years of Gorbunov history (20,000 players, 300,000 results, with starting ratings) imported and
published in under 5 minutes on PostgreSQL, and within 3x of a bare ``COPY`` of the same rows, measured in the same
run; a DIRS club history (2,000 players, 100,000 games) likewise against its COPY.

"The same rows" are every row the import wrote (players, tournaments, results, starting ratings, the published
snapshots, entries and changes; for DIRS the players, ratings and games): after the import they are read out with
``COPY ... TO STDOUT``, the tables are emptied, and the timed baseline writes them back with ``COPY ... FROM STDIN``
in one transaction, foreign keys checked as usual. The import is timed from the parsed JSON document (the file read
and ``json.loads`` are not counted: they are the same for any loader) to the published list. Only the all-formats
Gorbunov list is active here, as for a federation that keeps one list (every active list that takes the
tournaments is rebuilt by the import).

Storage (issue 29): each import's database beyond the one before it (``bench._storage``: after ``VACUUM``, before the
COPY rewrites the tables), against 500 MB for the ten Gorbunov years; the detail gives the ratings' bytes per
player-year (the weekly snapshots, entries and changes for Gorbunov; DIRS keeps a game and both players' ratings
before and after in one ``DirsGame`` row, so its games count as its rating storage, beside ``DirsRating``) and the
input's MB (players, tournaments, results, starting ratings) apart.

    python -m bench history_import          # BENCH_SCALE=0.1 for a quick run (the targets are the full size's)
"""

from __future__ import annotations

import datetime as dt
import os
import random
import time

from bench import _storage
from bench._postgres import database_url, ensure_database, setup_django

NAME = "bench_history_import"
SCALE = float(os.environ.get("BENCH_SCALE", "1"))  # a fraction of the players, results and games, for a quick run
PLAYERS = int(20_000 * SCALE)
RESULTS = int(300_000 * SCALE)
YEARS = 10
STARTING = int(8_000 * SCALE)
GORBUNOV_TARGET = 300.0
GORBUNOV_MB_TARGET = 500.0
DIRS_YEARS = 5
RATIO_TARGET = 3.0
DIRS_PLAYERS = int(2_000 * SCALE)
DIRS_GAMES = int(100_000 * SCALE)
SEED = 14


def gorbunov_document(rng: random.Random) -> dict:
    ids = [f"f{i:05d}" for i in range(PLAYERS)]
    weights = [1.0 / (1 + i % 400) for i in range(PLAYERS)]  # some play every week, most now and then
    start = dt.date(2015, 1, 5)
    days = YEARS * 364
    tournaments = []
    written = 0
    index = 0
    while written < RESULTS:
        size = min(rng.randint(6, 34), RESULTS - written) if RESULTS - written >= 4 else RESULTS - written
        field = list(dict.fromkeys(rng.choices(ids, weights=weights, k=size * 2)))[:size]
        date = start + dt.timedelta(days=int(index * days / (RESULTS / 20)) % days)
        tournaments.append(
            {
                "id": f"t{index:06d}",
                "date": date.isoformat(),
                "k": rng.choice((1, 1, 2, 2, 4, 8)),
                "format": rng.choice(("constructed", "sealed", "draft", "limited")),
                "results": [{"player": p, "place": m} for m, p in enumerate(field, start=1)],
            }
        )
        written += len(field)
        index += 1
    tournaments.sort(key=lambda t: t["date"])
    return {
        "system": "gorbunov",
        "ratings_date": "2014-12-31",
        "ratings": {p: rng.randint(100, 600) for p in rng.sample(ids, STARTING)},
        "options": {"sqrt_rule": True},
        "tournaments": tournaments,
    }


def dirs_document(rng: random.Random) -> dict:
    ids = [f"d{i:04d}" for i in range(DIRS_PLAYERS)]
    ratings = {p: rng.randrange(0, 280) for p in ids}
    games = []
    start = dt.date(2020, 1, 1)
    for index in range(DIRS_GAMES):
        white, black = rng.sample(ids, 2)
        games.append(
            {
                "date": (start + dt.timedelta(days=index * DIRS_YEARS * 365 // DIRS_GAMES)).isoformat(),
                "white": white,
                "black": black,
                "winner": rng.choice((white, black)),
                "handicap": rng.randrange(0, 12),
                "komi": rng.choice(("normal", "none", "reverse")),
            }
        )
    return {"system": "dirs", "ratings": ratings, "games": games}


def days_covered(dates) -> int:
    """The days from the first date to the last, both counted (ISO strings or dates)."""
    days = [dt.date.fromisoformat(d) if isinstance(d, str) else d for d in dates]
    return (max(days) - min(days)).days + 1


def _tables(models) -> list[str]:
    return [model._meta.db_table for model in models]


def _bare_copy(tables: list[str]) -> tuple[float, int]:
    """Read the tables out, empty them, and time writing the same rows back by COPY (one transaction)."""
    from django.db import connection, transaction

    dumps = {}
    with connection.cursor() as cursor:
        for table in tables:
            buffer = bytearray()
            with cursor.copy(f'COPY "{table}" TO STDOUT') as copy:
                for chunk in copy:
                    buffer += chunk
            dumps[table] = bytes(buffer)
    rows = sum(dump.count(b"\n") for dump in dumps.values())
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("TRUNCATE " + ", ".join(f'"{t}"' for t in tables) + " CASCADE")
    started = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        for table in tables:
            with cursor.copy(f'COPY "{table}" FROM STDIN') as copy:
                copy.write(dumps[table])
    return time.perf_counter() - started, rows


def run() -> list[dict]:
    url = database_url(NAME)
    ensure_database(url, recreate=True)
    setup_django(NAME)
    from federation.models import Player
    from ratings.dirs.models import DirsGame, DirsRating
    from ratings.history import history_import
    from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
    from tournaments.models import Result, Tournament

    rng = random.Random(SEED)
    rows: list[dict] = []

    # Gorbunov: ten years, published
    RatingList.objects.filter(engine="gorbunov").exclude(slug="gorbunov").update(is_active=False)
    doc = gorbunov_document(rng)
    results = sum(len(t["results"]) for t in doc["tournaments"])
    empty = _storage.measure()
    started = time.perf_counter()
    report = history_import(doc=doc)
    seconds = time.perf_counter() - started
    gorbunov = _storage.storage(empty, _storage.measure(), inputs=[Player, Tournament, Result, StartingRating])
    players = Player.objects.count()
    days = days_covered(t["date"] for t in doc["tournaments"])
    n_changes = RatingChange.objects.count()
    n_entries = RatingEntry.objects.count()
    n_weeks = RatingSnapshot.objects.count()
    baseline, copied = _bare_copy(
        _tables([Player, Tournament, Result, StartingRating, RatingSnapshot, RatingEntry, RatingChange])
    )
    rows.append(
        {
            "name": "history import: Gorbunov, ten years, published",
            "seconds": round(seconds, 3),
            "target": GORBUNOV_TARGET,
            "detail": f"{PLAYERS} players, {len(doc['tournaments'])} tournaments, {results} results, "
            f"{len(doc['ratings'])} starting ratings -> {n_weeks} weeks, {n_entries} entries, {n_changes} changes; "
            f"lists {', '.join(report.rebuilt)}",
        }
    )
    rows.append(
        {
            "name": "history import: Gorbunov / bare COPY ratio",
            "seconds": round(seconds / baseline, 3),
            "target": RATIO_TARGET,
            "detail": f"COPY of the same {copied} rows: {baseline:.2f} s; import {seconds:.2f} s (ratio, not s)",
        }
    )
    rows.append(
        _storage.system_row(
            "storage: Gorbunov weekly, ten years", gorbunov, players=players, days=days, target_mb=GORBUNOV_MB_TARGET
        )
    )

    # DIRS: a club's games of every handicap, rated in order
    doc = dirs_document(rng)
    before = _storage.measure()
    known = Player.objects.count()
    started = time.perf_counter()
    history_import(doc=doc)
    seconds = time.perf_counter() - started
    dirs = _storage.storage(before, _storage.measure(), inputs=[Player, StartingRating])
    players = Player.objects.count() - known
    days = days_covered(g["date"] for g in doc["games"])
    rated = DirsGame.objects.filter(rated=True).count()
    baseline, copied = _bare_copy(_tables([DirsRating, DirsGame]))
    rows.append(
        {
            "name": "history import: DIRS club games",
            "seconds": round(seconds, 3),
            "target": 0,
            "detail": f"{DIRS_PLAYERS} players, {DIRS_GAMES} games ({rated} rated)",
        }
    )
    rows.append(
        {
            "name": "history import: DIRS / bare COPY ratio",
            "seconds": round(seconds / baseline, 3),
            "target": RATIO_TARGET,
            "detail": f"COPY of the same {copied} rows (ratings, games): {baseline:.2f} s; import {seconds:.2f} s "
            "(ratio, not s)",
        }
    )
    rows.append(
        _storage.system_row("storage: DIRS club games", dirs, players=players, days=days, beyond="the Gorbunov history")
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
