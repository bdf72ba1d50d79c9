"""Property tests of the pairing against brute force (small fields) and rustworkx (larger fields).

The histories are built from drawn games (draws allowed) so that who has met whom is arbitrary while levels stay as
drawn; byes add their point as the rules say.
"""

from __future__ import annotations

import random

import rustworkx as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    RULE_BYE_REPEAT,
    RULE_FIELD_UNPAIRABLE,
    ByeResult,
    Entrant,
    GameResult,
    Options,
    TournamentState,
    check_pairing,
    pair_round,
    replay,
)


@st.composite
def fields(draw: st.DrawFn, min_players: int = 2, max_players: int = 10) -> TournamentState:
    n = draw(st.integers(min_players, max_players))
    half_stone = draw(st.booleans())
    factor = 50 if half_stone else 100
    gap = 18 if half_stone else 9
    spread = draw(st.sampled_from([gap // 3, gap, 2 * gap, 3 * gap]))
    ids = [f"p{i}" for i in range(n)]
    entrants = []
    for pid in ids:
        level = draw(st.integers(0, spread))
        entrants.append(Entrant(pid, level * factor + draw(st.sampled_from([0, 0, factor // 2])), name=pid))
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.8]))
    rng = random.Random(draw(st.integers(0, 2**16)))
    met = [p for p in pairs if rng.random() < density]
    byes = [pid for pid in ids if rng.random() < 0.3]
    games: list[list[GameResult | ByeResult]] = []
    busy: list[set[str]] = []
    for a, b in met:  # pack the drawn games into as few rounds as they fit
        k = next((k for k, ids_in in enumerate(busy) if a not in ids_in and b not in ids_in), len(busy))
        if k == len(busy):
            busy.append(set())
            games.append([])
        busy[k] |= {a, b}
        games[k].append(GameResult(a, b, None))
    games += [[ByeResult(pid) for pid in byes]] if byes else []
    options = Options(rounds=len(games) + 1, half_stone=half_stone, acceleration=False, draws_allowed=True)
    return replay(options, entrants, games)


def _ranked(state: TournamentState) -> list:
    return sorted(state.players, key=lambda p: (-p.level, -p.rating, p.name, p.id))


def _matchings(n: int, legal: set[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Every matching of the legal graph, each a list of (higher rank, lower rank) index pairs."""
    out: list[list[tuple[int, int]]] = []

    def walk(i: int, used: frozenset[int], pairs: list[tuple[int, int]]) -> None:
        while i < n and i in used:
            i += 1
        if i == n:
            out.append(list(pairs))
            return
        walk(i + 1, used | {i}, pairs)
        for j in range(i + 1, n):
            if j not in used and (i, j) in legal:
                pairs.append((i, j))
                walk(i + 1, used | {i, j}, pairs)
                pairs.pop()

    walk(0, frozenset(), [])
    return out


def _walk_vector(pairs: list[tuple[int, int]], levels: list[int]) -> list[tuple[int, int]]:
    """Down from the favourites: each higher player's (level gap, partner's rank), in rank order."""
    return sorted((i, levels[i] - levels[j], j) for i, j in pairs)


@settings(max_examples=200, deadline=None)
@given(fields())
def test_pairing_matches_brute_force(state: TournamentState):
    _check_against_brute_force(state)


@settings(max_examples=200, deadline=None)
@given(fields(min_players=8, max_players=10))
def test_pairing_matches_brute_force_eight_to_ten_players(state: TournamentState):
    _check_against_brute_force(state)


def _check_against_brute_force(state: TournamentState) -> None:
    options = state.options
    ranked = _ranked(state)
    n = len(ranked)
    index = {p.id: i for i, p in enumerate(ranked)}
    levels = [p.level for p in ranked]
    legal = {
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if ranked[j].id not in ranked[i].opponents and levels[i] - levels[j] <= options.max_level_gap
    }
    pairing = pair_round(state, seed=11)

    # Never a rematch, never more than 9 stones, everyone present exactly once.
    engine_pairs = []
    for board in pairing.boards:
        i, j = sorted((index[board.white], index[board.black]))
        assert (i, j) in legal
        assert board.handicap <= 9
        engine_pairs.append((i, j))
    seen = [p for b in pairing.boards for p in (b.white, b.black)] + list(pairing.byes)
    assert sorted(seen) == sorted(p.id for p in ranked)

    # As many games as any legal pairing allows.
    everything = _matchings(n, legal)
    best_size = max(len(m) for m in everything)
    assert len(pairing.boards) == best_size

    # The byes: fewest byes so far, then lowest rank, among the sets some maximum pairing leaves over.
    def preference(i: int) -> tuple[int, int]:
        return ranked[i].byes, -i

    order = sorted(range(n), key=preference)
    position = {v: k for k, v in enumerate(order)}

    def exposed(m: list[tuple[int, int]]) -> list[int]:
        covered = {v for pair in m for v in pair}
        return sorted(position[v] for v in range(n) if v not in covered)

    maximum = [m for m in everything if len(m) == best_size]
    engine_byes = sorted(position[index[p]] for p in pairing.byes)
    assert engine_byes == min(exposed(m) for m in maximum)

    # Among the pairings that leave those players over, the walk from the favourites is lexicographically best:
    # in particular the top-ranked player gets the smallest gap any such pairing allows.
    candidates = [m for m in maximum if exposed(m) == engine_byes]
    best = min(_walk_vector(m, levels) for m in candidates)
    assert _walk_vector(engine_pairs, levels) == best
    if engine_pairs:
        top = min(i for pair in engine_pairs for i in pair)
        top_gap = min(abs(levels[i] - levels[j]) for m in candidates for i, j in m if top in (i, j))
        assert _walk_vector(engine_pairs, levels)[0][1] == top_gap

    # The engine's own pairing breaks nothing beyond what it reports.
    issues = check_pairing(state, pairing.boards, pairing.byes)
    assert {i.rule for i in issues} <= {RULE_BYE_REPEAT}
    assert {i.rule for i in issues} == {i.rule for i in pairing.issues} - {RULE_FIELD_UNPAIRABLE}
    assert (RULE_FIELD_UNPAIRABLE in {i.rule for i in pairing.issues}) == (len(pairing.byes) > n % 2)


@settings(max_examples=150, deadline=None)
@given(fields(min_players=2, max_players=10))
def test_top_player_gets_the_smallest_gap_of_any_complete_legal_pairing(state: TournamentState):
    ranked = _ranked(state)
    n = len(ranked)
    if n % 2:
        return
    levels = [p.level for p in ranked]
    legal = {
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if ranked[j].id not in ranked[i].opponents and levels[i] - levels[j] <= state.options.max_level_gap
    }
    complete = [m for m in _matchings(n, legal) if 2 * len(m) == n]
    pairing = pair_round(state, seed=3)
    if not complete:
        assert pairing.byes
        return
    assert pairing.byes == ()
    top = ranked[0].id
    board = next(b for b in pairing.boards if top in (b.white, b.black))
    assert abs(board.white_level - board.black_level) == min(
        levels[0] - levels[j] for m in complete for i, j in m if i == 0
    )
    assert top in (board.white, board.black)


@settings(max_examples=60, deadline=None)
@given(fields(min_players=20, max_players=80), st.integers(0, 2**32 - 1))
def test_game_count_matches_rustworkx_and_seed_is_deterministic(state: TournamentState, seed: int):
    ranked = _ranked(state)
    graph = rx.PyGraph()
    graph.add_nodes_from(range(len(ranked)))
    for i, p in enumerate(ranked):
        for j in range(i + 1, len(ranked)):
            q = ranked[j]
            if q.id not in p.opponents and p.level - q.level <= state.options.max_level_gap:
                graph.add_edge(i, j, 1)
    size = len(rx.max_weight_matching(graph, max_cardinality=True, weight_fn=lambda _: 1))
    pairing = pair_round(state, seed=seed)
    assert len(pairing.boards) == size
    assert pair_round(state, seed=seed) == pairing
    for board in pairing.boards:
        assert board.black not in state.player(board.white).opponents
        assert board.handicap <= 9
