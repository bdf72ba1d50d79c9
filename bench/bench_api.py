"""The public API (/api/v1/) on PostgreSQL: a list page of 100 rows as JSON and a player's history, against a trivial
JSON view measured in the same run; and warm list requests under wrk at 8 connections.

Targets (issue 25, replacing issue 17's 10x): cold at most 40x and warm at most 3x the trivial view; under wrk at 8
connections, warm list requests at a median under 20 ms and a 99th percentile under 50 ms.

- cold: the answer built from the database with nothing of the data cached: Django's cache (the stored answers and
  the versions; Redis in production) is emptied before each request, so the request makes the versions again, reads
  the list or history from PostgreSQL through the pages' own selectors and writes the JSON. What a serving process
  keeps between requests whatever the data (Django's URL and translation tables) is kept, as it is after a
  process's first few requests. warm: the same request again: the versions and the stored answer, from the cache.
  Medians of 200 requests each in one process (Django's test client, the whole middleware stack, PostgreSQL), after
  20 of warm-up, trivial and API taken in turn in blocks of 20 so both see the same machine.
- wrk: gunicorn (4 sync workers, the README's command) serving the same database, 8 connections, 2 threads, 10 s,
  after 10 s of warm-up; every request the same list page of 100 rows, answered in full (no If-None-Match): warm
  list requests, each taking the versions and the stored answer from the cache (each worker's own memory here;
  Redis in production).

The data is made here, deterministically: 2,000 players, a Gorbunov list with two publications (the newest of 2,000
entries), and one player with 300 rating changes explained in both languages; then ``VACUUM ANALYZE``, as
autovacuum would have done by the time a production site serves them.

    python -m bench api
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

from bench._postgres import setup_django

ROOT = Path(__file__).resolve().parent.parent
NAME = "bench_api"
PLAYERS = 2_000
CHANGES = 300
SLUG = "bench-api-list"
LIST_URL = f"/api/v1/lists/{SLUG}/?per_page=100&page=3"
TRIVIAL_URL = "/bench/trivial/"
REQUESTS = 200
CLIENTS = 8
WRK_SECONDS = 10


def _data() -> int:
    """Make the list and the player's history once; return the player with the history."""
    from django.db import connection

    from federation.models import Player, normalize_name
    from ratings.models import Engine, RatingChange, RatingEntry, RatingList, RatingSnapshot

    found = RatingList.objects.filter(slug=SLUG).first()
    if found is not None and RatingEntry.objects.filter(snapshot__rating_list=found).count() >= PLAYERS:
        return RatingChange.objects.filter(rating_list=found).values_list("player_id", flat=True).first()
    RatingList.objects.filter(slug=SLUG).delete()
    players = Player.objects.bulk_create(
        [
            Player(
                last_name=f"Игроков{n:04d}",
                first_name="Бенч",
                last_name_latin=f"Igrokov{n:04d}",
                first_name_latin="Bench",
                city="Москва",
                search_name=normalize_name(f"Игроков{n:04d} Бенч Igrokov{n:04d} Bench"),
            )
            for n in range(PLAYERS)
        ]
    )
    rating_list = RatingList.objects.create(slug=SLUG, name="Бенчмарк", name_en="Benchmark", engine=Engine.GORBUNOV)
    monday = dt.date(2026, 3, 2)
    older = RatingSnapshot.objects.create(rating_list=rating_list, as_of=monday)
    newest = RatingSnapshot.objects.create(rating_list=rating_list, as_of=monday + dt.timedelta(days=7))
    entries = []
    for rank, player in enumerate(players, start=1):
        rating = Decimal(3000 - rank)
        entries.append(
            RatingEntry(snapshot=newest, player=player, rank=rank, rating=rating, delta=Decimal(1), events=5)
        )
        if rank % 2:
            entries.append(RatingEntry(snapshot=older, player=player, rank=rank, rating=rating - 1, events=4))
    RatingEntry.objects.bulk_create(entries, batch_size=2000)
    who = players[0]
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                rating_list=rating_list,
                player=who,
                snapshot=newest,
                event_date=monday - dt.timedelta(days=n),
                before=Decimal(1500 + n),
                after=Decimal(1501 + n),
                delta=Decimal(1),
                explanation_en=f"U = 16, M = 3, Rt = 1500.0000, K = 2: change +1.0000 (change {n})",
                explanation_ru=f"U = 16, M = 3, Rt = 1500,0000, K = 2: изменение +1,0000 (изменение {n})",
            )
            for n in range(CHANGES)
        ]
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # as autovacuum would have by the time a production site serves them
    return who.pk


