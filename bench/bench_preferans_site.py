"""Preferans on PostgreSQL: a million deals imported in batches, and deals posted through the API under load.

Targets (issue 7): importing one million deals of 3 and 4 players in under 60 s in batches; one deal posted through
the JSON API in under 20 ms at the median and 50 ms at the 99th percentile with 8 concurrent clients on loopback,
with no errors. The import runs ``deals_import_bulk`` (the engine's ``rate_deals`` over groups of deals that share
no player, COPY for the writes) in batches of 100,000 deals, each batch one transaction. The API is served by
gunicorn in a subprocess on a free local port against the same database; eight threads, each with one keep-alive
``http.client`` connection, post single deals to their own games.

    python -m bench.bench_preferans_site
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_preferans_site"
ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 5_000
GAMES = 50_000
DEALS_PER_GAME = 20
BATCH_GAMES = 5_000  # 100,000 deals per batch
IMPORT_TARGET = 60.0
MEDIAN_TARGET = 0.020
P99_TARGET = 0.050
CLIENTS = 8
REQUESTS_PER_CLIENT = 250
API_TIME_LIMIT = 60.0
MARK_CITY = "Бенчмарк-Преф"
SEED = 2026


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL", "")
    return url if url.startswith(("postgres://", "postgresql://")) and "bench_preferans" in url else DEFAULT_URL


def _ensure_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin_url = urlunsplit((parts.scheme, parts.netloc, "/postgres", parts.query, ""))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _setup() -> str:
    """Set Django up on the bench database, or reuse a PostgreSQL connection another bench module configured."""
    from django.apps import apps

    if not apps.ready:
        url = _database_url()
        _ensure_database(url)
        os.environ["DATABASE_URL"] = url
        os.environ["DJANGO_SETTINGS_MODULE"] = "federation.settings.test"
        import django

        django.setup()
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        raise RuntimeError("bench_preferans_site measures PostgreSQL; Django is set up with " + connection.vendor)
    call_command("migrate", verbosity=0)
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    if db.get("PASSWORD"):
        url = url.replace(f"{db['USER']}@", f"{db['USER']}:{db['PASSWORD']}@")
    return url


def _players() -> list[int]:
    from federation.models import Player, normalize_name

    ids = list(Player.objects.filter(city=MARK_CITY).order_by("pk").values_list("pk", flat=True))
    if len(ids) == PLAYERS:
        return ids
    Player.objects.filter(city=MARK_CITY).delete()
    players = []
    for n in range(PLAYERS):
        player = Player(last_name=f"Игроков{n}", first_name="Пётр", last_name_latin=f"Igrokov{n}", city=MARK_CITY)
        player.search_name = normalize_name(f"{player.last_name} {player.first_name} {player.last_name_latin}")
        players.append(player)
    return [p.pk for p in Player.objects.bulk_create(players, batch_size=2000)]


def _reset() -> None:
    from django.db import connection

    from tournaments.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat

    tables = [m._meta.db_table for m in (DealResult, Deal, Seat, Game, PreferansRating, GameServer)]
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")


def _batches(players: list[int]):
    """Batches of games whose deals interleave, as games played at the same time do."""
    from tournaments.preferans.services import BulkDeal, BulkGame

    rng = random.Random(SEED)
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    for first in range(0, GAMES, BATCH_GAMES):
        games, per_game = [], []
        for number in range(first, first + BATCH_GAMES):
            size = rng.choice((3, 3, 4))
            table = tuple(rng.sample(players, size))
            games.append(
                BulkGame(key=f"b{number}", player_ids=table, played_at=start + datetime.timedelta(minutes=number))
            )
            deals = []
            for _ in range(DEALS_PER_GAME):
                whists = [rng.randint(-30, 30) for _ in range(size - 1)]
                whists.append(-sum(whists))
                deals.append(BulkDeal(game=f"b{number}", whists=dict(zip(table, whists, strict=True))))
            per_game.append(deals)
        ordered = []
        for round_ in range(DEALS_PER_GAME):
            ordered.extend(deals[round_] for deals in per_game)
        yield games, ordered


def _import(players: list[int]) -> tuple[float, int]:
    from tournaments.preferans.services import deals_import_bulk

    seconds = 0.0
    count = 0
    for games, deals in _batches(players):
        started = time.perf_counter()
        report = deals_import_bulk(games=games, deals=deals)
        seconds += time.perf_counter() - started
        count += report.deals
    return seconds, count


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(url: str, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings.test",
        "DATABASE_URL": url,
        "DJANGO_CONN_MAX_AGE": "600",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    command = [sys.executable, "-m", "gunicorn", "federation.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", "4", "--worker-class", "gthread", "--threads", "2", "--keep-alive", "30"]
    command += ["--log-level", "warning"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("gunicorn exited: " + (server.stderr.read() if server.stderr else ""))
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not start within 30 s")


def _api(url: str, players: list[int]) -> tuple[list[float], int, int]:
    from tournaments.preferans.services import game_create, game_server_create

    server, token = game_server_create(name=f"bench-{time.time_ns()}")
    rng = random.Random(SEED + 1)
    tables = []
    for client in range(CLIENTS):
        table = rng.sample(players, 3)
        game, _ = game_create(server=server, external_id=f"api-{client}", player_ids=table)
        tables.append((game.pk, table))
    port = _free_port()
    process = _serve(url, port)
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    errors = [0] * CLIENTS
    stop_at = time.monotonic() + API_TIME_LIMIT
    barrier = threading.Barrier(CLIENTS)

    def client(index: int) -> None:
        game, table = tables[index]
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        local = random.Random(index)
        # Warm-up: a connection and a worker's first request are not what a running server serves.
        warm = {"id": f"w{index}", "whists": {str(p): 0 for p in table}}
        conn.request("POST", f"/api/preferans/games/{game}/deals/", json.dumps(warm), headers)
        conn.getresponse().read()
        barrier.wait()
        try:
            for n in range(REQUESTS_PER_CLIENT):
                if time.monotonic() > stop_at:
                    break
                whists = [local.randint(-20, 20), local.randint(-20, 20)]
                whists.append(-sum(whists))
                body = json.dumps({"id": f"c{index}-{n}", "whists": dict(zip(map(str, table), whists, strict=True))})
                started = time.perf_counter()
                conn.request("POST", f"/api/preferans/games/{game}/deals/", body, headers)
                response = conn.getresponse()
                response.read()
                latencies[index].append(time.perf_counter() - started)
                if response.status != 201:
                    errors[index] += 1
        finally:
            conn.close()

    try:
        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    flat = sorted(x for values in latencies for x in values)
    return flat, sum(errors), len(flat)


def run() -> list[dict]:
    url = _setup()
    players = _players()
    _reset()
    from django.db import connection

    seconds, count = _import(players)
    from tournaments.preferans.models import DealResult, PreferansRating

    pro = PreferansRating.objects.filter(league="pro").count()
    results = DealResult.objects.count()
    rows = [
        {
            "name": "preferans site: import 1,000,000 deals (PostgreSQL)",
            "seconds": round(seconds, 3),
            "target": IMPORT_TARGET,
            "detail": f"{count} deals, {results} changes, batches of {BATCH_GAMES * DEALS_PER_GAME}, {pro} in Pro",
        }
    ]
    connection.close()
    latencies, errors, count = _api(url, players)
    median = statistics.median(latencies) if latencies else float("nan")
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else float("nan")
    detail = f"{count} deals by {CLIENTS} clients, {errors} errors, gunicorn 4x2 threads"
    rows.append(
        {
            "name": "preferans API: one deal, median",
            "seconds": round(median, 4),
            "target": MEDIAN_TARGET,
            "detail": detail,
        }
    )
    rows.append(
        {
            "name": "preferans API: one deal, p99",
            "seconds": round(p99, 4) if not errors else float("nan"),
            "target": P99_TARGET,
            "detail": detail,
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
