"""A mahjong list as of one date: which tournaments count, part A, part B, the rating and its explanation.

`rules/mahjong.md`, "The three lists", "Part A", "Part B" and "Result". Parts A and B and the rating are exact
fractions of the integers of :mod:`.coefficients` until they are shown; the ranking uses the unrounded rating.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from ratings.engines.common import EngineError, Explanation, div_round_half_away
from ratings.engines.mahjong.coefficients import A_FULL, CENT, WA_UNIT, Coefficients, base_rank, delta_cents
from ratings.engines.mahjong.inputs import ListSettings, Placement, RatedTournament

FULL_WEIGHT_TOURNAMENTS = 5
"""`rules/mahjong.md`, "Part A": a player reaches full weight after 5 tournaments."""


def part_a_size(tournaments: int) -> int:
    """How many tournaments part A takes out of n: all up to 5, then 5 + ceil(0.8 (n - 5)).

    `rules/mahjong.md`, "Part A": 10 -> 9, 11 -> 10, 15 -> 13, 20 -> 17, 25 -> 21. In integers, ceil(4 (n - 5) / 5).
    """
    if tournaments <= FULL_WEIGHT_TOURNAMENTS:
        return tournaments
    extra = tournaments - FULL_WEIGHT_TOURNAMENTS
    return FULL_WEIGHT_TOURNAMENTS + (4 * extra + 4) // 5


def best_subset(deltas: Sequence[int], weights: Sequence[int], k: int) -> tuple[int, ...]:
    """Indices of the k items with the highest sum(deltas) / sum(weights), exactly, in polynomial time.

    `rules/mahjong.md`, "Part A": the best k are the subset of size k with the highest weighted mean (the
    federation tries every combination, which is exponential). Dinkelbach's iteration on the mean: for a candidate
    mean lambda = p / q, the subset maximising sum(delta_i - lambda weight_i) is the k largest of
    delta_i q - p weight_i; when that subset's own mean does not exceed lambda, lambda is the optimum (its maximum
    is 0, reached by the current subset). The means rise strictly, so it stops; in practice after 2 to 4 sorts.
    All arithmetic is on integers, so ties and rounding cannot mislead it.

    Ties are broken by position: among items equally good at the optimum the earlier one is taken, so the caller
    orders the items by preference. Weights must be positive.
    """
    count = len(deltas)
    if len(weights) != count:
        raise EngineError("weights", f"{len(weights)} weights for {count} deltas")
    if any(weight <= 0 for weight in weights):
        raise EngineError("weights", "every weight W·A must be positive")
    if k >= count:
        return tuple(range(count))
    if k <= 0:
        return ()
    p, q = 0, 1
    first = True
    while True:
        ranked = sorted(range(count), key=lambda i: deltas[i] * q - p * weights[i], reverse=True)
        top = ranked[:k]
        top_p = sum(deltas[i] for i in top)
        top_q = sum(weights[i] for i in top)
        if not first and top_p * q <= p * top_q:
            return tuple(sorted(top))
        p, q, first = top_p, top_q, False


def _country_of(player: str, countries: Mapping[str, str], settings: ListSettings) -> str:
    return countries.get(player, settings.country)


def is_rated(player: str | None, settings: ListSettings, countries: Mapping[str, str]) -> bool:
    """Whether a result's player is counted in this list: a profile, and of the list's country unless online."""
    if player is None:
        return False
    return settings.lists_everyone or _country_of(player, countries, settings) == settings.country


def eligibility(
    tournament: RatedTournament, settings: ListSettings, countries: Mapping[str, str] | None = None
) -> tuple[Explanation, ...]:
    """Why a tournament does not count in a list, in both languages; empty when it counts.

    `rules/mahjong.md`, "The three lists", with the package's decisions. ``countries`` maps player ids to countries
    (anyone not in it is of the list's country); it matters for EMA tournaments abroad. Every failing rule is
    given, not just the first, so that staff see at once what to fix. The age of the tournament is not judged here:
    see :func:`compute_list`.
    """
    countries = countries or {}
    reasons: list[Explanation] = []
    if settings.online and not tournament.online:
        reasons.append(Explanation("not an online tournament", "не онлайн-турнир"))
    if not settings.online and tournament.online:
        reasons.append(Explanation("an online tournament", "онлайн-турнир"))

    abroad = not settings.online and tournament.country != settings.country
    if abroad:
        if not settings.ema_abroad or not tournament.ema:
            reasons.append(Explanation("a tournament abroad without EMA status", "зарубежный турнир без статуса EMA"))
        elif not any(
            result.player is not None and _country_of(result.player, countries, settings) == settings.country
            for result in tournament.results
        ):
            reasons.append(
                Explanation(
                    f"an EMA tournament abroad without a player from {settings.country}",
                    f"зарубежный турнир EMA без игроков из {settings.country}",
                )
            )

    if tournament.players < settings.min_players:
        reasons.append(
            Explanation(f"fewer than {settings.min_players} players", f"меньше {settings.min_players} игроков")
        )
    full_rules = settings.full_rules_from is None or tournament.end_date >= settings.full_rules_from
    if full_rules:
        if tournament.hanchans < settings.min_hanchans:
            reasons.append(
                Explanation(f"fewer than {settings.min_hanchans} hanchans", f"меньше {settings.min_hanchans} ханчанов")
            )
        # EMA status abroad stands in for the federation's own judgement of accreditation and openness.
        if not abroad:
            if settings.requires_accreditation and not tournament.accredited:
                reasons.append(Explanation("not accredited by the federation", "не аккредитован федерацией"))
            if settings.requires_open and not tournament.open:
                reasons.append(Explanation("not open", "не открытый"))

    if tournament.rank_restricted:
        start = settings.rank_restricted_from
        if start is None:
            reasons.append(Explanation("restricted by rank", "ограничение по рангу"))
        elif tournament.end_date < start:
            reasons.append(
                Explanation(
                    f"restricted by rank before {start.isoformat()}",
                    f"ограничение по рангу до {start.strftime('%d.%m.%Y')}",
                )
            )
        elif not tournament.rank_restriction_legitimate:
            reasons.append(
                Explanation("rank restriction not judged legitimate", "ограничение по рангу не признано легитимным")
            )
    return tuple(reasons)


@dataclass(frozen=True)
class Score:
    """One player's numbers in one counted tournament: everything a snapshot keeps to explain the rating."""

    tournament: str
    end_date: date
    place: int
    players: int
    hanchans: int
    """Hanchans this player played (the tournament's length for a plain tournament)."""
    w: float
    r: float
    """Unrounded; show it with 2 decimals."""
    a: float
    """As used: 0.8571 for the published 85.71 %."""
    delta: float
    wa: float
    """W·A, this tournament's term of the part A denominator (unrounded product of the 2-decimal W and A)."""
    in_part_a: bool
    in_part_b: bool
    w_cents: int = field(repr=False)
    a_bp: int = field(repr=False)
    delta_cents: int = field(repr=False)

    @property
    def a_percent(self) -> float:
        """A as published (85.71)."""
        return self.a_bp / CENT


@dataclass(frozen=True)
class MaxK:
    """One of the MAXK places of part B: a tournament's W·A, or 1 for a missing tournament (``tournament`` None)."""

    tournament: str | None
    w: float
    a: float
    wa: float
    wa_units: int = field(repr=False)


def _maxk(tournament: str | None, w_c: int, a_bp: int) -> MaxK:
    return MaxK(tournament=tournament, w=w_c / CENT, a=a_bp / A_FULL, wa=w_c * a_bp / WA_UNIT, wa_units=w_c * a_bp)


@dataclass(frozen=True)
class Entry:
    """A listed player: rank, rating, both parts, the tournaments chosen for each, and the numbers of every one."""

    rank: int
    player: str
    name: str
    rating: float
    part_a: float
    part_b: float
    rating_unrounded: float
    tournaments: int
    """n, the player's counted tournaments with A > 0."""
    part_a_size: int
    scores: tuple[Score, ...]
    """Every counted tournament, latest first."""
    part_a_tournaments: tuple[str, ...]
    part_b_tournaments: tuple[str, ...]
    explanation: Explanation


@dataclass(frozen=True)
class Exclusion:
    """A tournament that does not count in this list, with every reason (`rules/mahjong.md`: never silently)."""

    tournament: str
    reasons: tuple[Explanation, ...]

    @property
    def reason(self) -> Explanation:
        return Explanation(
            en="; ".join(reason.en for reason in self.reasons), ru="; ".join(reason.ru for reason in self.reasons)
        )


@dataclass(frozen=True)
class ListOutcome:
    """A list as of one date: what a snapshot stores."""

    code: str
    as_of: date
    entries: tuple[Entry, ...]
    excluded: tuple[Exclusion, ...]
    counted: tuple[str, ...]
    """Tournaments that count, in the input's order."""
    maxk: tuple[MaxK, ...]
    unlisted: tuple[tuple[str, int], ...]
    """Rated players with results who have too few tournaments to be listed, with their n."""


def _fmt(value: float, digits: int = 2) -> str:
    """A number as the explanations show it: a space between thousands, ``digits`` decimals (4 521.30)."""
    return f"{value:,.{digits}f}".replace(",", " ")


def _fmt_units(units: int, scale: int) -> str:
    """An exact fixed-point integer with every significant decimal, at least two (2.339883, 6.00)."""
    whole, rest = divmod(units, scale)
    decimals = f"{rest:0{len(str(scale)) - 1}d}".rstrip("0").ljust(2, "0")
    return f"{whole:,}".replace(",", " ") + "." + decimals


def _round2_ratio(numerator: int, denominator: int) -> float:
    """``numerator / denominator`` rounded to 2 decimals from the exact fraction, as parts A and B are published."""
    return div_round_half_away(numerator * CENT, denominator) / CENT


RawScore = tuple[int, int, str, date, int, int, int, int, int]
"""A player's result while the list is built: (-delta, -end ordinal, tournament, end, place, N, hanchans, W, A).

Sorting these tuples gives the order among equally good tournaments: larger delta, later end, smaller id (see the
package's decisions). Plain tuples, because a list of 5 000 players builds tens of thousands of them.
"""


def build_frozen(cls: type, values: dict[str, Any], **more: Any) -> Any:
    """An instance of a frozen dataclass of this package from the values of all its fields, without its ``__init__``.

    A list of thousands of players builds tens of thousands of :class:`Score` and :class:`Entry` objects, and a
    frozen dataclass's ``__init__`` sets each field through ``object.__setattr__``; these classes have no
    ``__post_init__``, no slots and no defaults to fill, so filling ``__dict__`` gives an equal object.
    """
    instance = object.__new__(cls)
    instance.__dict__.update(values, **more)
    return instance


class PlayerPart:
    """A listed player's numbers that do not depend on MAXK: part A, the deltas of part B, every score, their text.

    They change only when one of the player's tournaments starts or stops counting, is corrected or changes its A;
    :class:`ListState` keeps them from one date to the next otherwise.
    """

    __slots__ = (
        "a_ids",
        "b_ids",
        "best_text",
        "k",
        "lines_en",
        "lines_ru",
        "n",
        "name",
        "player",
        "scores",
        "sum_delta_a",
        "sum_delta_b",
        "sum_wa",
    )

    def __init__(self, **values: Any) -> None:
        for key, value in values.items():
            setattr(self, key, value)


@dataclass(frozen=True)
class MaxKTotal:
    """The MAXK places of a list as of a date, their sum and the text part B's formula shows for them."""

    maxk: tuple[MaxK, ...]
    units: int
    text: str
    units_text: str


MaxKCandidate = tuple[int, int, str, int, int]
"""A counted tournament with a rated player, as :func:`maxk_total` takes it: (-W·A, -end ordinal, id, W, A)."""


def maxk_candidate(tournament: RatedTournament, a: int, coefficients: Coefficients) -> MaxKCandidate:
    """A counted tournament's claim to a MAXK place: the finalists' W times A; sorting puts the largest first, then
    the later end, then the smaller id. Only a tournament with a rated player makes one (the package's decisions)."""
    w = coefficients.finalist_w_cents
    return (-(w * a), -tournament.end_date.toordinal(), tournament.id, w, a)


def maxk_total(candidates: list[MaxKCandidate], settings: ListSettings) -> MaxKTotal:
    """`rules/mahjong.md`, "Part B": MAXK1..4 are the 4 (online 3) largest W·A of the list's tournaments with a
    rated player; a missing one counts as 1. ``candidates`` are (-W·A, -end ordinal, id, W, A), in any order."""
    chosen = sorted(candidates)[: settings.part_b_count]
    maxk = [_maxk(tid, w, a) for _, _, tid, w, a in chosen]
    maxk.extend(_maxk(None, CENT, A_FULL) for _ in range(settings.part_b_count - len(maxk)))
    units = sum(item.wa_units for item in maxk)
    return MaxKTotal(
        maxk=tuple(maxk),
        units=units,
        text=" + ".join(_fmt_units(item.wa_units, WA_UNIT) for item in maxk),
        units_text=_fmt_units(units, WA_UNIT),
    )


def score_line(
    *, tournament: str, end: str, place: int, players: int, w: float, a_percent: float, delta: float, marks: str
) -> tuple[str, str]:
    """One tournament's line of a player's explanation, in English and Russian (a published list's explanation is
    rebuilt from its stored numbers with it)."""
    numbers = f"W {w:.2f} · R {_fmt(base_rank(players, place))} · A {a_percent:.2f}% = {_fmt(delta)}" + (
        f" [{marks}]" if marks else ""
    )
    return (
        f"{tournament} ({end}, place {place} of {players}): {numbers}",
        f"{tournament} ({end}, {place} место из {players}): {numbers}",
    )


def player_part(player: str, name: str, raws: list[RawScore], settings: ListSettings) -> PlayerPart:
    """Part A, the deltas of part B, the scores and the per-tournament and part A lines of the explanation."""
    raws.sort()
    n = len(raws)
    k = part_a_size(n)
    deltas = [-raw[0] for raw in raws]
    weights = [raw[7] * raw[8] for raw in raws]

    # `rules/mahjong.md`, "Part A": part_A = sum(W_i R_i A_i) / sum(W_i A_i) over the best k; with n <= 5 every
    # missing tournament adds 0 to the numerator and 1 to the denominator.
    chosen_a = set(best_subset(deltas, weights, k))
    missing = max(FULL_WEIGHT_TOURNAMENTS - n, 0)
    sum_delta_a = sum(deltas[i] for i in chosen_a)
    sum_wa = sum(weights[i] for i in chosen_a) + missing * WA_UNIT

    # `rules/mahjong.md`, "Part B": the player's 4 (online 3) largest deltas.
    chosen_b = set(range(min(settings.part_b_count, n)))
    sum_delta_b = sum(deltas[i] for i in chosen_b)

    scores = [
        build_frozen(
            Score,
            {
                "tournament": tid,
                "end_date": end,
                "place": place,
                "players": players,
                "hanchans": hanchans,
                "w": w / CENT,
                "r": base_rank(players, place),
                "a": a / A_FULL,
                "delta": -minus_delta / CENT,
                "wa": w * a / WA_UNIT,
                "in_part_a": i in chosen_a,
                "in_part_b": i in chosen_b,
                "w_cents": w,
                "a_bp": a,
                "delta_cents": -minus_delta,
            },
        )
        for i, (minus_delta, _, tid, end, place, players, hanchans, w, a) in enumerate(raws)
    ]
    a_ids = tuple(scores[i].tournament for i in sorted(chosen_a))
    b_ids = tuple(scores[i].tournament for i in sorted(chosen_b))
    scores.sort(key=lambda score: (-score.end_date.toordinal(), score.tournament))
    final_scores = tuple(scores)

    en: list[str] = []
    ru: list[str] = []
    for score in final_scores:
        line_en, line_ru = score_line(
            tournament=score.tournament,
            end=score.end_date.isoformat(),
            place=score.place,
            players=score.players,
            w=score.w,
            a_percent=score.a_percent,
            delta=score.delta,
            marks=("A" if score.in_part_a else "") + ("B" if score.in_part_b else ""),
        )
        en.append(line_en)
        ru.append(line_ru)
    padding_en = f" + {missing} missing, 0 / 1 each" if missing else ""
    padding_ru = f" + {missing} недостающих, по 0 / 1" if missing else ""
    part_a_rounded = _round2_ratio(sum_delta_a * A_FULL, sum_wa)
    numbers_a = f"{_fmt(sum_delta_a / CENT)} / {_fmt_units(sum_wa, WA_UNIT)} = {_fmt(part_a_rounded)}"
    en.append(f"part A (best {k} of {n}{padding_en}) = (Σ W·R·A) / (Σ W·A) = {numbers_a}")
    ru.append(f"часть A (лучшие {k} из {n}{padding_ru}) = (Σ W·R·A) / (Σ W·A) = {numbers_a}")
    count = settings.part_b_count
    best = sorted((score.delta_cents for score in final_scores if score.in_part_b), reverse=True)
    best_text = " + ".join([*(_fmt(delta / CENT) for delta in best), *("0" for _ in range(count - len(best)))])
    return PlayerPart(
        player=player,
        name=name,
        n=n,
        k=k,
        sum_delta_a=sum_delta_a,
        sum_wa=sum_wa,
        sum_delta_b=sum_delta_b,
        scores=final_scores,
        a_ids=a_ids,
        b_ids=b_ids,
        lines_en=en,
        lines_ru=ru,
        best_text=best_text,
    )


def player_finish(part: PlayerPart, total: MaxKTotal, settings: ListSettings) -> tuple[Fraction, dict[str, Any]]:
    """The rating of one player and the fields of the :class:`Entry` but its rank, filled in once all are ranked.

    Exact in integers: part A = nA / dA, part B = nB / dB, rating = (nA dB + nB dA) / (2 dA dB).
    """
    numerator_a = part.sum_delta_a * A_FULL
    denominator_a = part.sum_wa
    # `rules/mahjong.md`, "Part B": part_B = (the player's 4 (online 3) largest deltas) / (MAXK1 + ... + MAXK4).
    numerator_b = part.sum_delta_b * A_FULL
    denominator_b = total.units
    # `rules/mahjong.md`, "Result": rating = 0.5 part_A + 0.5 part_B, rounded to 2 decimals.
    numerator = numerator_a * denominator_b + numerator_b * denominator_a
    denominator = 2 * denominator_a * denominator_b
    part_a = _round2_ratio(numerator_a, denominator_a)
    part_b = _round2_ratio(numerator_b, denominator_b)
    rating = _round2_ratio(numerator, denominator)

    count = settings.part_b_count
    numbers_b = (
        f"({part.best_text}) / ({total.text}) = {_fmt(part.sum_delta_b / CENT)} / {total.units_text} = {_fmt(part_b)}"
    )
    numbers = (
        f"0.5 · {_fmt(numerator_a / denominator_a, 4)} + 0.5 · {_fmt(numerator_b / denominator_b, 4)} = {_fmt(rating)}"
    )
    en = [
        *part.lines_en,
        f"part B = (the {count} largest W·R·A) / (MAXK1 + … + MAXK{count}) = {numbers_b}",
        f"rating = 0.5 · part A + 0.5 · part B = {numbers}",
    ]
    ru = [
        *part.lines_ru,
        f"часть B = ({count} наибольших W·R·A) / (MAXK1 + … + MAXK{count}) = {numbers_b}",
        f"рейтинг = 0.5 · часть A + 0.5 · часть B = {numbers}",
    ]
    return Fraction(numerator, denominator), dict(
        player=part.player,
        name=part.name,
        rating=rating,
        part_a=part_a,
        part_b=part_b,
        rating_unrounded=numerator / denominator,
        tournaments=part.n,
        part_a_size=part.k,
        scores=part.scores,
        part_a_tournaments=part.a_ids,
        part_b_tournaments=part.b_ids,
        explanation=Explanation(en="\n".join(en), ru="\n".join(ru)),
    )


def tournament_raws(
    tournament: RatedTournament,
    a: int,
    coefficients: Coefficients,
    settings: ListSettings,
    countries: Mapping[str, str],
    results: Iterable[Placement] | None = None,
) -> list[tuple[str, RawScore]]:
    """Every rated result of a counted tournament with A (hundredths of a percent) as (player, raw).

    ``results``: only these of the tournament's results (a few players' entries), all of them when None.
    """
    found: list[tuple[str, RawScore]] = []
    end = tournament.end_date
    minus_end = -end.toordinal()
    for result in tournament.results if results is None else results:
        player = result.player
        if player is None or not is_rated(player, settings, countries):
            continue
        hanchans = result.hanchans if tournament.is_cutoff and result.hanchans else tournament.hanchans
        w = coefficients.w_cents(hanchans if tournament.is_cutoff else None)
        d = delta_cents(w, tournament.players, result.place, a)
        found.append((player, (-d, minus_end, tournament.id, end, result.place, tournament.players, hanchans, w, a)))
    return found


def rank_exactly(
    ranked: list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]],
) -> list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]]:
    """Sort by (-rating, name, id) with the exact rating, comparing fractions only where the floats tie.

    The float of a rating is its correctly rounded value, so a larger exact rating never has a smaller float: the
    order by float is the exact order except inside runs of equal floats, which are sorted again on the exact value.
    """
    ranked.sort(key=lambda item: item[0])
    start = 0
    count = len(ranked)
    while start < count:
        stop = start + 1
        while stop < count and ranked[stop][0] == ranked[start][0]:
            stop += 1
        if stop - start > 1:
            ranked[start:stop] = sorted(ranked[start:stop], key=lambda item: (-item[3][0], item[1], item[2]))
        start = stop
    return ranked