def _timings(urls: list[str]) -> tuple[dict[str, float], dict[str, float]]:
    """Medians of cold and warm requests per URL, in one process, the URLs taken in turn in blocks of 20 so that all
    see the same machine. Cold: the cache emptied before each request, so the answer is built from the database;
    warm: the same request again, answered from the cache under the versions of what it shows."""
    from django.core.cache import cache
    from django.test import Client

    client = Client()
    cold: dict[str, list[float]] = {url: [] for url in urls}
    warm: dict[str, list[float]] = {url: [] for url in urls}
    for url in urls:
        for _ in range(20):
            assert client.get(url).status_code == 200
    for _block in range(REQUESTS // 20):
        for url in urls:
            for _ in range(20):
                cache.clear()
                started = time.perf_counter()
                response = client.get(url)
                cold[url].append(time.perf_counter() - started)
                assert response.status_code == 200
            for _ in range(20):
                started = time.perf_counter()
                response = client.get(url)
                warm[url].append(time.perf_counter() - started)
                assert response.status_code == 200
    median = statistics.median
    return {u: median(v) for u, v in cold.items()}, {u: median(v) for u, v in warm.items()}


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(port: int) -> subprocess.Popen:
    import http.client

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench._api_settings",
        "DJANGO_CONN_MAX_AGE": "600",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    command = [sys.executable, "-m", "gunicorn", "federation.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    # --preload: Django and the URLs are loaded once before the workers fork, so none is still starting when measured.
    command += ["--workers", "4", "--worker-class", "sync", "--preload", "--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited: " + (server.stderr.read() if server.stderr else ""))
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", LIST_URL)
            if connection.getresponse().status == 200:
                return server
        except OSError:
            time.sleep(0.5)
    server.terminate()
    raise RuntimeError("gunicorn did not answer within 120 s")


def _wrk(port: int, seconds: int) -> dict:
    command = ["wrk", "-t2", f"-c{CLIENTS}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
    output = subprocess.run(
        [*command, f"http://127.0.0.1:{port}{LIST_URL}"],
        capture_output=True,
        text=True,
        timeout=seconds + 60,
        check=True,
    ).stdout
    stats = {"requests": 0, "non2xx": 0}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] in ("50%", "99%"):
            stats[parts[0]] = _seconds(parts[1])
        elif "requests in" in line:
            stats["requests"] = int(parts[0])
        elif line.strip().startswith("Non-2xx"):
            stats["non2xx"] = int(parts[-1])
    return stats


def _seconds(text: str) -> float:
    for suffix, factor in (("us", 1e-6), ("ms", 1e-3), ("s", 1.0)):
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text)


def _python_load(port: int, seconds: int) -> dict:
    """Without wrk: eight threads with keep-alive connections."""
    import http.client
    import threading

    latencies: list[float] = []
    lock = threading.Lock()
    stop_at = time.monotonic() + seconds
    errors = [0]

    def client():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        mine = []
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            connection.request("GET", LIST_URL)
            response = connection.getresponse()
            response.read()
            mine.append(time.perf_counter() - started)
            if response.status != 200:
                errors[0] += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()
    return {
        "requests": len(latencies),
        "non2xx": errors[0],
        "50%": latencies[len(latencies) // 2],
        "99%": latencies[int(len(latencies) * 0.99)],
    }


def run() -> list[dict]:
    url = setup_django(NAME)
    os.environ["DATABASE_URL"] = url
    from django.conf import settings

    settings.ROOT_URLCONF = "bench._api_urls"
    settings.API_ANON_RATE = "100000000/60"
    who = _data()
    history_url = f"/api/v1/players/{who}/history/?per_page=100&lang=en"
    from django.test import Client

    body = json.loads(Client().get(LIST_URL).content)
    assert len(body["entries"]) == 100, body
    cold, warm = _timings([TRIVIAL_URL, LIST_URL, history_url])
    rows = []
    for label, target_url in (("a 100-row list", LIST_URL), ("a player's history", history_url)):
        cold_ratio = cold[target_url] / cold[TRIVIAL_URL]
        warm_ratio = warm[target_url] / warm[TRIVIAL_URL]
        rows.append(
            {
                "name": f"api v1: {label}, cold / trivial JSON view",
                "seconds": round(cold_ratio, 3),
                "target": 40.0,
                "detail": f"ratio (not seconds): {cold[target_url] * 1000:.1f} ms vs "
                f"{cold[TRIVIAL_URL] * 1000:.2f} ms, built from the database, medians of {REQUESTS} requests",
            }
        )
        rows.append(
            {
                "name": f"api v1: {label}, warm / trivial JSON view",
                "seconds": round(warm_ratio, 3),
                "target": 3.0,
                "detail": f"ratio (not seconds): {warm[target_url] * 1000:.2f} ms vs "
                f"{warm[TRIVIAL_URL] * 1000:.2f} ms, from the cache by the version shown, "
                f"medians of {REQUESTS} requests",
            }
        )
    port = _free_port()
    server = _serve(port)
    try:
        if shutil.which("wrk"):
            _wrk(port, 10)
            stats = _wrk(port, WRK_SECONDS)
            client = f"wrk -t2 -c{CLIENTS} -d{WRK_SECONDS}s"
        else:
            _python_load(port, 10)
            stats = _python_load(port, WRK_SECONDS)
            client = f"wrk not installed: Python client, {CLIENTS} threads"
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    detail = f"{stats['requests']} requests, {stats['non2xx']} not 200, {client}, gunicorn 4 sync workers"
    rows.append(
        {
            "name": "api v1: warm 100-row list, median at 8 clients",
            "seconds": round(stats["50%"], 4),
            "target": 0.020,
            "detail": detail,
        }
    )
    rows.append(
        {
            "name": "api v1: warm 100-row list, p99 at 8 clients",
            "seconds": round(stats["99%"], 4),
            "target": 0.050,
            "detail": detail,
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
