"""The game servers' deal API against an earlier commit of the site, both measured in the same run (issue 25).

Target: at least 20% more deals per second than the base commit (``BENCH_BASE_COMMIT``, default ``5c29147``: main
when issue 25 was filed, with the LISTEN/NOTIFY triggers and the hand-compiled statements) at 8 concurrent clients.

The base commit's tree is taken out with ``git archive`` into a temporary folder; each side gets its own PostgreSQL
database, migrated by its own code, with the same players and 400 games of 3 made by its own
``bench.bench_preferans_site`` (``_players``, ``_tables``), then ``VACUUM ANALYZE``. Both are served by gunicorn (4
sync workers, ``federation.settings.test`` as the preferans benchmark does) from their own folders with this venv, and
wrk (8 connections, the preferans benchmark's script: a new server deal id and valid whists each request) posts
single deals to the games' addresses: after a warm-up of each, 10-second runs alternate this, base, this, base, ... so
both see the same machine; each side's figure is the median of its runs' deals per second.

    python -m bench deal_api
"""

from __future__ import annotations

import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from bench import bench_preferans_site as preferans

ROOT = Path(__file__).resolve().parent.parent
BASE = os.environ.get("BENCH_BASE_COMMIT", "5c29147")
SECONDS = 10
RUNS = 3
TARGET_GAIN = 1.20

#: Run in each side's folder: its own code migrates its database and makes the players and the games (the
#: database's name must hold "bench_preferans", which both sides' ``_database_url`` insist on).
PREPARE = """
import json, os, sys
sys.path.insert(0, os.getcwd())
from bench import bench_preferans_site as b
b.PLAYERS = 2_000
url = b._setup()
players = b._players()
b._reset()
token, tables = b._tables(players)
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("VACUUM ANALYZE")
print("PREPARED " + json.dumps({"url": url, "token": token, "tables": tables}))
"""


def _prepare(folder: Path, database: str) -> dict:
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{database}",
        "DJANGO_SETTINGS_MODULE": "federation.settings.test",
    }
    done = subprocess.run(
        [sys.executable, "-c", PREPARE], cwd=folder, env=env, capture_output=True, text=True, timeout=900
    )
    line = next((x for x in done.stdout.splitlines() if x.startswith("PREPARED ")), None)
    if done.returncode or line is None:
        raise RuntimeError(f"preparing {folder} failed: {done.stderr[-2000:]}")
    return json.loads(line.removeprefix("PREPARED "))


def _serve(folder: Path, url: str) -> tuple[subprocess.Popen, int]:
    port = preferans._free_port()
    saved = preferans.ROOT
    preferans.ROOT = folder  # gunicorn runs in the side's own folder
    try:
        return preferans._serve(url, port), port
    finally:
        preferans.ROOT = saved


def _base_tree(into: Path) -> None:
    archive = subprocess.run(["git", "archive", BASE], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def run() -> list[dict]:
    if not shutil.which("wrk"):
        raise RuntimeError("the deal API comparison needs wrk (make bench installs it as root)")
    with tempfile.TemporaryDirectory() as folder:
        base_folder = Path(folder) / "base"
        _base_tree(base_folder)
        sides = {
            "this": _prepare(ROOT, "bench_preferans_api_this"),
            "base": _prepare(base_folder, "bench_preferans_api_base"),
        }
        folders = {"this": ROOT, "base": base_folder}
        servers = {}
        try:
            for name, side in sides.items():
                servers[name] = _serve(folders[name], side["url"])
            rates: dict[str, list[float]] = {name: [] for name in sides}
            errors = dict.fromkeys(sides, 0)
            for name, side in sides.items():  # warm-up: each worker's first requests
                preferans._wrk(servers[name][1], side["token"], side["tables"], "warm", 5, 10**9)
            for n in range(RUNS):
                for name, side in sides.items():
                    stats = preferans._wrk(servers[name][1], side["token"], side["tables"], f"run{n}", SECONDS, 10**9)
                    rates[name].append(stats["count"] / SECONDS)
                    errors[name] += stats["errors"]
        finally:
            for process, _port in servers.values():
                preferans._stop(process)
    this, base = statistics.median(rates["this"]), statistics.median(rates["base"])
    each = "; ".join(f"{name}: " + ", ".join(f"{r:.0f}" for r in rates[name]) for name in rates)
    detail = (
        f"this commit {this:.0f} deals/s, base {BASE} {base:.0f} deals/s ({this / base:.2f}x); runs of {SECONDS} s, "
        f"deals/s {each}; errors this {errors['this']}, base {errors['base']}; wrk -c{preferans.CLIENTS}"
    )
    return [
        {
            # A ratio that must be small enough, as every row of the table: base's deals/s over this commit's.
            "name": f"deal API: base {BASE} deals/s / this commit's (target: 20% more)",
            "seconds": round(base / this, 3),
            "target": round(1 / TARGET_GAIN, 3),
            "detail": detail,
        }
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
