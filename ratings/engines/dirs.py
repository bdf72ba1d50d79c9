"""DIRS, the Go club's dynamic rating: labels, handicap and komi, which games count, and the update per game.

The rules are `rules/go.md`, part 2 (and the scales at the top of that page). A player holds a rating on the DIRS
scale (10 points a stone, 000 = 21 kyu) and an acceleration (wins in a row). Pure Python, so the club's game
entry, a DIRS tournament, the handicap calculator and ``manage.py rate`` share one copy of each rule.

Decisions taken here where `rules/go.md` is silent:

- Colours: when the ratings differ the weaker player takes black, even in an even game (difference 1..4); a game
  with the colours the other way round is not rated. With equal ratings either may take black.
- The worked example "95 with acceleration 4" is read with the acceleration *after* the win (3 before it): 4 steps,
  95 -> 98 -> 101 -> 103 -> 105; with 4 before the win it would be 5 steps, which the example does not show.
- A loss takes one step of the range the rating is in (100 -> 98), and never below 000.
- A game has a winner: a draw (jigo) is not a result DIRS knows, and such input is refused.
- A declared rank is 1..21 kyu or 1..9 dan.
- An unrated game leaves both ratings and both accelerations as they were.
- In ``manage.py rate`` a game without ``handicap`` and ``komi`` is an even game with normal komi; a game may carry
  ``rounds_left`` (rounds after this one in a DIRS tournament) to apply the tournament step cap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError, Explanation
from ratings.engines.parse import integral, is_whole, parse_list, parse_map, parse_object, require

KOMI_NORMAL = "normal"
KOMI_NONE = "none"
KOMI_REVERSE = "reverse"
KOMIS = (KOMI_NORMAL, KOMI_NONE, KOMI_REVERSE)

#: `rules/go.md`, part 2: at most 9 stones, so a difference of 95 or more cannot be paired.
MAX_STONES = 9
UNPAIRABLE_DIFFERENCE = 95
START_RATING = 0

KYU = "kyu"
DAN = "dan"

_KOMI_RU = {KOMI_NORMAL: "обычная", KOMI_NONE: "без коми", KOMI_REVERSE: "обратная"}


@dataclass(frozen=True, slots=True)
class Rank:
    """A label on the kyu/dan scale: ``Rank("kyu", 5)`` is 5 kyu."""

    kind: str
    number: int

    def __str__(self) -> str:
        return f"{self.number} {self.kind}"

    @property
    def short(self) -> str:
        return f"{self.number}{self.kind[0]}"

    @property
    def explanation(self) -> Explanation:
        ru_kind = "кю" if self.kind == KYU else "дан"
        return Explanation(f"{self.number} {self.kind}", f"{self.number} {ru_kind}")


@dataclass(frozen=True, slots=True)
class DirsPlayer:
    """A player's DIRS state: rating (000 and up) and acceleration (wins in a row)."""

    rating: int
    acceleration: int = 0


@dataclass(frozen=True, slots=True)
class Handicap:
    """What DIRS prescribes for two ratings; ``pairable`` is false from a difference of 95."""

    difference: int
    stones: int
    komi: str
    pairable: bool = True

    @property
    def explanation(self) -> Explanation:
        d = self.difference
        if not self.pairable:
            return Explanation(
                f"difference {d} >= 95 would need 10 stones or more: cannot be paired",
                f"разница {d} >= 95 требует 10 камней или больше: пара невозможна",
            )
        if d <= 4:
            return Explanation(
                f"difference {d} (0..4): even game, normal komi",
                f"разница {d} (0..4): ровная партия, обычная коми",
            )
        tens, units = divmod(d, 10)
        if units <= 4:
            return Explanation(
                f"difference {d}: tens {tens}, units {units} in 0..4: {_stones(self.stones)}, reverse komi",
                f"разница {d}: десятки {tens}, единицы {units} в 0..4: камней {self.stones}, обратная коми",
            )
        return Explanation(
            f"difference {d}: tens {tens}, units {units} in 5..9: {tens} + 1 = {_stones(self.stones)}, no komi",
            f"разница {d}: десятки {tens}, единицы {units} в 5..9: камней {tens} + 1 = {self.stones}, без коми",
        )


