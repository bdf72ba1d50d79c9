"""Public pages (issue 25): each list page and a busy player's page, cold and warm, side by side with a trivial Django
view through the same middleware, in one run.

20,000 players, each in the Gorbunov list (the newest week and four older ones), the mahjong RR list, DIRS and the
preferans leaderboard; pages of 50 rows. The server is gunicorn with the site's cache on Redis (a database of this
benchmark's own), as deployed. For each page:

- *cold*: the cache empty (the bench empties the cache's Redis database before each request): the page's versions
  are made again, the page is rendered (its queries, its templates) and stored;
- *warm*: the page from the cache (no conditional header), and a revalidation with ``If-None-Match`` answered
  ``304``.

Each ratio divides a page's median by the trivial view's median over 101 requests in a row asked just before the
page's block (the machine is shared and its load drifts within a run). The trivial view's median of 400 requests in a
row at the start is printed as the baseline row.

Targets: cold at most 40x and warm at most 3x the trivial view. Both sides are HTTP requests, one at a time, to
gunicorn (one worker) on this machine. Then gunicorn with 4 workers serves the site and wrk at 8 connections asks for
the trivial view and for the warm Gorbunov list for 8 s each: the list must reach a quarter of the trivial view's
requests per second.

    python -m bench public_pages
"""

from __future__ import annotations

import datetime
import http.client
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

from bench._postgres import database_url, ensure_database

ROOT = Path(__file__).resolve().parent.parent
NAME = "bench_public_pages"
PLAYERS = 20_000
WEEKS = 5
SEED = 16
COLD, WARM, TRIVIAL = 31, 200, 400
COLD_RATIO, WARM_RATIO, RPS_SHARE = 40.0, 3.0, 0.25
#: The Redis database the benchmark's server keeps its cache in (emptied before each cold request).
CACHE_URL = os.environ.get("BENCH_CACHE_URL", "redis://127.0.0.1:6379/3")
#: The trivial view's requests asked in a row just before each page's block (``_beside``).
BESIDE = 101
WRK_SECONDS = 8


def _setup() -> str:
    url = database_url(NAME)
    ensure_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.public_pages_site"
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver", "127.0.0.1"]
    call_command("migrate", verbosity=0)
    return url


def _loaded() -> bool:
    from federation.models import Player
    from ratings.models import RatingEntry

    return (
        Player.objects.filter(is_bot=False).count() == PLAYERS
        and RatingEntry.objects.filter(snapshot__rating_list__slug="mahjong-rr").count() == PLAYERS
    )


