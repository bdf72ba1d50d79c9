"""The next round: who plays whom, with which colours, stones and komi, and the rules a manual pairing breaks.

`rules/go.md`, part 1, "Pairing" and its Decisions; :func:`pair_round` pairs round ``state.next_round``,
:func:`check_pairing` lists what a director's own pairing breaks, :func:`board_for` gives one board by the rules.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError, Explanation
from ratings.engines.parse import is_whole
from tournaments.pairing.matcher import Matcher, legal_graph
from tournaments.pairing.names import alphabetical
from tournaments.pairing.options import KOMI_REVERSE, handicap_for, playable_handicap
from tournaments.pairing.standings import PlayerState, TournamentState

#: Rules codes of :class:`PairingIssue`.
RULE_REMATCH = "rematch"
RULE_HANDICAP_LIMIT = "handicap_limit"
RULE_COLOUR = "colour"
RULE_HANDICAP = "handicap"
RULE_ABSENT = "absent"
RULE_UNPAIRED = "unpaired"
RULE_BYE_REPEAT = "bye_repeat"
RULE_BYE_EXTRA = "bye_extra"
RULE_FIELD_UNPAIRABLE = "field_unpairable"


@dataclass(frozen=True)
class PairedBoard:
    """A game of the round: colours, levels before it, stones and komi (kind and amount, as the options set it)."""

    number: int
    white: str
    black: str
    white_level: int
    black_level: int
    handicap: int
    komi_kind: str
    komi: float
    colour_reason: str = ""

    @property
    def white_komi(self) -> float:
        """Komi added to white's score; negative when white pays (reverse komi)."""
        return -self.komi if self.komi_kind == KOMI_REVERSE else self.komi

    def as_dict(self) -> dict[str, Any]:
        return {
            "board": self.number,
            "white": self.white,
            "black": self.black,
            "handicap": self.handicap,
            "komi": self.komi_kind,
            "komi_points": self.komi,
            "white_level": self.white_level,
            "black_level": self.black_level,
            "colour_reason": self.colour_reason,
        }


@dataclass(frozen=True)
class PairingIssue:
    """A rule that had to give (engine pairing) or that a manual pairing breaks; ``rule`` is a ``RULE_*`` code.

    The engine reports ``field_unpairable`` (more byes than the one an odd field needs, because no-rematch and the
    9-stone limit leave some players without a legal opponent) and ``bye_repeat``. A manual pairing can break
    ``rematch``, ``handicap_limit``, ``colour``, ``handicap``, ``absent``, ``unpaired``, ``bye_repeat`` and
    ``bye_extra`` (more byes than a legal pairing of the field needs).
    """

    rule: str
    players: tuple[str, ...]
    explanation: Explanation

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "players": list(self.players), "explanation": self.explanation.as_dict()}


@dataclass(frozen=True)
class Pairing:
    """The next round: boards from the top down, byes, the seed used for colour draws, and issues to show."""

    round: int
    boards: tuple[PairedBoard, ...]
    byes: tuple[str, ...]
    seed: int
    issues: tuple[PairingIssue, ...]

    def as_list(self) -> list[dict[str, Any]]:
        """The ``next_round`` list of ``manage.py rate``: boards, then ``{"bye": id}`` entries."""
        return [b.as_dict() for b in self.boards] + [{"bye": p} for p in self.byes]


def _rank_key(p: PlayerState) -> tuple[int, float, str, str]:
    """`rules/go.md`, "Pairing": ranked by level, then start rating, then name (as its alphabet orders it, Ё with
    Е: :func:`~tournaments.pairing.names.alphabetical`), and the id, to be total."""
    return -p.level, -p.rating, alphabetical(p.name), p.id


def _default_seed(round_number: int, present: Sequence[str]) -> int:
    text = f"{round_number}|" + "|".join(sorted(present))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def _coin(seed: int, round_number: int, a: str, b: str) -> str:
    """The seeded colour draw for one pair: the id that takes black. Independent of board order."""
    first, second = sorted((a, b))
    return first if random.Random(f"{seed}:{round_number}:{first}:{second}").random() < 0.5 else second


