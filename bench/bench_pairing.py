"""Timing of the self-handicap pairing (`tournaments/pairing/`) on realistic fields.

Fields are drawn from ``random.Random(seed)``: ratings spread over 0..2700 on the tournament scale, a few percent
of players absent each round, earlier rounds paired by the engine itself and decided by a coin (handicap makes every
game even). The timed step is the next round's pairing; the replay and the standings are timed beside it.
Targets (the brief): 500 players under 2 s, 1,000 under 10 s.
"""

from __future__ import annotations

import random
import time

from tournaments.pairing import ByeResult, Entrant, GameResult, Options, pair_round, replay, standings


def _field(rng: random.Random, players: int, rounds: int) -> list[Entrant]:
    entrants = []
    for i in range(players):
        absent = frozenset(r for r in range(1, rounds + 1) if rng.random() < 0.03)
        entrants.append(Entrant(id=f"p{i:04d}", rating=rng.randint(0, 2700), name=f"Player {i:04d}", absent=absent))
    return entrants


def _played(
    options: Options, entrants: list[Entrant], played: int, rng: random.Random
) -> list[list[GameResult | ByeResult]]:
    games: list[list[GameResult | ByeResult]] = []
    for _ in range(played):
        state = replay(options, entrants, games)
        pairing = pair_round(state, seed=rng.randrange(2**32))
        round_games: list[GameResult | ByeResult] = [
            GameResult(b.white, b.black, b.white if rng.random() < 0.5 else b.black) for b in pairing.boards
        ]
        round_games += [ByeResult(p) for p in pairing.byes]
        games.append(round_games)
    return games


def _case(name: str, options: Options, players: int, played: int, target: float, seed: int) -> list[dict]:
    rng = random.Random(seed)
    entrants = _field(rng, players, options.rounds)
    games = _played(options, entrants, played, rng)
    started = time.perf_counter()
    state = replay(options, entrants, games)
    table = standings(state)
    replay_seconds = time.perf_counter() - started
    started = time.perf_counter()
    pairing = pair_round(state, seed=seed)
    seconds = time.perf_counter() - started
    detail = (
        f"round {pairing.round} of {options.rounds}: {len(pairing.boards)} boards, {len(pairing.byes)} byes, "
        f"{len(pairing.issues)} issues; max stones {max((b.handicap for b in pairing.boards), default=0)}"
    )
    return [
        {"name": f"pair {name}", "seconds": round(seconds, 3), "target": target, "detail": detail},
        {
            "name": f"replay + standings {name}",
            "seconds": round(replay_seconds, 3),
            "target": target,
            "detail": f"{len(table)} players, {played} rounds",
        },
    ]


def _stress(players: int, block: int, target: float) -> dict:
    """Every level equal and every block of ``block`` players already round-robined: the plain walk keeps
    stranding players, so the safe walk's alternating-path searches do the work on a near-complete graph."""
    options = Options(rounds=block + 1, half_stone=False, draws_allowed=True)
    entrants = [Entrant(f"p{i:04d}", 2000) for i in range(players)]
    games: list[list[GameResult | ByeResult]] = [[] for _ in range(block)]
    for start in range(0, players, block):
        ids = [e.id for e in entrants[start : start + block]]
        size = len(ids) + len(ids) % 2
        ring = [*ids, None] if len(ids) % 2 else list(ids)
        for r in range(size - 1):  # the circle method
            for k in range(size // 2):
                a, b = ring[k], ring[size - 1 - k]
                if a is not None and b is not None:
                    games[r].append(GameResult(a, b, None))
            ring = [ring[0], ring[-1], *ring[1:-1]]
    state = replay(options, entrants, [g for g in games if g])
    started = time.perf_counter()
    pairing = pair_round(state, seed=1)
    seconds = time.perf_counter() - started
    return {
        "name": f"pair stress {players} equal levels, {block}-player round robins played",
        "seconds": round(seconds, 3),
        "target": target,
        "detail": f"{len(pairing.boards)} boards, {len(pairing.byes)} byes, {len(pairing.issues)} issues",
    }


def run() -> list[dict]:
    rows: list[dict] = []
    rows += _case("FUS 500 players", Options.fus(rounds=6), 500, 3, 2.0, seed=1)
    rows += _case("FUS 1000 players", Options.fus(rounds=6), 1000, 3, 10.0, seed=2)
    rows += _case("PROFS 500 players", Options.profs(rounds=6), 500, 3, 2.0, seed=3)
    rows += _case("PROFS 1000 players", Options.profs(rounds=6), 1000, 3, 10.0, seed=4)
    rows += _case("FUS 1000 players, last round", Options.fus(rounds=9), 1000, 8, 10.0, seed=5)
    rows.append(_stress(500, 7, 2.0))
    rows.append(_stress(1000, 7, 10.0))
    return rows


if __name__ == "__main__":
    for row in run():
        flag = "ok" if row["seconds"] <= row["target"] else "SLOW"
        print(f"{row['name']:<40} {row['seconds']:>8.3f} s  (target {row['target']} s, {flag})  {row['detail']}")
