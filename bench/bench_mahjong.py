"""Benchmarks of the mahjong engine (`rules/mahjong.md`): a whole list as of one date, and part A for one player.

Deterministic data from ``random.Random(seed)``. Run as ``python -m bench.bench_mahjong``; ``run()`` returns the rows
for a common bench runner.
"""

from __future__ import annotations

import random
import time
from datetime import date, timedelta

from ratings.engines.mahjong import (
    RR,
    CutoffStage,
    Placement,
    PlayerInfo,
    RatedTournament,
    best_subset,
    compute_list,
    delta_cents,
    part_a_size,
)

AS_OF = date(2025, 6, 1)
LIST_TARGET_SECONDS = 2.0
PART_A_TARGET_SECONDS = 0.005


def _tournaments(rng: random.Random, players: list[str], count: int) -> list[RatedTournament]:
    """``count`` RR tournaments within the two-year window, one in ten with a cut-off, 16..120 players each."""
    tournaments = []
    for index in range(count):
        size = rng.randint(16, 120)
        entrants = rng.sample(players, size - rng.randint(0, 3))  # a few participants without a profile
        end = AS_OF - timedelta(days=rng.randint(0, 729))
        if index % 10 == 0:
            finalists = size // 4
            stages = (CutoffStage(8), CutoffStage(4, finalists))
            results = tuple(
                Placement(player, place, 12 if place <= finalists else 8) for place, player in enumerate(entrants, 1)
            )
            hanchans = 12
        else:
            stages = ()
            hanchans = rng.randint(4, 24)
            results = tuple(Placement(player, place) for place, player in enumerate(entrants, 1))
        tournaments.append(
            RatedTournament(
                id=f"t{index}",
                end_date=end,
                players=size,
                hanchans=hanchans,
                country="RU",
                results=results,
                stages=stages,
                accredited=True,
                open=True,
            )
        )
    return tournaments


def bench_list(seed: int = 1, players: int = 5000, tournaments: int = 1000) -> dict:
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(players)]
    foreigners = [PlayerInfo(player, "FR") for player in rng.sample(ids, players // 20)]
    data = _tournaments(rng, ids, tournaments)
    results = sum(len(t.results) for t in data)
    start = time.perf_counter()
    rating_list = compute_list(settings=RR, as_of=AS_OF, tournaments=data, players=foreigners)
    seconds = time.perf_counter() - start
    return {
        "name": "mahjong: RR list as of one date",
        "seconds": seconds,
        "target": LIST_TARGET_SECONDS,
        "detail": f"{players} players, {tournaments} tournaments, {results} results, {len(rating_list.entries)} listed",
    }


def bench_part_a(seed: int = 2, tournaments: int = 60, repeats: int = 200) -> dict:
    rng = random.Random(seed)
    cases = []
    for _ in range(repeats):
        deltas, weights = [], []
        for _ in range(tournaments):
            w = rng.randint(60, 520)
            a = rng.choice([10_000, 8571, 7143, 5714, 4286, 2857, 1429])
            size = rng.randint(16, 200)
            deltas.append(delta_cents(w, size, rng.randint(1, size), a))
            weights.append(w * a)
        cases.append((deltas, weights))
    k = part_a_size(tournaments)
    start = time.perf_counter()
    for deltas, weights in cases:
        best_subset(deltas, weights, k)
    seconds = (time.perf_counter() - start) / repeats
    return {
        "name": "mahjong: part A, one player",
        "seconds": seconds,
        "target": PART_A_TARGET_SECONDS,
        "detail": f"{tournaments} tournaments, best {k}, mean of {repeats} players",
    }


def run() -> list[dict]:
    return [bench_list(), bench_part_a()]


if __name__ == "__main__":
    for row in run():
        verdict = "ok" if row["seconds"] <= row["target"] else "SLOW"
        milliseconds, target = row["seconds"] * 1000, row["target"] * 1000
        print(f"{row['name']}: {milliseconds:.2f} ms (target {target:.0f} ms, {verdict}); {row['detail']}")