def board_for(state: TournamentState, a: str, b: str, *, seed: int, number: int = 0) -> PairedBoard:
    """The board for two players: colours, stones and komi as the rules give them.

    `rules/go.md`, Decision (colour): the lower level takes black; at equal levels the player who had white more
    often takes black, else the seeded draw. Stones and komi: :func:`playable_handicap` (the table's, at most 9
    stones). Useful for a director's manual pairing as well as the engine's.
    """
    pa, pb = state.player(a), state.player(b)
    if pa.level != pb.level:
        black, reason = (a, "lower level") if pa.level < pb.level else (b, "lower level")
    elif pa.whites != pb.whites:
        black, reason = (a, "had white more often") if pa.whites > pb.whites else (b, "had white more often")
    else:
        black, reason = _coin(seed, state.next_round, a, b), "seeded draw"
    white = b if black == a else a
    pw, pbk = state.player(white), state.player(black)
    stones, kind = playable_handicap(pw.level - pbk.level, half_stone=state.options.half_stone)
    return PairedBoard(number, white, black, pw.level, pbk.level, stones, kind, state.options.komi_points(kind), reason)


def _present(state: TournamentState, present: Collection[str] | None) -> list[PlayerState]:
    if present is None:
        ids: Collection[str] = state.present(state.next_round)
    else:
        ids = present
        for i, pid in enumerate(ids):
            if pid not in state:
                raise EngineError(f"present[{i}]", f"{pid!r} is not a registered player")
    return [state.player(pid) for pid in dict.fromkeys(ids)]


def _why_unpaired(state: TournamentState, p: PlayerState, field: Sequence[PlayerState]) -> tuple[str, str]:
    gap = state.options.max_level_gap
    near = [q for q in field if q.id != p.id and abs(q.level - p.level) <= gap]
    met = sum(1 for q in near if q.id in p.opponents)
    far = len(field) - 1 - len(near)
    return (
        f"{p.id}: {len(near)} present within 9 stones, {met} of them already met; {far} more than 9 stones away",
        f"{p.id}: в пределах 9 камней {len(near)}, из них уже встречались {met}; дальше 9 камней {far}",
    )


