"""Preferans benchmark: one million deals at tables of 3 and 4, in one bulk run (target: under 20 s).

The data is made up, deterministically, from ``random.Random(seed)``: 50,000 games of 20 deals among 5,000 players
and three bots, whists summing to zero. Only the rating is timed, not the making of the data.
"""

from __future__ import annotations

import random
import time

from ratings.engines.preferans import DealWhists, rate_deals

PLAYERS = 5_000
GAMES = 50_000
DEALS_PER_GAME = 20
TARGET_SECONDS = 20.0
#: The per-deal path of the site (records and explanations): 20,000 deals, 100 microseconds a deal.
SERVICE_TARGET_SECONDS = 2.0
BOTS = {"bot-easy": 1400.0, "bot-normal": 1800.0, "bot-hard": 2400.0}


def make_deals(seed: int = 2026) -> list[DealWhists]:
    rng = random.Random(seed)
    humans = [f"p{i:04d}" for i in range(PLAYERS)]
    bots = list(BOTS)
    deals = []
    for game in range(GAMES):
        size = rng.choice((3, 3, 4))
        table = [*rng.sample(humans, size - 1), rng.choice(bots) if rng.random() < 0.2 else rng.choice(humans)]
        if len(set(table)) < size:
            table = rng.sample(humans, size)
        for _ in range(DEALS_PER_GAME):
            whists = [rng.randint(-30, 30) for _ in range(size - 1)]
            whists.append(-sum(whists))
            deals.append(DealWhists(game=f"g{game}", whists=dict(zip(table, whists, strict=True))))
    return deals


def run() -> list[dict]:
    deals = make_deals()
    started = time.perf_counter()
    ledger = rate_deals(deals, bots=BOTS)
    seconds = time.perf_counter() - started
    pro = sum(1 for state in ledger.players.values() if state.league == "pro" and not state.is_bot)
    rows = [
        {
            "name": "preferans: one million deals, bulk",
            "seconds": round(seconds, 3),
            "target": TARGET_SECONDS,
            "detail": f"{len(deals)} deals of 3 and 4 players, {len(ledger.players)} players, {pro} humans in Pro",
        }
    ]
    sample = deals[:20_000]
    started = time.perf_counter()
    recorded = rate_deals(sample, bots=BOTS, record=True)
    for outcome in recorded.outcomes or ():
        for change in outcome.changes:
            change.explanation  # noqa: B018 - built on demand, timed here
    seconds = time.perf_counter() - started
    rows.append(
        {
            "name": "preferans: deals with every change and explanation",
            "seconds": round(seconds, 3),
            "target": SERVICE_TARGET_SECONDS,
            "detail": f"{len(sample)} deals, each player's change recorded and explained",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
