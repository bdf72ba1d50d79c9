"""Preferans on PostgreSQL: a million deals imported in batches, and deals posted through the API under load.

Targets: importing one million deals of 3 and 4 players in under 120 s in batches, with the privileges of an
ordinary role (issue 12; every foreign key stays on and PostgreSQL checks each row); one deal posted through the
JSON API in under 20 ms at the median and 50 ms at the 99th percentile with 8 concurrent clients on loopback, with no
errors (issue 7). The import runs ``deals_import_bulk`` (the engine's ``DealRun`` deal after deal, each deal's rows
streamed to binary COPY through ``ratings.bulk`` while the next are rated) in batches of 100,000 deals, each batch one
transaction.
The API is served by gunicorn in a subprocess (4 sync workers, the README's production command; 2 workers x 4
threads measured about 10% slower at the median) on a free local port against the same database; wrk (8 connections,
2 threads, a Lua script giving every request a new server deal id and valid whists for one of 400 games of 3) posts
single deals to the game's address; without wrk, eight Python threads do, and the row's detail says so. The
machine's speed varies by a third from one run to the next, so the API is measured in three 10-second runs: the rows
give the median of the three runs' medians and of their 99th percentiles, and the detail lists every run.

    python -m bench.bench_preferans_site
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from io import StringIO
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/bench_preferans_site"
ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 5_000
GAMES = 50_000
DEALS_PER_GAME = 20
BATCH_GAMES = 5_000  # 100,000 deals per batch
IMPORT_TARGET = 120.0
MEDIAN_TARGET = 0.020
P99_TARGET = 0.050
CLIENTS = 8
WRK_THREADS = 2
TABLES = 400  # games of 3 that the API deals go to, 1,200 different players: few requests wait for the same rows
API_SECONDS = 10
WARM_SECONDS = 5
API_CAP = 6_000  # requests in all, at most
GUNICORN = ("--workers", "4", "--worker-class", "sync")
API_RUNS = 3
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
    from federation.models import Player

    ids = list(Player.objects.filter(city=MARK_CITY).order_by("pk").values_list("pk", flat=True))
    if len(ids) == PLAYERS:
        return ids
    Player.objects.filter(city=MARK_CITY).delete()
    players = []
    for n in range(PLAYERS):
        player = Player(last_name=f"Игроков{n}", first_name="Пётр", last_name_latin=f"Igrokov{n}", city=MARK_CITY)
        player.fill_search_name()
        players.append(player)
    return [p.pk for p in Player.objects.bulk_create(players, batch_size=2000)]


def _reset() -> None:
    from django.db import connection

    from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat

    tables = [m._meta.db_table for m in (DealResult, Deal, Seat, Game, PreferansRating, GameServer)]
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")


def _batches(players: list[int]):
    """Batches of games whose deals interleave, as games played at the same time do."""
    from ratings.preferans.services import BulkDeal, BulkGame

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
    from ratings.preferans.services import deals_import_bulk

    seconds = 0.0
    count = 0
    for games, deals in _batches(players):
        started = time.perf_counter()
        report = deals_import_bulk(games=games, deals=deals)
        seconds += time.perf_counter() - started
        count += report.deals
    return seconds, count


def _import_file(players: list[int]) -> tuple[float, int, str]:
    """The same million deals as a CSV file (the admin's columns, a deal id per deal) through
    ``manage.py preferans_import``: reading and checking the whole file, then the batches."""
    from django.core.management import call_command
    from django.utils import translation

    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, encoding="utf-8") as handle:
        handle.write("game;date;deal;player_id;whists\n")
        for games, deals in _batches(players):
            day = {game.key: game.played_at.date().isoformat() for game in games}
            numbers: dict[str, int] = {}
            for deal in deals:
                number = numbers[deal.game] = numbers.get(deal.game, 0) + 1
                handle.writelines(f"{deal.game};{day[deal.game]};{number};{p};{w}\n" for p, w in deal.whists.items())
    size = os.path.getsize(handle.name)
    out = StringIO()
    try:
        started = time.perf_counter()
        with translation.override("en"):
            call_command("preferans_import", handle.name, "--batch", str(BATCH_GAMES * DEALS_PER_GAME), stdout=out)
        seconds = time.perf_counter() - started
    finally:
        os.unlink(handle.name)
    checked = next(line for line in out.getvalue().splitlines() if " s; " in line)
    return seconds, size, checked


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(url: str, port: int, workers: tuple[str, ...] = GUNICORN) -> subprocess.Popen:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "federation.settings.test",
        "DATABASE_URL": url,
        "DJANGO_CONN_MAX_AGE": "600",
        "DJANGO_LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    command = [sys.executable, "-m", "gunicorn", "federation.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += [*workers, "--log-level", "warning"]
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


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


# wrk's script: every request a new server deal id (thread number + counter) and valid whists for one of the games,
# the games taken in turn from a per-thread offset; non-2xx answers are counted; each thread stops after its share.
WRK_SCRIPT = """
local tables = {%(tables)s}
local token = "%(token)s"
local prefix = "%(prefix)s"
local cap = %(cap)d
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

function init(args)
  sent = 0
  errors = 0
  responses = 0
  math.randomseed(1000 + id)
  wrk.headers["Authorization"] = "Bearer " .. token
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  sent = sent + 1
  local t = tables[((id * 7919 + sent) %% #tables) + 1]
  local a, b = math.random(-20, 20), math.random(-20, 20)
  local body = string.format('{"id": "%%s-%%d-%%d", "whists": {"%%d": %%d, "%%d": %%d, "%%d": %%d}}',
    prefix, id, sent, t[2], a, t[3], b, t[4], -a - b)
  return wrk.format("POST", "/api/preferans/games/" .. t[1] .. "/deals/", nil, body)
end

function response(status, headers, body)
  responses = responses + 1
  if status < 200 or status > 299 then
    errors = errors + 1
  end
  if responses >= cap then
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local errs = 0
  for _, thread in ipairs(threads) do
    errs = errs + thread:get("errors")
  end
  io.write(string.format("RESULT %%d %%d %%d %%d %%d %%d\\n", summary.requests, errs,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(99), summary.errors.status))
end
"""


def _tables(players: list[int]):
    from ratings.preferans.services import game_create, game_server_create

    server, token = game_server_create(name=f"bench-{time.time_ns()}")
    rng = random.Random(SEED + 1)
    shuffled = rng.sample(players, TABLES * 3)
    tables = []
    for n in range(TABLES):
        table = shuffled[3 * n : 3 * n + 3]
        game, _ = game_create(server=server, external_id=f"api-{n}", player_ids=table)
        tables.append((game.pk, table))
    return token, tables


def _wrk(port: int, token: str, tables, prefix: str, seconds: int, cap: int) -> dict:
    script = WRK_SCRIPT % {
        "tables": ", ".join("{" + ", ".join(map(str, (pk, *table))) + "}" for pk, table in tables),
        "token": token,
        "prefix": prefix,
        "cap": cap,
    }
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as handle:
        handle.write(script)
    try:
        command = ["wrk", f"-t{WRK_THREADS}", f"-c{CLIENTS}", f"-d{seconds}s", "--latency", "--timeout", "10s"]
        command += ["-s", handle.name, f"http://127.0.0.1:{port}/"]
        output = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60, check=True).stdout
    finally:
        os.unlink(handle.name)
    line = next(x for x in output.splitlines() if x.startswith("RESULT "))
    requests, status_errors, socket_errors, median, p99, _non2xx = (int(x) for x in line.split()[1:])
    return {
        "count": requests,
        "errors": status_errors + socket_errors,
        "median": median / 1e6,
        "p99": p99 / 1e6,
    }


def _python_client(port: int, token: str, tables) -> dict:
    """The fallback when wrk is not installed: threads with keep-alive ``http.client`` connections."""
    latencies: list[list[float]] = [[] for _ in range(CLIENTS)]
    errors = [0] * CLIENTS
    stop_at = time.monotonic() + API_SECONDS
    barrier = threading.Barrier(CLIENTS)

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        local = random.Random(index)
        mine = tables[index::CLIENTS]
        game, table = mine[0]
        warm = {"id": f"w{index}", "whists": {str(p): 0 for p in table}}
        conn.request("POST", f"/api/preferans/games/{game}/deals/", json.dumps(warm), headers)
        conn.getresponse().read()
        barrier.wait()
        try:
            for n in range(API_CAP // CLIENTS):
                if time.monotonic() > stop_at:
                    break
                game, table = mine[n % len(mine)]
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

    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    flat = sorted(x for values in latencies for x in values)
    return {
        "count": len(flat),
        "errors": sum(errors),
        "median": statistics.median(flat) if flat else float("nan"),
        "p99": flat[min(len(flat) - 1, int(len(flat) * 0.99))] if flat else float("nan"),
    }


def _api(url: str, players: list[int], workers: tuple[str, ...] = GUNICORN) -> dict:
    token, tables = _tables(players)
    port = _free_port()
    process = _serve(url, port, workers)
    try:
        if shutil.which("wrk"):
            # Warm-up: every worker's first requests (connections, imports) are not what a running server serves.
            _wrk(port, token, tables, "warm", WARM_SECONDS, API_CAP)
            runs = [_wrk(port, token, tables, f"run{n}", API_SECONDS, API_CAP // WRK_THREADS) for n in range(API_RUNS)]
            stats = {
                "count": sum(run["count"] for run in runs),
                "median": statistics.median(run["median"] for run in runs),
                "p99": statistics.median(run["p99"] for run in runs),
            }
            each = "; ".join(
                f"{run['median'] * 1000:.1f}/{run['p99'] * 1000:.1f} ms ({run['count']} deals, {run['errors']} errors)"
                for run in runs
            )
            stats["client"] = f"wrk -t{WRK_THREADS} -c{CLIENTS} -d{API_SECONDS}s, medians of {API_RUNS} runs: {each}"
            stats["errors"] = sum(run["errors"] for run in runs)
        else:
            stats = _python_client(port, token, tables)
            stats["client"] = f"wrk not installed: Python client, {CLIENTS} threads"
    finally:
        _stop(process)
    return stats


def run() -> list[dict]:
    url = _setup()
    players = _players()
    _reset()
    from django.db import connection

    seconds, count = _import(players)
    from ratings.preferans.models import Deal, DealResult, Game, PreferansRating

    pro = PreferansRating.objects.filter(league="pro").count()
    results = DealResult.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('is_superuser')")
        role = "as a superuser" if cursor.fetchone()[0] == "on" else "as an ordinary role"
    keys = f"{role}; the same path for any role: every foreign key checked by PostgreSQL"
    rows = [
        {
            "name": "preferans site: import 1,000,000 deals (PostgreSQL)",
            "seconds": round(seconds, 3),
            "target": IMPORT_TARGET,
            "detail": f"{count} deals, {results} changes, batches of {BATCH_GAMES * DEALS_PER_GAME}, {pro} in Pro, "
            + keys,
        }
    ]
    _reset()
    file_seconds, size, checked = _import_file(players)
    rows.append(
        {
            "name": "preferans site: the same from a CSV file (manage.py preferans_import)",
            "seconds": round(file_seconds, 3),
            "target": 0,
            "detail": f"{size / 1e6:.0f} MB, reading and checking the whole file, then the batches: {checked}",
        }
    )
    # The API is measured on its own: after a bulk load the tables are vacuumed and analysed (as PostgreSQL's manual
    # advises; otherwise autovacuum does it during the API runs) and the dirty pages written out, so the
    # deals do not share the machine with the aftermath of a million deals (timed apart, in the detail).
    started = time.perf_counter()
    from federation.models import Player
    from ratings.preferans.models import GameServer, Seat

    # Every table the import wrote or locked: this machine's PostgreSQL runs without autovacuum, and a table never
    # analysed (the seats, the players) gave the API's lock statement sequential scans: 29 ms at the median, not 16.
    tables = [m._meta.db_table for m in (DealResult, Deal, Seat, Game, GameServer, PreferansRating, Player)]
    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE) " + ", ".join(tables))
        cursor.execute("CHECKPOINT")
    settle = time.perf_counter() - started
    rows[0]["detail"] += f"; then VACUUM (ANALYZE) + CHECKPOINT {settle:.1f} s (not counted)"
    connection.close()
    stats = _api(url, players)
    detail = (
        f"{stats['count']} deals by {CLIENTS} clients ({stats['client']}), {TABLES} tables of 3, "
        f"{stats['errors']} errors, gunicorn {' '.join(GUNICORN)}"
    )
    rows.append(
        {
            "name": "preferans API: one deal, median",
            "seconds": round(stats["median"], 4),
            "target": MEDIAN_TARGET,
            "detail": detail,
        }
    )
    rows.append(
        {
            "name": "preferans API: one deal, p99",
            "seconds": round(stats["p99"], 4) if not stats["errors"] else float("nan"),
            "target": P99_TARGET,
            "detail": detail,
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