@dataclass(frozen=True, slots=True)
class RatedCheck:
    """Whether a played game counts, with the handicap DIRS prescribes and the reason in both languages."""

    rated: bool
    prescribed: Handicap
    reason: Explanation


@dataclass(frozen=True, slots=True)
class Climb:
    """A win: the ratings passed on the way (``path[0]`` is the start), and the new state."""

    path: tuple[int, ...]
    acceleration: int
    steps: int
    uncapped_steps: int

    @property
    def rating(self) -> int:
        return self.path[-1]


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game: both players' states before and after, and why."""

    rated: bool
    winner: str
    white_before: DirsPlayer
    black_before: DirsPlayer
    white_after: DirsPlayer
    black_after: DirsPlayer
    check: RatedCheck
    climb: Climb | None

    @property
    def explanation(self) -> Explanation:
        return _explain_game(self)


def _stones(count: int) -> str:
    return "1 stone" if count == 1 else f"{count} stones"


# --- scales -----------------------------------------------------------------------------------------------------


def rank_of(rating: int) -> Rank:
    """`rules/go.md`, scales: ``lv = r // 10``; kyu ``21 - lv`` below 21, else dan ``lv - 20`` (9 dan at most)."""
    _check_rating(rating, "rating")
    level = rating // 10
    if level < 21:
        return Rank(KYU, 21 - level)
    return Rank(DAN, min(level - 20, 9))


def rating_from_rank(number: int, kind: str) -> int:
    """`rules/go.md`, "Decision (newcomers)": k kyu -> (21 - k)·10, n dan -> (20 + n)·10."""
    if kind not in (KYU, DAN):
        raise EngineError("rank", f'{kind!r} is neither "kyu" nor "dan"')
    top = 21 if kind == KYU else 9
    if not is_whole(number) or not 1 <= number <= top:
        raise EngineError("rank", f"{number!r} {kind} is not a rank (1..{top} {kind})")
    return (21 - number) * 10 if kind == KYU else (20 + number) * 10


def parse_rank(text: str) -> Rank:
    """Read a declared rank as people write it: ``5k``, ``5 kyu``, ``2d``, ``2 dan``."""
    cleaned = text.strip().lower().replace(" ", "") if isinstance(text, str) else ""
    for suffix, kind in (("kyu", KYU), ("dan", DAN), ("k", KYU), ("d", DAN)):
        if cleaned.endswith(suffix) and cleaned[: -len(suffix)].isdigit():
            number = int(cleaned[: -len(suffix)])
            rating_from_rank(number, kind)
            return Rank(kind, number)
    raise EngineError("rank", f"{text!r} is not a rank such as 5k or 2d")


def prescribed_handicap(rating_a: int, rating_b: int) -> Handicap:
    """`rules/go.md`, part 2, "Handicap and komi from the rating difference d >= 0 (tens t, units u)".

    d 0..4: even, normal komi; u in 0..4: t stones, reverse komi; u in 5..9: t + 1 stones, no komi; d >= 95: none.
    """
    d = abs(rating_a - rating_b)
    if d >= UNPAIRABLE_DIFFERENCE:
        return Handicap(difference=d, stones=0, komi=KOMI_NORMAL, pairable=False)
    if d <= 4:
        return Handicap(difference=d, stones=0, komi=KOMI_NORMAL)
    tens, units = divmod(d, 10)
    if units <= 4:
        return Handicap(difference=d, stones=tens, komi=KOMI_REVERSE)
    return Handicap(difference=d, stones=tens + 1, komi=KOMI_NONE)


def step_size(rating: int) -> int:
    """`rules/go.md`, part 2, "Step and update": 3 for 000..099, 2 for 100..199, 1 from 200 up."""
    if rating < 100:
        return 3
    if rating < 200:
        return 2
    return 1


