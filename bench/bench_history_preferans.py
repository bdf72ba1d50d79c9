"""A preferans federation moves in (issue 14): a million deals through ``import_history``, against a bare COPY.

Targets: a million deals (5,000 players and 3 bots, with 2,000 starting ratings, peaks and leagues; games of 3 and
4, a player leaving some of them early) imported within the bulk import's own target
(``bench_preferans_site.IMPORT_TARGET``, 120 s), and within 3x of a bare ``COPY`` of the same rows measured in the
same run (``bench_history_import._bare_copy``: every row the import wrote, players, bots' levels, starting
ratings, rating rows, games, seats, deals and results, read out, the tables emptied, and written back by ``COPY`` in
one transaction). The import is timed from the parsed document (reading the file and ``json.loads`` are the same
for any loader) to the stored deals with the tables' statistics refreshed.

Storage (issue 29): the database beyond an empty one (``bench._storage``: after ``VACUUM``, before the COPY rewrites
the tables); the detail gives the ratings' bytes per player-year (``PreferansRating`` and the ``DealResult`` rows,
which keep each player's rating before and after every deal beside the whists) and the input's MB apart (players,
bots' levels and their history, starting ratings, games, seats, deals).

    python -m bench history_preferans          # BENCH_PREFERANS_DEALS=50000 for a quick run
"""

from __future__ import annotations

import datetime as dt
import os
import random
import time

from bench import _storage
from bench._postgres import database_url, ensure_database, setup_django
from bench.bench_history_import import _bare_copy, days_covered
from bench.bench_preferans_site import IMPORT_TARGET

NAME = "bench_history_preferans"
DEALS = int(os.environ.get("BENCH_PREFERANS_DEALS", "1000000"))
PLAYERS = 5_000
STARTING = 2_000
DEALS_PER_GAME = 20
RATIO_TARGET = 3.0
SEED = 1414


def preferans_document(rng: random.Random, deals: int = DEALS) -> dict:
    ids = [f"p{i:04d}" for i in range(PLAYERS)]
    bots = {"bot-easy": 1400.0, "bot-normal": 1800.0, "bot-hard": 2400.0}
    starting = rng.sample(ids, STARTING)
    ratings = {p: round(rng.uniform(600, 2400), 2) for p in starting}
    max_ratings = {p: round(ratings[p] + rng.choice((0, 50, 300)), 2) for p in starting[:1000]}
    leagues = {p: "pro" for p in starting[1000:1200]}
    out = []
    game = 0
    day = 0
    while len(out) < deals:
        table = rng.sample(ids, rng.choice((3, 4)))
        if rng.random() < 0.05:
            table[0] = rng.choice(list(bots))
        seated = list(table)
        for number in range(min(DEALS_PER_GAME, deals - len(out))):
            if number and len(seated) > 2 and rng.random() < 0.01:
                seated.pop()  # a player leaves the game
            whists = [rng.randint(-30, 30) for _ in seated[1:]]
            deal = {"game": f"g{game:06d}", "whists": dict(zip(seated, [-sum(whists), *whists], strict=True))}
            if not out or rng.random() < 0.001:
                day += 1
                deal["date"] = _date(day)
            out.append(deal)
        game += 1
    return {
        "system": "preferans",
        "ratings_date": "2019-12-31",
        "ratings": ratings,
        "max_ratings": max_ratings,
        "leagues": leagues,
        "bots": bots,
        "deals": out,
    }


def _date(day: int) -> str:
    return (dt.date(2020, 1, 1) + dt.timedelta(days=day)).isoformat()


def run() -> list[dict]:
    url = database_url(NAME)
    ensure_database(url, recreate=True)
    setup_django(NAME)
    from federation.models import BotLevel, Player
    from ratings.history import history_import
    from ratings.models import StartingRating
    from ratings.preferans.models import Deal, DealResult, Game, PreferansRating, Seat

    doc = preferans_document(random.Random(SEED))
    results = sum(len(deal["whists"]) for deal in doc["deals"])
    empty = _storage.measure()
    started = time.perf_counter()
    report = history_import(doc=doc)
    seconds = time.perf_counter() - started
    found = _storage.storage(
        empty, _storage.measure(), inputs=[BotLevel, BotLevel.history.model, Player, StartingRating, Game, Seat, Deal]
    )
    days = days_covered(deal["date"] for deal in doc["deals"] if "date" in deal)
    tables = [
        m._meta.db_table for m in (BotLevel, Player, StartingRating, PreferansRating, Game, Seat, Deal, DealResult)
    ]
    baseline, copied = _bare_copy(tables)
    detail = (
        f"{len(doc['deals'])} deals ({results} results) of {report.created.get('games', 0)} games, {PLAYERS} players "
        f"and {len(doc['bots'])} bots, {len(doc['ratings'])} starting ratings"
    )
    return [
        {
            "name": "history import: preferans, a million deals",
            "seconds": round(seconds, 3),
            "target": IMPORT_TARGET,
            "detail": detail,
        },
        {
            "name": "history import: preferans / bare COPY ratio",
            "seconds": round(seconds / baseline, 3),
            "target": RATIO_TARGET,
            "detail": f"COPY of the same {copied} rows: {baseline:.2f} s; import {seconds:.2f} s (ratio, not s)",
        },
        _storage.system_row("storage: preferans", found, players=PLAYERS + len(doc["bots"]), days=days),
    ]


if __name__ == "__main__":
    for row in run():
        print(row)