def _load() -> None:
    """Players, list entries, DIRS and preferans ratings, written directly (the pages read them, not the engines)."""
    from django.db import connection, transaction

    from federation.demo.names import CITIES, MALE_NAMES, SURNAMES, transliterate
    from federation.models import Club, Player
    from ratings.dirs.models import DirsRating
    from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot
    from ratings.preferans.models import PreferansRating
    from tournaments.models import Discipline, Result, Tournament, TournamentStatus

    rng = random.Random(SEED)
    with transaction.atomic():
        for model in (RatingChange, RatingEntry, RatingSnapshot, DirsRating, PreferansRating, Result, Tournament):
            model.objects.all().delete()
        Player.objects.all().delete()
        clubs = [Club.objects.get_or_create(name=f"Клуб {n}", city="Москва")[0] for n in range(40)]
        cities = [city for city, _weight in CITIES]
        players = []
        for _n in range(PLAYERS):
            surname, first = rng.choice(SURNAMES), rng.choice(MALE_NAMES)
            player = Player(
                last_name=surname,
                first_name=first,
                last_name_latin=transliterate(surname),
                first_name_latin=transliterate(first),
                city=rng.choice(cities),
                club=rng.choice(clubs) if rng.random() < 0.5 else None,
            )
            player.fill_search_name()
            players.append(player)
        Player.objects.bulk_create(players, batch_size=2000)
        ids = [p.pk for p in players]
        gorbunov = RatingList.objects.get(slug="gorbunov")
        mahjong = RatingList.objects.get(slug="mahjong-rr")
        monday = datetime.date(2026, 10, 26)
        ratings = {pid: rng.randint(100, 400) for pid in ids}
        for week in range(WEEKS):
            # The summary keeps how many players the list has that week, as gorbunov_publish writes it.
            snapshot = RatingSnapshot.objects.create(
                rating_list=gorbunov, as_of=monday + datetime.timedelta(weeks=week), summary={"players": PLAYERS}
            )
            newest = week == WEEKS - 1
            movers = ids if newest or week == 0 else rng.sample(ids, 2000)
            rows = []
            for pid in movers:
                delta = rng.randint(-20, 30)
                ratings[pid] = max(100, ratings[pid] + delta)
                rows.append((pid, ratings[pid], delta))
            rows.sort(key=lambda row: (-row[1], row[0]))
            RatingEntry.objects.bulk_create(
                [
                    RatingEntry(snapshot=snapshot, player_id=pid, rank=rank, rating=rating, delta=delta, events=3)
                    for rank, (pid, rating, delta) in enumerate(rows, start=1)
                ],
                batch_size=5000,
            )
        snapshot = RatingSnapshot.objects.create(
            rating_list=mahjong, as_of=datetime.date(2026, 11, 30), summary={"entries": PLAYERS}
        )
        values = sorted(((round(rng.uniform(100, 900), 2), pid) for pid in ids), reverse=True)
        RatingEntry.objects.bulk_create(
            [
                RatingEntry(snapshot=snapshot, player_id=pid, rank=rank, rating=Decimal(str(value)), delta=0, events=4)
                for rank, (value, pid) in enumerate(values, start=1)
            ],
            batch_size=5000,
        )
        DirsRating.objects.bulk_create(
            [
                DirsRating(player_id=pid, rating=rng.randint(0, 250), initial_rating=100, declared_rank="10k", games=5)
                for pid in ids
            ],
            batch_size=5000,
        )
        PreferansRating.objects.bulk_create(
            [PreferansRating(player_id=pid, rating=rng.uniform(800, 1900), max_rating=1900, deals=50) for pid in ids],
            batch_size=5000,
        )
        tournaments = Tournament.objects.bulk_create(
            [
                Tournament(
                    discipline=Discipline.CARD_GAMES,
                    name=f"Турнир {n}",
                    start_date=datetime.date(2026, 1, 3) + datetime.timedelta(days=7 * n),
                    end_date=datetime.date(2026, 1, 3) + datetime.timedelta(days=7 * n),
                    city="Москва",
                    status=TournamentStatus.APPROVED,
                    k=1,
                )
                for n in range(40)
            ]
        )
        heavy = ids[0]
        Result.objects.bulk_create(
            [Result(tournament=t, player_id=heavy, place=1 + n % 8) for n, t in enumerate(tournaments)]
        )
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    rating_list=gorbunov,
                    player_id=heavy,
                    tournament=t,
                    event_date=t.end_date,
                    before=150,
                    after=160,
                    delta=10,
                    details={"M": 1, "U": 8, "Rt": 150, "K": 1},
                    explanation_en="U = 8 participants, place M = 1",
                    explanation_ru="U = 8 участников, место M = 1",
                )
                for t in tournaments
            ]
        )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def _get(port: int, path: str, headers: dict | None = None) -> tuple[int, float, dict]:
    """One request over a fresh connection (gunicorn's sync workers close each one): status, seconds, headers."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, elapsed, dict(response.getheaders())


def _median(port: int, paths, n: int, *, headers: dict | None = None, status: int = 200, before=None) -> float:
    timings = []
    for i in range(n):
        if before is not None:
            before()
        path = paths(i) if callable(paths) else paths
        code, elapsed, _headers = _get(port, path, headers)
        if code != status:
            raise RuntimeError(f"{path}: {code}, expected {status}")
        timings.append(elapsed)
    return statistics.median(timings)


def _beside(
    port: int, paths, n: int, *, headers: dict | None = None, status: int = 200, before=None
) -> tuple[float, float]:
    """The page's median of ``n`` requests in a row, and the trivial view's median of ``BESIDE`` requests in a row
    asked just before them: on this shared machine the load drifts within a run, so each ratio compares two blocks
    measured one after the other. (Asking them in turn, page then trivial, made the trivial view half again slower
    after each large page, which would flatter the ratio.)"""
    trivial = _median(port, "/bench-trivial/", BESIDE)
    return _median(port, paths, n, headers=headers, status=status, before=before), trivial


def _empty_cache() -> None:
    """The server's cache emptied: its next request finds no version and no page."""
    import redis

    client = redis.Redis.from_url(CACHE_URL)
    client.flushdb()
    client.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(url: str, port: int, workers: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_CACHE_URL": CACHE_URL,
        "DJANGO_SETTINGS_MODULE": "bench.public_pages_site",
        "DATABASE_URL": url,
        "DJANGO_CONN_MAX_AGE": "600",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    command = [sys.executable, "-m", "gunicorn", "federation.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited: " + (server.stderr.read() if server.stderr else ""))
        try:
            if _get(port, "/bench-trivial/")[0] == 200:
                return server
        except OSError:
            time.sleep(0.3)
    server.terminate()
    raise RuntimeError("gunicorn did not start within 60 s")


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


def _wrk(port: int, path: str) -> float:
    """Requests per second at 8 connections (after a 2-second warm-up that fills every worker's cache)."""
    base = f"http://127.0.0.1:{port}{path}"
    subprocess.run(["wrk", "-t2", "-c8", "-d2s", base], capture_output=True, text=True, check=False)
    done = subprocess.run(["wrk", "-t2", "-c8", f"-d{WRK_SECONDS}s", base], capture_output=True, text=True, check=False)
    found = re.search(r"Requests/sec:\s+([\d.]+)", done.stdout)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", done.stdout)
    if not found or non2xx or float(found[1]) == 0:
        raise RuntimeError(f"wrk on {path}: {done.stdout[-300:]} {done.stderr[-300:]}")
    return float(found[1])


def run() -> list[dict]:
    url = _setup()
    if not _loaded():
        _load()
    from django.db import connections

    from federation.models import Player

    heavy = Player.objects.filter(is_bot=False).order_by("pk").values_list("pk", flat=True).first()
    connections.close_all()
    pages = [
        ("Gorbunov list", "/ratings/cards/gorbunov/"),
        ("Gorbunov past week", "/ratings/cards/gorbunov/?week=2026-W45"),
        ("RR list", "/ratings/mahjong/mahjong-rr/"),
        ("DIRS leaderboard", "/go/dirs/"),
        ("preferans leaderboard", "/preferans/"),
        ("player page", f"/players/{heavy}/"),
    ]

    rows = []
    port = _free_port()
    server = _serve(url, port, workers=1)
    try:
        for _name, page in pages:  # warm the connection, the template loaders and the translations
            _get(port, page)
        trivial = _median(port, "/bench-trivial/", TRIVIAL)
        rows.append(
            {
                "name": "public pages: trivial view",
                "seconds": round(trivial, 5),
                "target": 0,
                "detail": f"median of {TRIVIAL} HTTP requests to gunicorn through the site's middleware (baseline)",
            }
        )
        for name, page in pages:
            sys.stderr.write(f"measuring {name}\n")
            page_cold, beside_cold = _beside(port, page, COLD, before=_empty_cache)
            warm, beside_warm = _beside(port, page, WARM)
            etag = _get(port, page)[2]["ETag"]
            not_modified, beside_304 = _beside(port, page, WARM, headers={"If-None-Match": etag}, status=304)
            rows.append(
                {
                    "name": f"{name}: cold",
                    "seconds": round(page_cold, 5),
                    "target": round(COLD_RATIO * beside_cold, 5),
                    "detail": (
                        f"{page_cold / beside_cold:.1f}x the trivial view just before ({beside_cold * 1000:.2f} ms; "
                        f"target {COLD_RATIO:g}x), {page_cold / trivial:.1f}x its median of {TRIVIAL} in a row; "
                        f"the cache empty, {PLAYERS} players, 50 rows"
                    ),
                }
            )
            # The row stands for the worse of the two answers, against the trivial view asked just before it.
            worse, beside = max((warm, beside_warm), (not_modified, beside_304), key=lambda pair: pair[0] / pair[1])
            rows.append(
                {
                    "name": f"{name}: warm",
                    "seconds": round(worse, 5),
                    "target": round(WARM_RATIO * beside, 5),
                    "detail": (
                        f"cached {warm / beside_warm:.2f}x, 304 {not_modified / beside_304:.2f}x the trivial view "
                        f"just before (target {WARM_RATIO:g}x); {warm / trivial:.2f}x and "
                        f"{not_modified / trivial:.2f}x its median of {TRIVIAL} in a row"
                    ),
                }
            )
    finally:
        _stop(server)
    if not shutil.which("wrk"):
        rows.append({"name": "wrk", "seconds": float("nan"), "target": 0, "detail": "wrk is not installed"})
        return rows
    port = _free_port()
    server = _serve(url, port, workers=4)
    try:
        trivial_rps = _wrk(port, "/bench-trivial/")
        list_rps = _wrk(port, "/ratings/cards/gorbunov/")
    finally:
        _stop(server)
    share = list_rps / trivial_rps
    rows.append(
        {
            "name": "Gorbunov list under wrk (8 connections)",
            "seconds": round(1 / list_rps, 5),
            "target": round(1 / (RPS_SHARE * trivial_rps), 5),
            "detail": (
                f"{list_rps:.0f} req/s vs the trivial view's {trivial_rps:.0f} req/s: {share:.2f} "
                f"(target {RPS_SHARE:g}); gunicorn, 4 workers"
            ),
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(f"{row['name']:<45} {row['seconds']:>10} {row['target']:>10}  {row['detail']}")
