"""The mahjong lists on PostgreSQL (issue 5): 3,000 players and 600 tournaments in the two-year window.

- one date's three lists, from reading the results to writing the snapshots (target: under 3 s);
- rebuilding two years of daily history, a snapshot on every date where a list changes (target: under 10 minutes);
  the engine goes from date to date recomputing only the players whose tournaments changed (``ListState``);
- a list page (RR, 50 rows, Russian and English) at the median (target: under 100 ms).

Django is set up on ``bench_mahjong_lists`` (created when missing; ``make bench`` gives every module a process of
its own). The data is made up deterministically and loaded once; it is reused while the counts match.

    python -m bench.bench_mahjong_lists
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from datetime import date, timedelta

from bench._postgres import setup_django

PLAYERS = 3000
TOURNAMENTS = 600
AS_OF = date(2026, 3, 1)
SEED = 5
REQUESTS = 30


def _loaded() -> bool:
    from federation.models import Player
    from tournaments.models import Tournament

    return Player.objects.count() == PLAYERS and Tournament.objects.filter(discipline="mahjong").count() == TOURNAMENTS


def _load() -> None:
    from django.db import connection, transaction

    from federation.models import Player
    from tournaments.models import Result, Stage, Tournament

    rng = random.Random(SEED)
    with transaction.atomic():
        with connection.cursor() as cursor:
            tables = [Result._meta.db_table, Stage._meta.db_table, Tournament._meta.db_table, Player._meta.db_table]
            cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")
        players = [
            Player(
                last_name=f"Игрок{n:04d}",
                first_name="Пётр",
                last_name_latin=f"Player{n:04d}",
                first_name_latin="Petr",
                city=rng.choice(["Москва", "Санкт-Петербург", "Казань", "Екатеринбург", "Новосибирск"]),
                country="RU" if rng.random() < 0.95 else "DE",
                search_name=f"игрок{n:04d} петр player{n:04d} petr",
            )
            for n in range(PLAYERS)
        ]
        Player.objects.bulk_create(players, batch_size=2000)
        ids = [p.pk for p in players]
        tournaments = []
        for n in range(TOURNAMENTS):
            end = AS_OF - timedelta(days=rng.randrange(729))
            online = rng.random() < 0.15
            tournaments.append(
                Tournament(
                    discipline="mahjong",
                    name=f"Турнир {n + 1}",
                    start_date=end,
                    end_date=end,
                    city="Москва",
                    status="approved",
                    hanchans=20 if n % 10 == 0 else rng.randint(3, 16),
                    participants=None,
                    accredited=rng.random() < 0.8,
                    is_open=True,
                    online=online,
                    rank_restricted=online and rng.random() < 0.3,
                    rank_restriction_legitimate=rng.random() < 0.5,
                )
            )
        Tournament.objects.bulk_create(tournaments, batch_size=1000)
        stages = []
        results = []
        for n, tournament in enumerate(tournaments):
            size = rng.randint(12, 80)
            field = rng.sample(ids, size)
            finalists = size // 4
            if n % 10 == 0:
                stages += [
                    Stage(tournament=tournament, number=1, hanchans=10, players=size),
                    Stage(tournament=tournament, number=2, hanchans=10, players=finalists),
                ]
            for place, player in enumerate(field, start=1):
                played = (20 if place <= finalists else 10) if n % 10 == 0 else None
                results.append(Result(tournament=tournament, player_id=player, place=place, hanchans_played=played))
        Stage.objects.bulk_create(stages)
        Result.objects.bulk_create(results, batch_size=5000)
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def _load_average() -> str:
    """The machine's load while measuring: other work slows every figure down."""
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def run() -> list[dict]:
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
    setup_django("bench_mahjong_lists")
    from django.test import Client

    from ratings.mahjong import services
    from ratings.models import RatingList, RatingSnapshot
    from tournaments.models import Result

    if not _loaded():
        started = time.perf_counter()
        _load()
        sys.stderr.write(f"bench_mahjong_lists: loaded in {time.perf_counter() - started:.1f} s\n")
    services.mahjong_setup_defaults()
    lists = list(RatingList.objects.filter(engine__startswith="mahjong").order_by("pk"))
    results = Result.objects.count()
    rows = []

    RatingSnapshot.objects.filter(rating_list__in=lists).delete()
    started = time.perf_counter()
    outcome = services.mahjong_daily(today=AS_OF)
    one_date = time.perf_counter() - started
    summaries = [s.summary for s in RatingSnapshot.objects.filter(rating_list__in=lists, as_of=AS_OF)]
    entries = sum(summary["entries"] for summary in summaries)
    engine_seconds = sum(summary["seconds"] for summary in summaries)
    rows.append(
        {
            "name": "mahjong lists: one date's three lists",
            "seconds": round(one_date, 3),
            "target": 3.0,
            "detail": f"{PLAYERS} players, {TOURNAMENTS} tournaments, {results} results, {entries} entries; "
            f"engine {engine_seconds:.2f} s; {outcome}; {_load_average()}",
        }
    )

    start = AS_OF - timedelta(days=729)
    started = time.perf_counter()
    written = services.mahjong_rebuild(rating_lists=lists, start=start, end=AS_OF)
    rebuild = time.perf_counter() - started
    engine_seconds = sum(
        RatingSnapshot.objects.filter(rating_list__in=lists, as_of__range=(start, AS_OF)).values_list(
            "summary__seconds", flat=True
        )
    )
    rows.append(
        {
            "name": "mahjong lists: rebuild two years of daily history",
            "seconds": round(rebuild, 1),
            "target": 600.0,
            "detail": f"{start}..{AS_OF}, 730 dates x 3 lists; snapshots written {written}; "
            f"engine (incremental) {engine_seconds:.1f} s; {_load_average()}",
        }
    )

    client = Client()
    for prefix in ("", "/en"):
        url = f"{prefix}/ratings/mahjong/mahjong-rr/"
        for _ in range(3):
            assert client.get(url).status_code == 200
        timings = []
        for _ in range(REQUESTS):
            started = time.perf_counter()
            client.get(url)
            timings.append(time.perf_counter() - started)
        rows.append(
            {
                "name": f"mahjong lists: RR list page ({prefix or '/ru'})",
                "seconds": round(statistics.median(timings), 4),
                "target": 0.100,
                "detail": f"median of {REQUESTS}; p90 {sorted(timings)[int(REQUESTS * 0.9)] * 1000:.0f} ms; "
                f"{_load_average()}",
            }
        )
    return rows


if __name__ == "__main__":
    for row in run():
        verdict = "ok" if row["seconds"] <= row["target"] else "SLOW"
        print(f"{row['name']}: {row['seconds']} s (target {row['target']} s, {verdict}); {row['detail']}")