def pair_round(state: TournamentState, *, seed: int | None = None, present: Collection[str] | None = None) -> Pairing:
    """Pair round ``state.next_round`` among the present players (by default: those not marked absent).

    `rules/go.md`, part 1, "Pairing" and its Decisions, in this order:

    1. Legal games: never a rematch, never more than 9 stones (a level gap of at most 18 / 9, package Decision).
    2. As many legal games as possible (a maximum matching); the players left over get byes, chosen by fewest
       byes so far and then lowest rank among the players some maximum matching can leave over. With an odd field
       that can be paired, that is one bye for the lowest-ranked player who can take it.
    3. The safe walk: going down from the favourites (level, start rating, name), each unpaired player takes the
       closest-level opponent (ties: the higher-ranked) for which the rest can still be paired completely. The
       check is one alternating-path search, made only when the closest candidate is not the current matching's
       partner; if it fails, one more search lists every partner that keeps the rest pairable.
    4. Colours, stones and komi by :func:`board_for`.
    """
    options = state.options
    round_number = state.next_round
    if round_number > options.rounds:
        raise EngineError("round", f"all {options.rounds} rounds have been played")
    ranked = sorted(_present(state, present), key=_rank_key)
    ids = [p.id for p in ranked]
    if seed is None:
        seed = _default_seed(round_number, ids)
    elif not is_whole(seed):
        raise EngineError("seed", f"{seed!r} is not a whole number")
    n = len(ranked)
    position = {pid: i for i, pid in enumerate(ids)}
    met = [{position[o] for o in p.opponents if o in position} for p in ranked]
    forward, full = legal_graph([p.level for p in ranked], met, options.max_level_gap)

    # Step 2: the maximum number of games, and who sits out.
    matcher = Matcher(full)
    matcher.greedy(forward)
    size = matcher.complete()
    need = n - 2 * size
    bye_set: list[int] = []
    for c in sorted(range(n), key=lambda i: (ranked[i].byes, -i)):
        if len(bye_set) == need:
            break
        partner = matcher.mate[c]
        matcher.alive[c] = False
        if partner == -1:
            bye_set.append(c)
            continue
        matcher.mate[c] = matcher.mate[partner] = -1
        if matcher.search(partner):
            bye_set.append(c)
        else:
            matcher.alive[c] = True
            matcher.mate[c], matcher.mate[partner] = partner, c

    # Step 3: the safe walk over the rest, starting from the plain walk made complete.
    matcher.mate = [-1] * n
    matcher.alive = [True] * n
    for c in bye_set:
        matcher.alive[c] = False
    matcher.greedy(forward)
    matcher.complete()
    mate, alive = matcher.mate, matcher.alive
    pairs: list[tuple[int, int]] = []
    for u in range(n):
        if not alive[u]:
            continue
        a = mate[u]
        closest = next(v for v in forward[u] if alive[v])
        chosen = closest
        if closest != a:
            b = mate[closest]
            alive[u] = alive[closest] = False
            mate[a] = mate[b] = mate[u] = mate[closest] = -1
            if not matcher.search(a):
                alive[u] = alive[closest] = True
                mate[u], mate[a], mate[closest], mate[b] = a, u, b, closest
                alive[u] = False
                mate[a] = -1
                matcher.search(a)
                outer = matcher.outer
                alive[u] = True
                mate[a] = u
                chosen = next(v for v in forward[u] if alive[v] and outer[v])
                if chosen != a:
                    b = mate[chosen]
                    alive[u] = alive[chosen] = False
                    mate[a] = mate[b] = mate[u] = mate[chosen] = -1
                    matcher.search(a)
        alive[u] = alive[chosen] = False
        mate[u], mate[chosen] = chosen, u
        pairs.append((u, chosen))

    boards = tuple(board_for(state, ids[u], ids[v], seed=seed, number=k + 1) for k, (u, v) in enumerate(pairs))
    byes = tuple(ids[c] for c in sorted(bye_set))
    issues: list[PairingIssue] = []
    if need > n % 2:
        reasons = [_why_unpaired(state, ranked[c], ranked) for c in sorted(bye_set)]
        issues.append(
            PairingIssue(
                RULE_FIELD_UNPAIRABLE,
                byes,
                Explanation(
                    f"the field cannot be paired without a rematch or more than 9 stones: {size} games and "
                    f"{need} byes instead of {n % 2}; " + "; ".join(r[0] for r in reasons),
                    f"всех нельзя спарить без повторной встречи или форы больше 9 камней: {size} партий и "
                    f"{need} баев вместо {n % 2}; " + "; ".join(r[1] for r in reasons),
                ),
            )
        )
    bye_ids = set(byes)
    fewest_left = min((p.byes for p in ranked if p.id not in bye_ids), default=None)
    for pid in byes:
        p = state.player(pid)
        if fewest_left is not None and p.byes > fewest_left:
            issues.append(
                PairingIssue(
                    RULE_BYE_REPEAT,
                    (pid,),
                    Explanation(
                        f"{pid} gets bye number {p.byes + 1} while a present player has had {fewest_left}: "
                        "nobody with fewer byes could sit out and leave the rest legally paired",
                        f"{pid} получает бай в {p.byes + 1}-й раз, хотя другой участник получил их {fewest_left}: "
                        "никто из имеющих меньше баев не мог пропустить тур так, чтобы остальные спарились",
                    ),
                )
            )
    return Pairing(round_number, boards, byes, seed, tuple(issues))