def tournament_step_cap(rounds_left_after: int) -> int:
    """`rules/go.md`, part 2, "DIRS in tournaments": a win climbs at most ``rounds left after this one + 1``."""
    if not is_whole(rounds_left_after) or rounds_left_after < 0:
        raise EngineError("rounds_left", f"{rounds_left_after!r} is not a whole number >= 0")
    return rounds_left_after + 1


# --- the update -------------------------------------------------------------------------------------------------


def climb(player: DirsPlayer, *, max_steps: int | None = None) -> Climb:
    """A win (`rules/go.md`, part 2, "Step and update").

    Acceleration grows by 1; the player climbs ``n = ceil(acceleration / (4 - step(r)))`` steps, capped at
    ``max_steps`` in a tournament; each step has the size of the range it starts in.
    """
    acceleration = player.acceleration + 1
    uncapped = math.ceil(acceleration / (4 - step_size(player.rating)))
    steps = uncapped if max_steps is None else min(uncapped, max_steps)
    path = [player.rating]
    rating = player.rating
    for _ in range(steps):
        rating += step_size(rating)
        path.append(rating)
    return Climb(path=tuple(path), acceleration=acceleration, steps=steps, uncapped_steps=uncapped)


def fall(player: DirsPlayer) -> DirsPlayer:
    """A loss: acceleration becomes 0, the rating drops one step of its range, never below 000."""
    return DirsPlayer(rating=max(START_RATING, player.rating - step_size(player.rating)), acceleration=0)


def check_rated(white_rating: int, black_rating: int, handicap: int, komi: str) -> RatedCheck:
    """A game counts only on the handicap and komi DIRS prescribes, with the weaker player on black."""
    prescribed = prescribed_handicap(white_rating, black_rating)
    if not prescribed.pairable:
        return RatedCheck(False, prescribed, prescribed.explanation)
    if white_rating < black_rating:
        return RatedCheck(
            False,
            prescribed,
            Explanation(
                f"not rated: the weaker player ({white_rating}) took white; the weaker takes black",
                f"не в рейтинг: слабейший ({white_rating}) играл белыми; слабейший играет черными",
            ),
        )
    if handicap != prescribed.stones or komi != prescribed.komi:
        return RatedCheck(
            False,
            prescribed,
            Explanation(
                f"not rated: played {_stones(handicap)}, komi {komi}; DIRS prescribes "
                f"{_stones(prescribed.stones)}, komi {prescribed.komi} ({prescribed.explanation.en})",
                f"не в рейтинг: сыграно камней {handicap}, коми {_KOMI_RU.get(komi, komi)}; по DIRS положено "
                f"камней {prescribed.stones}, коми {_KOMI_RU[prescribed.komi]} ({prescribed.explanation.ru})",
            ),
        )
    return RatedCheck(True, prescribed, prescribed.explanation)


def rate_game(
    white: DirsPlayer,
    black: DirsPlayer,
    *,
    winner: str,
    handicap: int,
    komi: str,
    max_steps: int | None = None,
) -> GameOutcome:
    """Rate one game; ``winner`` is ``"white"`` or ``"black"``; ``max_steps`` is the tournament step cap."""
    _check_rating(white.rating, "white.rating")
    _check_rating(black.rating, "black.rating")
    _check_acceleration(white.acceleration, "white.acceleration")
    _check_acceleration(black.acceleration, "black.acceleration")
    if winner not in ("white", "black"):
        raise EngineError("winner", f'{winner!r} is neither "white" nor "black"')
    if not is_whole(handicap) or handicap < 0:
        raise EngineError("handicap", f"{handicap!r} is not a whole number of stones >= 0")
    if komi not in KOMIS:
        raise EngineError("komi", f"{komi!r} is not one of normal, none, reverse")
    if max_steps is not None and (not is_whole(max_steps) or max_steps < 1):
        raise EngineError("max_steps", f"{max_steps!r} is not a whole number >= 1")
    check = check_rated(white.rating, black.rating, handicap, komi)
    if not check.rated:
        return GameOutcome(False, winner, white, black, white, black, check, None)
    won, lost = (white, black) if winner == "white" else (black, white)
    up = climb(won, max_steps=max_steps)
    winner_after = DirsPlayer(rating=up.rating, acceleration=up.acceleration)
    loser_after = fall(lost)
    if winner == "white":
        return GameOutcome(True, winner, white, black, winner_after, loser_after, check, up)
    return GameOutcome(True, winner, white, black, loser_after, winner_after, check, up)


