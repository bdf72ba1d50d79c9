"""The DIRS tournament mode (rules/go.md, part 2, "DIRS in tournaments"), pure Python over the two engines.

A DIRS tournament keeps its own running ratings, starting from the registrations' DIRS ratings; each win climbs at
most ``rounds left after this one + 1`` steps (``dirs.tournament_step_cap``). The result is a
``pairing.TournamentState`` whose *levels are the running ratings*, so the engine's ``standings`` gives the ranking
and the tie-break "with ratings in place of levels" exactly as the rules ask.

Decisions where the rules are silent:
- **Pairing** reuses the self-handicap pairing (no rematch, favourites first, byes) on levels ``rating // 5`` in
  half-stone mode: its 9-stone limit (18 half-stone levels) is then a rating gap of at most 94, the DIRS limit
  (95 or more cannot be paired). Each board then gets DIRS's handicap and komi for the two running ratings, and
  the weaker player takes black (equal ratings: the engine's colour).
- **A bye** in a DIRS tournament changes no rating and leaves the acceleration alone; **absence** also changes
  nothing (DIRS counts only games).
- A game not played on the prescribed handicap leaves the tournament ratings unchanged, as in the club.
- **Special results** (both win, both lose, a double forfeit) change no rating: DIRS rates a game with one winner
  and one loser (part 2), so such a round is recorded with the result it says and moves nobody (rating and
  acceleration), in the tournament as in the club (``services.results``: no club game is recorded for it). A
  single forfeit counts as the win and the loss it gives in the tournament's own ratings, but is not a club game
  (it was not played).
- **A hand pairing 95 or more apart** (only the director can make one) is played on 9 stones with reverse komi,
  the largest handicap DIRS knows; DIRS rates no such game, so it changes no rating, in the tournament or the club.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ratings.engines import dirs
from ratings.engines.common import EngineError, Explanation
from tournaments import pairing

PAIRING_DIVISOR = 5


def replay(
    options: pairing.Options,
    entrants: Sequence[pairing.Entrant],
    games: Sequence[Sequence[pairing.GameResult | pairing.ByeResult]],
) -> pairing.TournamentState:
    """Running DIRS ratings (as levels) and accelerations (as streaks) over the rounds given."""
    rating = {e.id: int(e.rating) for e in entrants}
    acceleration = dict.fromkeys(rating, 0)
    history: dict[str, list[pairing.RoundEntry]] = {e.id: [] for e in entrants}
    for r, round_games in enumerate(games):
        number = r + 1
        before = dict(rating)
        entries: dict[str, pairing.RoundEntry] = {}
        cap = dirs.tournament_step_cap(options.rounds - number)
        for j, item in enumerate(round_games):
            if isinstance(item, pairing.ByeResult):
                entries[item.player] = pairing.RoundEntry(number, "bye", before[item.player], 0)
                continue
            if item.both is not None:
                w, b = item.white, item.black
                result = "win" if item.both == pairing.BOTH_WIN else "loss"
                for me, other, colour in ((w, b, "white"), (b, w, "black")):
                    entries[me] = pairing.RoundEntry(
                        number, "game", before[me], 0, other, colour, result, before[other], item.handicap or 0,
                        item.komi or dirs.KOMI_NORMAL,
                    )  # fmt: skip
                continue
            if item.winner is None:
                raise EngineError(f"games[{r}][{j}].winner", "DIRS knows no draws")
            w, b = item.white, item.black
            stones = item.handicap if item.handicap is not None else 0
            komi = item.komi or dirs.KOMI_NORMAL
            outcome = dirs.rate_game(
                dirs.DirsPlayer(before[w], acceleration[w]),
                dirs.DirsPlayer(before[b], acceleration[b]),
                winner="white" if item.winner == w else "black",
                handicap=stones,
                komi=komi,
                max_steps=cap,
            )
            rating[w], acceleration[w] = outcome.white_after.rating, outcome.white_after.acceleration
            rating[b], acceleration[b] = outcome.black_after.rating, outcome.black_after.acceleration
            for me, other, colour in ((w, b, "white"), (b, w, "black")):
                result = "win" if item.winner == me else "loss"
                entries[me] = pairing.RoundEntry(
                    number,
                    "game",
                    before[me],
                    rating[me] - before[me],
                    other,
                    colour,
                    result,
                    before[other],
                    stones,
                    komi,
                )
        for pid in rating:
            history[pid].append(entries.get(pid) or pairing.RoundEntry(number, "absent", before[pid], 0))
    players = []
    for e in entrants:
        start = int(e.rating)
        moves = " ".join(f"{x.points:+d}" for x in history[e.id] if x.kind == "game")
        players.append(
            pairing.PlayerState(
                id=e.id,
                name=e.display_name,
                rating=e.rating,
                start_level=start,
                level=rating[e.id],
                streak=acceleration[e.id],
                absent=frozenset(e.absent),
                history=tuple(history[e.id]),
                explanation=Explanation(
                    f"DIRS {rating[e.id]:03d} = start {start:03d} {moves}".rstrip(),
                    f"DIRS {rating[e.id]:03d} = старт {start:03d} {moves}".rstrip(),
                ),
            )
        )
    return pairing.TournamentState(options=options, players=tuple(players), rounds_played=len(games))


def pairing_state(state: pairing.TournamentState) -> pairing.TournamentState:
    """The same players with levels ``rating // 5`` (half-stone mode): what the self-handicap pairing works on."""
    players = tuple(replace(p, level=p.level // PAIRING_DIVISOR) for p in state.players)
    options = replace(state.options, half_stone=True)
    return pairing.TournamentState(options=options, players=players, rounds_played=state.rounds_played)


def board(state: pairing.TournamentState, white: str, black: str, *, number: int, seed: int) -> pairing.PairedBoard:
    """A board for two players of a DIRS tournament: the weaker takes black, stones and komi as DIRS prescribes."""
    pw, pb = state.player(white), state.player(black)
    reason = "lower rating"
    if pw.level < pb.level:
        white, black, pw, pb = black, white, pb, pw
    elif pw.level == pb.level:
        engine_board = pairing.board_for(state, white, black, seed=seed, number=number)
        white, black = engine_board.white, engine_board.black
        pw, pb = state.player(white), state.player(black)
        reason = engine_board.colour_reason
    prescribed = dirs.prescribed_handicap(pw.level, pb.level)
    stones, komi = (prescribed.stones, prescribed.komi) if prescribed.pairable else (dirs.MAX_STONES, dirs.KOMI_REVERSE)
    return pairing.PairedBoard(
        number, white, black, pw.level, pb.level, stones, komi, state.options.komi_points(komi), reason
    )


def pair_round(state: pairing.TournamentState, *, seed: int, present: Sequence[str]) -> pairing.Pairing:
    """Pair on ``rating // 5``, then give every board DIRS colours, stones and komi from the running ratings."""
    engine = pairing.pair_round(pairing_state(state), seed=seed, present=present)
    boards = tuple(board(state, b.white, b.black, number=b.number, seed=seed) for b in engine.boards)
    return replace(engine, boards=boards)


def check_pairing(
    state: pairing.TournamentState, pairs: Sequence[tuple[str, str]], byes: Sequence[str], *, present: Sequence[str]
) -> tuple[pairing.PairingIssue, ...]:
    """The engine's checks on ``rating // 5`` (rematch, 9 stones, byes, absent), colours checked by rating here."""
    issues = [
        issue
        for issue in pairing.check_pairing(pairing_state(state), pairs, byes, present=present)
        if issue.rule != pairing.RULE_COLOUR
    ]
    for white, black in pairs:
        rw, rb = state.player(white).level, state.player(black).level
        if rw < rb:
            issues.append(
                pairing.PairingIssue(
                    pairing.RULE_COLOUR,
                    (white, black),
                    Explanation(
                        f"{white} takes white but is weaker ({rw:03d} vs {rb:03d})",
                        f"{white} играет белыми, но слабее ({rw:03d} против {rb:03d})",
                    ),
                )
            )
        if not dirs.prescribed_handicap(rw, rb).pairable:
            issues.append(
                pairing.PairingIssue(
                    pairing.RULE_HANDICAP_LIMIT,
                    (white, black),
                    Explanation(
                        f"{white} - {black}: ratings {rw:03d} and {rb:03d} are 95 or more apart",
                        f"{white} - {black}: рейтинги {rw:03d} и {rb:03d} различаются на 95 и больше",
                    ),
                )
            )
    return tuple(issues)
