"""Gorbunov benchmark: ten years of weekly rating, 20,000 players, 300,000 results (target: under 10 s).

The data is made up, deterministically, from ``random.Random(seed)``: tournaments of 4 to 24 players spread over
520 rating weeks, with the K levels and formats of `rules/gorbunov.md`. Only the rating is timed, not the data.
"""

from __future__ import annotations

import datetime as dt
import random
import time

from ratings.engines.gorbunov import GorbunovSettings, Placement, RatedTournament, rate_season

PLAYERS = 20_000
RESULTS = 300_000
WEEKS = 520
TARGET_SECONDS = 10.0
K_LEVELS = (1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 8, 16)
FORMATS = ("constructed", "constructed", "sealed", "draft", "combined")


def make_tournaments(seed: int = 2026) -> list[RatedTournament]:
    rng = random.Random(seed)
    players = [f"p{i:05d}" for i in range(PLAYERS)]
    first_monday = dt.date(2016, 1, 4)
    tournaments = []
    made = 0
    while made < RESULTS:
        size = min(rng.randint(4, 24), RESULTS - made) if RESULTS - made >= 4 else 4
        field = rng.sample(players, size)
        day = first_monday + dt.timedelta(days=rng.randrange(WEEKS * 7))
        tournaments.append(
            RatedTournament(
                id=f"t{len(tournaments)}",
                date=day,
                k=rng.choice(K_LEVELS),
                format=rng.choice(FORMATS),
                results=tuple(Placement(player, place) for place, player in enumerate(field, start=1)),
            )
        )
        made += size
    tournaments.sort(key=lambda t: t.date)
    return tournaments


def run() -> list[dict]:
    tournaments = make_tournaments()
    results = sum(len(t.results) for t in tournaments)
    settings = GorbunovSettings(sqrt_rule=True)
    started = time.perf_counter()
    season = rate_season({}, tournaments, settings)
    seconds = time.perf_counter() - started
    rows = [
        {
            "name": "gorbunov: ten years of weekly seasons",
            "seconds": round(seconds, 3),
            "target": TARGET_SECONDS,
            "detail": (
                f"{len(season.weeks)} weeks, {len(tournaments)} tournaments, {results} results, "
                f"{len(season.ratings)} players"
            ),
        }
    ]
    sample = [c for _, c in zip(range(10_000), season.changes, strict=False)]
    started = time.perf_counter()
    for change in sample:
        change.explanation  # noqa: B018 - built on demand, timed here
    seconds = time.perf_counter() - started
    rows.append(
        {
            "name": "gorbunov: explanations on demand",
            "seconds": round(seconds, 3),
            "target": TARGET_SECONDS * len(sample) / RESULTS,
            "detail": f"{len(sample)} explanations (English and Russian)",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