def check_pairing(
    state: TournamentState,
    boards: Sequence[PairedBoard | tuple[str, str]],
    byes: Sequence[str] = (),
    *,
    present: Collection[str] | None = None,
) -> tuple[PairingIssue, ...]:
    """The rules a director's manual pairing of round ``state.next_round`` breaks (empty when it breaks none).

    ``boards`` are :class:`PairedBoard` (colours, stones and komi checked against the rules) or ``(white, black)``
    pairs (colours checked, stones not). Structural mistakes (an unknown player, a player twice, a player against
    themselves) raise :class:`EngineError` with ``boards[i].white``-style paths: such a pairing cannot be stored.
    """
    options = state.options
    round_number = state.next_round
    ranked = sorted(_present(state, present), key=_rank_key)
    present_ids = {p.id for p in ranked}
    seen: dict[str, str] = {}
    issues: list[PairingIssue] = []

    def use(pid: Any, path: str) -> str:
        if not isinstance(pid, str) or pid not in state:
            raise EngineError(path, f"{pid!r} is not a registered player")
        if pid in seen:
            raise EngineError(path, f'"{pid}" is already in this round ({seen[pid]})')
        seen[pid] = path
        if pid not in present_ids:
            issues.append(
                PairingIssue(
                    RULE_ABSENT,
                    (pid,),
                    Explanation(f"{pid} is absent in round {round_number}", f"{pid} отсутствует в туре {round_number}"),
                )
            )
        return pid

    for i, item in enumerate(boards):
        white, black = (item.white, item.black) if isinstance(item, PairedBoard) else item
        use(white, f"boards[{i}].white")
        if black == white:
            raise EngineError(f"boards[{i}].black", f'"{white}" cannot play themselves')
        use(black, f"boards[{i}].black")
        pw, pb = state.player(white), state.player(black)
        pair = (white, black)
        if black in pw.opponents:
            issues.append(
                PairingIssue(
                    RULE_REMATCH,
                    pair,
                    Explanation(f"{white} and {black} have already played", f"{white} и {black} уже играли"),
                )
            )
        gap = abs(pw.level - pb.level)
        if gap > options.max_level_gap:
            stones = handicap_for(gap, half_stone=options.half_stone)[0]
            played = playable_handicap(gap, half_stone=options.half_stone)[0]
            issues.append(
                PairingIssue(
                    RULE_HANDICAP_LIMIT,
                    pair,
                    Explanation(
                        f"{white} - {black}: level gap {gap} needs {stones} stones, more than 9; "
                        f"played on {played} stones",
                        f"{white} - {black}: разница уровней {gap} требует {stones} камней, больше 9; "
                        f"играется на {played} камнях",
                    ),
                )
            )
        wrong_colour = pw.level < pb.level or (pw.level == pb.level and pw.whites > pb.whites)
        if wrong_colour:
            issues.append(
                PairingIssue(
                    RULE_COLOUR,
                    pair,
                    Explanation(
                        f"{white} takes white but should take black (level {pw.level} vs {pb.level}, "
                        f"whites {pw.whites} vs {pb.whites})",
                        f"{white} играет белыми, но должен чёрными (уровень {pw.level} против {pb.level}, "
                        f"белых {pw.whites} против {pb.whites})",
                    ),
                )
            )
        if isinstance(item, PairedBoard):
            stones, kind = playable_handicap(gap, half_stone=options.half_stone)
            if (item.handicap, item.komi_kind) != (stones, kind):
                issues.append(
                    PairingIssue(
                        RULE_HANDICAP,
                        pair,
                        Explanation(
                            f"{white} - {black}: {item.handicap} stones, {item.komi_kind} komi; the level gap {gap} "
                            f"gives {stones} stones, {kind} komi",
                            f"{white} - {black}: фора {item.handicap}, коми {item.komi_kind}; разница уровней {gap} "
                            f"даёт фору {stones}, коми {kind}",
                        ),
                    )
                )
    for j, pid in enumerate(byes):
        use(pid, f"byes[{j}]")
    for p in ranked:
        if p.id not in seen:
            issues.append(
                PairingIssue(
                    RULE_UNPAIRED,
                    (p.id,),
                    Explanation(
                        f"{p.id} is present but neither plays nor has a bye",
                        f"{p.id} присутствует, но не играет и не получает бай",
                    ),
                )
            )
    bye_ids = set(byes)
    fewest_left = min((p.byes for p in ranked if p.id not in bye_ids), default=None)
    for pid in byes:
        p = state.player(pid)
        if fewest_left is not None and p.byes > fewest_left:
            issues.append(
                PairingIssue(
                    RULE_BYE_REPEAT,
                    (pid,),
                    Explanation(
                        f"{pid} gets bye number {p.byes + 1} while a present player has had {fewest_left}",
                        f"{pid} получает бай в {p.byes + 1}-й раз, хотя другой участник получил их {fewest_left}",
                    ),
                )
            )
    if byes:
        position = {p.id: i for i, p in enumerate(ranked)}
        met = [{position[o] for o in p.opponents if o in position} for p in ranked]
        forward, full = legal_graph([p.level for p in ranked], met, options.max_level_gap)
        matcher = Matcher(full)
        matcher.greedy(forward)
        needed = len(ranked) - 2 * matcher.complete()
        given = len([pid for pid in byes if pid in present_ids])
        if given > needed:
            issues.append(
                PairingIssue(
                    RULE_BYE_EXTRA,
                    tuple(byes),
                    Explanation(
                        f"{given} byes where a legal pairing needs {needed}",
                        f"баев {given}, но законной жеребьёвке нужно {needed}",
                    ),
                )
            )
    return tuple(issues)