# --- explanations -----------------------------------------------------------------------------------------------


def _explain_game(outcome: GameOutcome) -> Explanation:
    if not outcome.rated:
        return outcome.check.reason
    if outcome.winner == "white":
        won_before, lost_before, lost_after = outcome.white_before, outcome.black_before, outcome.black_after
    else:
        won_before, lost_before, lost_after = outcome.black_before, outcome.white_before, outcome.white_after
    up = outcome.climb
    step = step_size(won_before.rating)
    path = " -> ".join(f"{r:03d}" for r in up.path)
    cap_en = cap_ru = ""
    floored = lost_before.rating < step_size(lost_before.rating)
    if up.steps != up.uncapped_steps:
        cap_en = f", limited to {up.steps} by the rounds left"
        cap_ru = f", не больше {up.steps} по оставшимся турам"
    en = (
        f"{outcome.check.reason.en}. Winner: acceleration {won_before.acceleration} + 1 = {up.acceleration}, "
        f"steps n = ceil({up.acceleration}/(4 - {step})) = {up.uncapped_steps}{cap_en}: {path}. "
        f"Loser: acceleration 0, {lost_before.rating:03d} - {step_size(lost_before.rating)} = "
        f"{lost_after.rating:03d}" + (" (never below 000)" if floored else "")
    )
    ru = (
        f"{outcome.check.reason.ru}. Победитель: ускорение {won_before.acceleration} + 1 = {up.acceleration}, "
        f"шагов n = ceil({up.acceleration}/(4 - {step})) = {up.uncapped_steps}{cap_ru}: {path}. "
        f"Проигравший: ускорение 0, {lost_before.rating:03d} - {step_size(lost_before.rating)} = "
        f"{lost_after.rating:03d}" + (" (не ниже 000)" if floored else "")
    )
    return Explanation(en, ru)


# --- validation and manage.py rate ------------------------------------------------------------------------------


def _check_rating(rating: Any, where: str) -> None:
    if not is_whole(rating):
        raise EngineError(where, f"{rating!r} is not a whole number")
    if rating < START_RATING:
        raise EngineError(where, f"{rating} is below 000")


def _check_acceleration(value: Any, where: str) -> None:
    if not is_whole(value) or value < 0:
        raise EngineError(where, f"{value!r} is not a whole number >= 0")


def _parse_rating(value: Any, where: str) -> int:
    value = integral(value)
    _check_rating(value, where)
    return value


def _parse_acceleration(value: Any, where: str) -> int:
    value = integral(value)
    _check_acceleration(value, where)
    return value


def rate_document(doc: dict) -> dict:
    """The ``dirs`` section of `RATE_CLI.md`: games rated one by one in the order given.

    Accepted besides the documented input: ``accelerations`` (to continue from an earlier output) and a game's
    ``rounds_left`` (the tournament step cap). Each output game also has ``reason`` and ``explanation``.
    """
    parse_object(doc, "document")
    system = doc.get("system", "dirs")
    if system != "dirs":
        raise EngineError("system", f'{system!r} is not "dirs"')
    ratings = parse_map(doc.get("ratings", {}), "ratings", _parse_rating)
    accelerations = parse_map(doc.get("accelerations", {}), "accelerations", _parse_acceleration)
    raw_games = parse_list(doc.get("games", []), "games")
    games = [_parse_game(raw, f"games[{i}]") for i, raw in enumerate(raw_games)]
    states: dict[str, DirsPlayer] = {}
    for name in dict.fromkeys([*ratings, *accelerations, *(p for g in games for p in (g[0], g[1]))]):
        states[name] = DirsPlayer(ratings.get(name, START_RATING), accelerations.get(name, 0))
    out_games = []
    for white, black, winner, handicap, komi, rounds_left in games:
        cap = None if rounds_left is None else tournament_step_cap(rounds_left)
        outcome = rate_game(
            states[white],
            states[black],
            winner="white" if winner == white else "black",
            handicap=handicap,
            komi=komi,
            max_steps=cap,
        )
        states[white], states[black] = outcome.white_after, outcome.black_after
        explanation = outcome.explanation.as_dict()
        out_games.append(
            {
                "rated": outcome.rated,
                "white_after": outcome.white_after.rating,
                "black_after": outcome.black_after.rating,
                "reason": outcome.check.reason.as_dict(),
                "explanation": explanation,
            }
        )
    return {
        "ratings": {name: state.rating for name, state in states.items()},
        "accelerations": {name: state.acceleration for name, state in states.items()},
        "games": out_games,
    }


