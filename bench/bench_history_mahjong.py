"""A mahjong federation moves in (issue 14): two years of history through ``import_history``, every daily list.

Target: two years of mahjong (3,000 players, 600 tournaments of 16 to 120 players, some with cut-offs, some online)
imported with every daily list of RR, CRR and the online rating (a snapshot on each date where a list changes, as
the daily job would have published them) in under 10 minutes on PostgreSQL, and within 3x of a bare ``COPY`` of the
same rows (players, tournaments, stages, results, and the published snapshots and their entries), measured in the
same run by ``bench_history_import._bare_copy``. The import is timed from the parsed document to the last list.

``BENCH_SCALE`` (a fraction, default 1) shrinks the history for a quick run while working on it.

    python -m bench history_mahjong
"""

from __future__ import annotations

import datetime as dt
import os
import random
import time

from bench._postgres import database_url, ensure_database, setup_django
from bench.bench_history_import import _bare_copy, _tables

NAME = "bench_history_mahjong"
PLAYERS = 3_000
TOURNAMENTS = 600
DAYS = 730
TARGET = 600.0
RATIO_TARGET = 3.0
SEED = 14


def mahjong_document(rng: random.Random, *, players: int, tournaments: int, today: dt.date, days: int = DAYS) -> dict:
    ids = [f"m{i:05d}" for i in range(players)]
    weights = [1.0 / (1 + i % 300) ** 0.5 for i in range(players)]  # regulars and occasional players
    foreign = {p: rng.choice(("DE", "FR", "NL", "UA")) for p in rng.sample(ids, players // 20)}
    first = today - dt.timedelta(days=days - 1)
    items = []
    for index in range(tournaments):
        n = rng.choice((16, 16, 20, 24, 28, 32, 36, 40, 48, 60, 80, 100, 120))
        field = list(dict.fromkeys(rng.choices(ids, weights=weights, k=n * 2)))[: n - rng.randrange(0, 3)]
        online = rng.random() < 0.15
        item: dict = {
            "id": f"h{index:04d}",
            "end_date": (first + dt.timedelta(days=rng.randrange(days))).isoformat(),
            "players": n,
            "accredited": rng.random() < 0.8,
            "open": rng.random() < 0.9,
            "online": online,
        }
        if online and rng.random() < 0.3:
            item["rank_restricted"] = True
            item["rank_restriction_legitimate"] = rng.random() < 0.5
        if rng.random() < 0.05:
            item["country"] = "DE"
            item["ema"] = True
        if index % 10 == 0 and n >= 32:
            finalists = n // 4
            item["stages"] = [{"hanchans": 10, "players": n}, {"hanchans": 6, "players": finalists}]
            item["results"] = [
                {"player": p, "place": place, "hanchans": 16 if place <= finalists else 10}
                for place, p in enumerate(field, start=1)
            ]
        else:
            item["hanchans"] = rng.choice((4, 6, 8, 8, 10, 12, 16))
            item["results"] = [{"player": p, "place": place} for place, p in enumerate(field, start=1)]
        items.append(item)
    items.sort(key=lambda t: (t["end_date"], t["id"]))
    people = [{"id": p, "country": country} for p, country in foreign.items()]
    return {"system": "mahjong-rr", "country": "RU", "players": people, "tournaments": items}


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
    players, tournaments = int(PLAYERS * scale), int(TOURNAMENTS * scale)
    doc = mahjong_document(random.Random(SEED), players=players, tournaments=tournaments, today=timezone.localdate())
    results = sum(len(t["results"]) for t in doc["tournaments"])
    started = time.perf_counter()
    report = history_import(doc=doc)
    seconds = time.perf_counter() - started
    snapshots = RatingSnapshot.objects.count()
    entries = RatingEntry.objects.count()
    baseline, copied = _bare_copy(_tables([Player, Tournament, Stage, Result, RatingSnapshot, RatingEntry]))
    ratio = seconds / baseline if baseline else float("inf")
    return [
        {
            "name": "history import: mahjong, two years, every daily list",
            "seconds": round(seconds, 1),
            "target": TARGET,
            "detail": f"{players} players, {tournaments} tournaments, {results} results -> {snapshots} snapshots, "
            f"{entries} entries of {', '.join(report.rebuilt)} "
            f"over {report.created.get('list dates rebuilt', 0)} dates",
        },
        {
            "name": "history import: mahjong against a bare COPY of the same rows (ratio)",
            "seconds": round(ratio, 2),
            "target": RATIO_TARGET,
            "detail": f"bare COPY of {copied} rows: {baseline:.1f} s; import {seconds:.1f} s",
        },
    ]


if __name__ == "__main__":
    for row in run():
        verdict = "ok" if row["seconds"] <= row["target"] else "SLOW"
        print(f"{row['name']}: {row['seconds']} (target {row['target']}, {verdict}); {row['detail']}")