def document_errors(doc: Any) -> list[EngineError]:
    """Every mistake of a ``dirs`` document, each naming its field (``rate_document`` stops at the first)."""
    errors: list[EngineError] = []
    if not isinstance(doc, dict):
        return [EngineError("document", "is not an object")]
    system = doc.get("system", "dirs")
    if system != "dirs":
        errors.append(EngineError("system", f'{system!r} is not "dirs"'))
    for key, parse_value in (("ratings", _parse_rating), ("accelerations", _parse_acceleration)):
        values = doc.get(key, {})
        if not isinstance(values, dict):
            errors.append(EngineError(key, "is not an object of player: number"))
            continue
        for name, value in values.items():
            try:
                parse_value(value, f"{key}.{name}")
            except EngineError as error:
                errors.append(error)
    games = doc.get("games", [])
    if not isinstance(games, list):
        return [*errors, EngineError("games", "is not a list")]
    for index, raw in enumerate(games):
        try:
            _parse_game(raw, f"games[{index}]")
        except EngineError as error:
            errors.append(error)
    return errors


def _parse_game(raw: Any, where: str) -> tuple[str, str, str, int, str, int | None]:
    parse_object(raw, where)
    white, black, winner = (require(raw, key, where) for key in ("white", "black", "winner"))
    for key, value in (("white", white), ("black", black)):
        if not isinstance(value, str) or not value:
            raise EngineError(f"{where}.{key}", f"{value!r} is not a player id")
    if white == black:
        raise EngineError(f"{where}.black", f'"{black}" is also white')
    if winner not in (white, black):
        shown = f'"{winner}"' if isinstance(winner, str) else repr(winner)
        raise EngineError(f"{where}.winner", f"{shown} is neither white nor black")
    handicap = integral(raw.get("handicap", 0))
    if not is_whole(handicap) or handicap < 0:
        raise EngineError(f"{where}.handicap", f"{handicap!r} is not a whole number of stones >= 0")
    komi = raw.get("komi", KOMI_NORMAL)
    if komi not in KOMIS:
        raise EngineError(f"{where}.komi", f"{komi!r} is not one of normal, none, reverse")
    rounds_left = raw.get("rounds_left")
    if rounds_left is not None and (not is_whole(rounds_left) or rounds_left < 0):
        raise EngineError(f"{where}.rounds_left", f"{rounds_left!r} is not a whole number >= 0")
    return white, black, winner, handicap, komi, rounds_left


__all__ = [
    "DAN",
    "KOMIS",
    "KOMI_NONE",
    "KOMI_NORMAL",
    "KOMI_REVERSE",
    "KYU",
    "MAX_STONES",
    "START_RATING",
    "UNPAIRABLE_DIFFERENCE",
    "Climb",
    "DirsPlayer",
    "GameOutcome",
    "Handicap",
    "Rank",
    "RatedCheck",
    "check_rated",
    "climb",
    "document_errors",
    "fall",
    "parse_rank",
    "prescribed_handicap",
    "rank_of",
    "rate_document",
    "rate_game",
    "rating_from_rank",
    "step_size",
    "tournament_step_cap",
]
