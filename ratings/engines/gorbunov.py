"""Gorbunov rating for collectible card games: one tournament, one rating week, a whole season.

The rules are `rules/gorbunov.md`; this module is their executable form. It is pure Python so that the weekly
publication, the full rebuild, the "what if I take place M" calculator and ``manage.py rate`` all run the very same
arithmetic, and a player can read the explanation that comes with every change.

Arithmetic is exact: ``base`` is kept as a whole-number numerator over the common denominator ``800·U`` (the
fractions U/4, U/8, Rt = sum/U and (U + 4)/200 all divide it), so a change that lies exactly half-way between two
whole numbers is rounded away from zero as the rules say, never by the accident of a binary float.

Decisions taken here where `rules/gorbunov.md` is silent (the rules' own Decisions are followed as written):

- A tournament below the minimum number of participants (``GorbunovSettings.min_participants``, 4 by default, at
  least 2) is *not rated*: nobody's rating moves, and its outcome carries ``rated=False`` with the reason in both
  languages. It is still validated, so a bad place is refused whatever the size.
- K may be any positive whole number: the engine does not police the levels 1, 2, 3, 4, 8, 16 of the K table (who may
  set which K is a permission of the site, not arithmetic). The draft bonus (+1) applies when the format is
  ``draft`` and the date is on or after ``GorbunovSettings.draft_bonus_since`` (2004-04-01).
- A rating given below the newcomer's 100 is refused: the floor makes such a rating impossible, and rule 5 would
  otherwise hand that player a gain they did not play for.
- The week's explanation: a player's new rating is ``max(100, Rs + sum of I)``; ``WeekOutcome.new_ratings`` holds
  only the players who played that week, everyone else keeps their rating.
- The tournaments of one week are rated in date order and, on the same date, in the order given; the order does not
  change any number (all use the start-of-week ratings), only the order of the listed changes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ratings.engines.common import EngineError, Explanation, div_round_half_away
from ratings.engines.parse import (
    integral,
    is_date,
    is_whole,
    parse_bool,
    parse_date,
    parse_list,
    parse_map,
    parse_object,
    require,
)

#: `rules/gorbunov.md`, "Symbols": a newcomer starts at 100, and rule 5 keeps every rating at or above it.
START_RATING = 100
FLOOR = 100

#: Names of the common-sense and optional rules, as they appear in ``Change.rules``.
RULE_WINNER = "winner_gains_at_least_3"
RULE_FINALIST = "finalist_cannot_lose"
RULE_SECOND_TO_LAST = "second_to_last_cannot_gain"
RULE_LAST = "last_loses_at_least_3"
RULE_SQRT = "square_root_rule"
RULE_SEALED = "sealed_cap"
RULE_FLOOR = "floor_100"

_RULE_TEXT = {
    RULE_WINNER: (
        "rule 1: the winner gains at least 3 (before K)",
        "правило 1: победитель получает не меньше 3 (до умножения на K)",
    ),
    RULE_FINALIST: (
        "rule 2: the second place cannot lose",
        "правило 2: второе место не может потерять рейтинг",
    ),
    RULE_SECOND_TO_LAST: (
        "rule 3: the second-to-last place cannot gain",
        "правило 3: предпоследнее место не может получить рейтинг",
    ),
    RULE_LAST: (
        "rule 4: the last place loses at least 3 (before K)",
        "правило 4: последнее место теряет не меньше 3 (до умножения на K)",
    ),
    RULE_SQRT: (
        "square-root rule: a place not worse than √U cannot lose",
        "правило квадратного корня: место не хуже √U не теряет рейтинг",
    ),
    RULE_SEALED: (
        "sealed cap: nobody loses more than half of what they hold above 100",
        "ограничение силеда: нельзя потерять больше половины рейтинга сверх 100",
    ),
    RULE_FLOOR: (
        "rule 5: a rating never falls below 100",
        "правило 5: рейтинг не опускается ниже 100",
    ),
}


@dataclass(frozen=True, slots=True)
class GorbunovSettings:
    """The parameters of one Gorbunov rating list (`rules/gorbunov.md`, "Optional rules" and "Decision (size)")."""

    min_participants: int = 4
    draft_bonus_since: dt.date = dt.date(2004, 4, 1)
    sqrt_rule: bool = False
    sealed_cap: bool = True

    def __post_init__(self) -> None:
        # Below 2 the winner would also be the last place, and rules 1 and 4 contradict each other.
        if not is_whole(self.min_participants) or self.min_participants < 2:
            raise EngineError("settings.min_participants", f"{self.min_participants!r} is not a whole number >= 2")
        if not is_date(self.draft_bonus_since):
            raise EngineError("settings.draft_bonus_since", f"{self.draft_bonus_since!r} is not a date")


DEFAULT_SETTINGS = GorbunovSettings()


@dataclass(frozen=True, slots=True)
class Placement:
    """One line of a tournament's final ranking."""

    player: str
    place: int


@dataclass(frozen=True, slots=True)
class RatedTournament:
    """A tournament as the engine needs it. ``sqrt_rule=None`` and ``sealed_cap=None`` follow the rating list's
    setting; ``True``/``False`` is the tournament's own optional rule, set by federation staff."""

    id: str
    date: dt.date
    k: int
    results: tuple[Placement, ...]
    format: str = ""
    sqrt_rule: bool | None = None
    sealed_cap: bool | None = None


@dataclass(frozen=True, slots=True)
class TournamentContext:
    """What every change of one tournament shares; kept once, not copied into each change."""

    tournament_id: str
    participants: int
    strength_total: int
    k_given: int
    k: int
    draft_bonus: bool
    sealed: bool
    sqrt_rule: bool

    @property
    def strength(self) -> float:
        """Rt, the mean of the start-of-week ratings of all participants."""
        return self.strength_total / self.participants


@dataclass(frozen=True, slots=True)
class Change:
    """One player's change from one tournament: ``delta`` is I, ``before`` is Rs.

    ``base_numerator / (800 * participants)`` is the exact base after the common-sense rules 1-4; ``rules`` names
    every rule that changed the number, in the order applied.
    """

    context: TournamentContext
    player: str
    place: int
    before: int
    delta: int
    base_numerator: int
    raw_numerator: int
    rules: tuple[str, ...]

    @property
    def tournament_id(self) -> str:
        return self.context.tournament_id

    @property
    def after(self) -> int:
        return self.before + self.delta

    @property
    def base(self) -> float:
        return self.base_numerator / (800 * self.context.participants)

    @property
    def explanation(self) -> Explanation:
        return explain_change(self)


@dataclass(frozen=True, slots=True)
class TournamentOutcome:
    """A tournament's changes, or ``rated=False`` and the reason why it does not count."""

    tournament: RatedTournament
    rated: bool
    changes: tuple[Change, ...]
    reason: Explanation | None = None


@dataclass(frozen=True, slots=True)
class WeekOutcome:
    """One rating week: each tournament's changes, each player's sum of I and new rating.

    ``new_ratings`` holds the players who played a rated tournament that week; everyone else keeps their rating.
    """

    week_start: dt.date | None
    tournaments: tuple[TournamentOutcome, ...]
    totals: Mapping[str, int]
    before: Mapping[str, int]
    new_ratings: Mapping[str, int]

    def explanation(self, player: str) -> Explanation:
        """`rules/gorbunov.md`, "Weekly publication": Rn = max(100, Rs + sum of I)."""
        before = self.before[player]
        deltas = [c.delta for t in self.tournaments for c in t.changes if c.player == player]
        after = self.new_ratings[player]
        sum_text = " + ".join(_signed_paren(d) for d in deltas) or "0"
        floored = before + sum(deltas) < FLOOR
        en = f"Rn = max(100, Rs + sum of I) = max(100, {before} + {sum_text}) = {after}"
        ru = f"Rn = max(100, Rs + сумма I) = max(100, {before} + {sum_text}) = {after}"
        if floored:
            en += f"; {_RULE_TEXT[RULE_FLOOR][0]}"
            ru += f"; {_RULE_TEXT[RULE_FLOOR][1]}"
        return Explanation(en, ru)


@dataclass(frozen=True, slots=True)
class SeasonOutcome:
    """Every week of a season in date order, and the ratings after the last week (every player named)."""

    weeks: tuple[WeekOutcome, ...]
    ratings: Mapping[str, int]

    @property
    def changes(self) -> Iterable[Change]:
        for week in self.weeks:
            for outcome in week.tournaments:
                yield from outcome.changes


def week_start(day: dt.date) -> dt.date:
    """The Monday of the rating week that contains ``day`` (`rules/gorbunov.md`, "Weekly publication")."""
    return day - dt.timedelta(days=day.weekday())


def effective_k(tournament: RatedTournament, settings: GorbunovSettings = DEFAULT_SETTINGS) -> int:
    """`rules/gorbunov.md`, "RatedTournament coefficient K": draft tournaments from April 2004 on add 1 to K."""
    return tournament.k + (1 if _draft_bonus(tournament, settings) else 0)


def rate_tournament(
    tournament: RatedTournament,
    ratings: Mapping[str, int],
    settings: GorbunovSettings = DEFAULT_SETTINGS,
    *,
    path: str = "tournament",
) -> TournamentOutcome:
    """Rate one tournament from the ratings valid at the start of its rating week.

    ``ratings`` need not name newcomers: they count with 100. ``path`` prefixes the field paths of errors.
    """
    _validate_settings(settings)
    _validate_tournament(tournament, path)
    _validate_ratings_of(tournament, ratings)
    return _rate_valid_tournament(tournament, ratings, settings)


def rate_week(
    ratings: Mapping[str, int],
    tournaments: Sequence[RatedTournament],
    settings: GorbunovSettings = DEFAULT_SETTINGS,
    *,
    path: str = "tournaments",
) -> WeekOutcome:
    """Rate the tournaments of one rating week, all from ``ratings`` (the ratings valid at the week's start).

    `rules/gorbunov.md`, "Weekly publication": all tournaments of the week use the same Rs; the new rating is
    ``max(100, Rs + sum of I)``. The caller chooses which tournaments belong to the week (a late result is rated
    with the ratings of the week it was played, see "Decision (late results)").
    """
    _validate_settings(settings)
    _validate_ratings(ratings)
    _validate_all(tournaments, path)
    items = sorted(enumerate(tournaments), key=lambda item: (item[1].date, item[0]))
    starts = {week_start(t.date) for _, t in items}
    start = min(starts) if starts else None
    return _rate_valid_week(ratings, [t for _, t in items], settings, start)


def rate_season(
    ratings: Mapping[str, int],
    tournaments: Sequence[RatedTournament],
    settings: GorbunovSettings = DEFAULT_SETTINGS,
    *,
    path: str = "tournaments",
) -> SeasonOutcome:
    """Rate tournaments week by week in date order, as the weekly publications do (and as a full rebuild must).

    ``ratings`` are the ratings valid before the first tournament; anyone else starts at 100. The result's
    ``ratings`` names every player of ``ratings`` and of the results.
    """
    _validate_settings(settings)
    _validate_ratings(ratings)
    _validate_all(tournaments, path)
    current: dict[str, int] = dict(ratings)
    by_week: dict[dt.date, list[tuple[int, RatedTournament]]] = {}
    for index, tournament in enumerate(tournaments):
        by_week.setdefault(week_start(tournament.date), []).append((index, tournament))
    weeks = []
    for start in sorted(by_week):
        items = sorted(by_week[start], key=lambda item: (item[1].date, item[0]))
        week = _rate_valid_week(current, [t for _, t in items], settings, start)
        current.update(week.new_ratings)
        weeks.append(week)
    for tournament in tournaments:
        for placement in tournament.results:
            current.setdefault(placement.player, START_RATING)
    return SeasonOutcome(weeks=tuple(weeks), ratings=current)


# --- the arithmetic -------------------------------------------------------------------------------------------------


def _rate_valid_week(
    ratings: Mapping[str, int],
    tournaments: Sequence[RatedTournament],
    settings: GorbunovSettings,
    start: dt.date | None,
) -> WeekOutcome:
    outcomes = []
    totals: dict[str, int] = {}
    before: dict[str, int] = {}
    get = ratings.get
    for tournament in tournaments:
        outcome = _rate_valid_tournament(tournament, ratings, settings)
        outcomes.append(outcome)
        for change in outcome.changes:
            player = change.player
            totals[player] = totals.get(player, 0) + change.delta
            before[player] = change.before
    new_ratings = {}
    for player, total in totals.items():
        rating = get(player, START_RATING) + total
        new_ratings[player] = rating if rating > FLOOR else FLOOR
    return WeekOutcome(
        week_start=start, tournaments=tuple(outcomes), totals=totals, before=before, new_ratings=new_ratings
    )


def _rate_valid_tournament(
    tournament: RatedTournament, ratings: Mapping[str, int], settings: GorbunovSettings
) -> TournamentOutcome:
    results = tournament.results
    u = len(results)
    if u < settings.min_participants:
        return TournamentOutcome(
            tournament=tournament,
            rated=False,
            changes=(),
            reason=Explanation(
                f"not rated: {u} participants, a tournament needs at least {settings.min_participants}",
                f"не обсчитывается: участников {u}, нужно не меньше {settings.min_participants}",
            ),
        )
    get = ratings.get
    before = [get(p.player, START_RATING) for p in results]
    total = sum(before)
    draft = _draft_bonus(tournament, settings)
    k = tournament.k + (1 if draft else 0)
    sealed_cap = settings.sealed_cap if tournament.sealed_cap is None else tournament.sealed_cap
    sealed = sealed_cap and tournament.format == "sealed"
    sqrt_rule = settings.sqrt_rule if tournament.sqrt_rule is None else tournament.sqrt_rule
    context = TournamentContext(
        tournament_id=tournament.id,
        participants=u,
        strength_total=total,
        k_given=tournament.k,
        k=k,
        draft_bonus=draft,
        sealed=sealed,
        sqrt_rule=sqrt_rule,
    )
    # `rules/gorbunov.md`, "Formula", over the common denominator den = 800·U:
    #   base = U + 1 - 2M + U/4 (winner) + U/8 (second) + (Rt - Rs)(U + 4)/200,  Rt = total / U.
    den = 800 * u
    three = 3 * den
    strength_factor = 4 * (u + 4)
    winner_bonus = 200 * u * u
    second_bonus = 100 * u * u
    changes = []
    for placement, rs in zip(results, before, strict=True):
        m = placement.place
        raw = den * (u + 1 - 2 * m) + strength_factor * (total - rs * u)
        if m == 1:
            raw += winner_bonus
        elif m == 2:
            raw += second_bonus
        numerator = raw
        applied: list[str] = []
        # `rules/gorbunov.md`, "Common-sense rules", Decision (order): rules 2 and 3 first, then 1 and 4.
        if m == 2 and numerator < 0:
            numerator = 0
            applied.append(RULE_FINALIST)
        if m == u - 1 and numerator > 0:
            numerator = 0
            applied.append(RULE_SECOND_TO_LAST)
        if m == 1 and numerator < three:
            numerator = three
            applied.append(RULE_WINNER)
        if m == u and numerator > -three:
            numerator = -three
            applied.append(RULE_LAST)
        # "Decision (rounding and floor)": I = round(base·K), half away from zero; exact on whole numbers.
        scaled = numerator * k
        delta = div_round_half_away(scaled, den)
        if sqrt_rule and delta < 0 and m * m <= u:
            delta = 0
            applied.append(RULE_SQRT)
        if sealed:
            cap = -((rs - FLOOR) // 2)
            if delta < cap:
                delta = cap
                applied.append(RULE_SEALED)
        if delta < FLOOR - rs:
            delta = FLOOR - rs
            applied.append(RULE_FLOOR)
        changes.append(Change(context, placement.player, m, rs, delta, numerator, raw, tuple(applied)))
    return TournamentOutcome(tournament=tournament, rated=True, changes=tuple(changes))


def _draft_bonus(tournament: RatedTournament, settings: GorbunovSettings) -> bool:
    return tournament.format == "draft" and tournament.date >= settings.draft_bonus_since


# --- explanations ---------------------------------------------------------------------------------------------------


def _num(value: float) -> str:
    """A number as a person writes it: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _signed_paren(value: float) -> str:
    text = _num(value)
    return f"({text})" if value < 0 else text


def explain_change(change: Change) -> Explanation:
    """A change's explanation in both languages: the formula with its numbers (`rules/gorbunov.md`)."""
    ctx = change.context
    u, m, rs, k = ctx.participants, change.place, change.before, ctx.k
    rt = ctx.strength
    den = 800 * u
    raw = change.raw_numerator / den
    base = change.base_numerator / den
    terms_sym = "U + 1 - 2M"
    terms_num = f"{u} + 1 - {2 * m}"
    if m == 1:
        terms_sym += " + U/4"
        terms_num += f" + {_num(u / 4)}"
    elif m == 2:
        terms_sym += " + U/8"
        terms_num += f" + {_num(u / 8)}"
    formula_sym = f"base = {terms_sym} + (Rt - Rs)(U + 4)/200"
    formula_num = f"{terms_num} + ({_num(rt)} - {rs})·{u + 4}/200 = {_num(raw)}"
    base_rules = [r for r in change.rules if r in (RULE_WINNER, RULE_FINALIST, RULE_SECOND_TO_LAST, RULE_LAST)]
    after_rules = [r for r in change.rules if r not in base_rules]
    k_en = f"K = {k}" + (f" ({ctx.k_given} + 1 for a draft)" if ctx.draft_bonus else "")
    k_ru = f"K = {k}" + (f" ({ctx.k_given} + 1 за драфт)" if ctx.draft_bonus else "")
    rounded = base * k
    rounded_delta = div_round_half_away(change.base_numerator * k, den)
    en = [
        f"U = {u} participants, place M = {m}, your start-of-week rating Rs = {rs}",
        f"tournament strength Rt = mean of the start-of-week ratings = {ctx.strength_total}/{u} = {_num(rt)}",
        f"{formula_sym} = {formula_num}",
    ]
    ru = [
        f"U = {u} участников, место M = {m}, рейтинг на начало недели Rs = {rs}",
        f"сила турнира Rt = среднее рейтингов на начало недели = {ctx.strength_total}/{u} = {_num(rt)}",
        f"{formula_sym} = {formula_num}",
    ]
    for rule in base_rules:
        en.append(f"{_RULE_TEXT[rule][0]}, so base = {_num(base)}")
        ru.append(f"{_RULE_TEXT[rule][1]}, поэтому base = {_num(base)}")
    en.append(f"{k_en}; I = round(base·K) = round({_num(base)}·{k}) = round({_num(rounded)}) = {rounded_delta}")
    ru.append(f"{k_ru}; I = round(base·K) = round({_num(base)}·{k}) = round({_num(rounded)}) = {rounded_delta}")
    for rule in after_rules:
        if rule == RULE_SEALED:
            detail = f"-floor(({rs} - 100)/2) = {-((rs - FLOOR) // 2)}"
        elif rule == RULE_FLOOR:
            detail = f"100 - {rs} = {FLOOR - rs}"
        else:
            detail = f"{m}² <= {u}"
        en.append(f"{_RULE_TEXT[rule][0]}: I = {change.delta} ({detail})")
        ru.append(f"{_RULE_TEXT[rule][1]}: I = {change.delta} ({detail})")
    en.append(f"after this tournament: {rs} + {_signed_paren(change.delta)} = {change.after}")
    ru.append(f"после турнира: {rs} + {_signed_paren(change.delta)} = {change.after}")
    return Explanation("; ".join(en), "; ".join(ru))


# --- validation -----------------------------------------------------------------------------------------------------


def _validate_settings(settings: GorbunovSettings) -> None:
    if not isinstance(settings, GorbunovSettings):
        raise EngineError("settings", "not a GorbunovSettings")


def _validate_ratings(ratings: Mapping[str, int]) -> None:
    for player, rating in ratings.items():
        _check_rating(rating, f"ratings.{player}")


def _check_rating(rating: Any, where: str) -> None:
    if not is_whole(rating):
        raise EngineError(where, f"{rating!r} is not a whole number")
    if rating < FLOOR:
        raise EngineError(where, f"{rating} is below the floor of {FLOOR}")


def _validate_ratings_of(tournament: RatedTournament, ratings: Mapping[str, int]) -> None:
    for placement in tournament.results:
        if placement.player in ratings:
            _check_rating(ratings[placement.player], f"ratings.{placement.player}")


def _validate_all(tournaments: Sequence[RatedTournament], path: str) -> None:
    seen: dict[str, int] = {}
    for index, tournament in enumerate(tournaments):
        where = f"{path}[{index}]"
        _validate_tournament(tournament, where)
        if tournament.id in seen:
            raise EngineError(f"{where}.id", f'"{tournament.id}" is also {path}[{seen[tournament.id]}]')
        seen[tournament.id] = index


def _validate_tournament(tournament: RatedTournament, where: str) -> None:
    """`rules/gorbunov.md`, "Decision (size)": places are distinct whole numbers 1..U, a player appears once."""
    if not isinstance(tournament, RatedTournament):
        raise EngineError(where, "not a tournament")
    if not isinstance(tournament.id, str) or not tournament.id:
        raise EngineError(f"{where}.id", f"{tournament.id!r} is not a non-empty string")
    if not is_date(tournament.date):
        raise EngineError(f"{where}.date", f"{tournament.date!r} is not a date")
    if not is_whole(tournament.k) or tournament.k < 1:
        raise EngineError(f"{where}.k", f"{tournament.k!r} is not a positive whole number")
    if not isinstance(tournament.format, str):
        raise EngineError(f"{where}.format", f"{tournament.format!r} is not a string")
    if tournament.sqrt_rule is not None:
        parse_bool(tournament.sqrt_rule, f"{where}.sqrt_rule")
    if tournament.sealed_cap is not None:
        parse_bool(tournament.sealed_cap, f"{where}.sealed_cap")
    results = tournament.results
    u = len(results)
    places: dict[int, int] = {}
    players: dict[str, int] = {}
    for index, placement in enumerate(results):
        at = f"{where}.results[{index}]"
        player, place = placement.player, placement.place
        if not isinstance(player, str) or not player:
            raise EngineError(f"{at}.player", f"{player!r} is not a non-empty string")
        if not is_whole(place):
            raise EngineError(f"{at}.place", f"{place!r} is not a whole number")
        if place < 1:
            raise EngineError(f"{at}.place", f"{place} is smaller than 1")
        if place > u:
            raise EngineError(f"{at}.place", f"{place} is larger than players ({u})")
        if place in places:
            raise EngineError(f"{at}.place", f"{place} is also the place of results[{places[place]}]; ties are refused")
        if player in players:
            raise EngineError(f"{at}.player", f'"{player}" is also results[{players[player]}]')
        places[place] = index
        players[player] = index


# --- manage.py rate -------------------------------------------------------------------------------------------------


def rate_document(doc: dict) -> dict:
    """The ``gorbunov`` section of `RATE_CLI.md`: a JSON document in, a JSON document out.

    Options: ``sqrt_rule``, ``sealed_cap`` (default true; both may also be set per tournament, overriding the
    list's), ``min_participants`` (default 4),
    ``draft_bonus_since`` (default 2004-04-01). Besides the documented keys the output has ``excluded`` (only when
    a tournament is too small to be rated, with the reason) and each change has ``after`` and ``explanation``.
    """
    parse_object(doc, "document")
    system = doc.get("system", "gorbunov")
    if system != "gorbunov":
        raise EngineError("system", f'{system!r} is not "gorbunov"')
    ratings = parse_map(doc.get("ratings", {}), "ratings", _parse_rating, what="rating")
    settings = _parse_options(doc.get("options", {}))
    raw_tournaments = parse_list(doc.get("tournaments", []), "tournaments")
    tournaments = [_parse_tournament(raw, f"tournaments[{i}]") for i, raw in enumerate(raw_tournaments)]
    season = rate_season(ratings, tournaments, settings)
    changes = []
    excluded = []
    for week in season.weeks:
        for outcome in week.tournaments:
            if not outcome.rated:
                excluded.append({"tournament": outcome.tournament.id, "reason": outcome.reason.as_dict()})
            for change in outcome.changes:
                changes.append(
                    {
                        "tournament": change.tournament_id,
                        "player": change.player,
                        "before": change.before,
                        "delta": change.delta,
                        "after": change.after,
                        "explanation": change.explanation.as_dict(),
                    }
                )
    result: dict[str, Any] = {"ratings": dict(season.ratings), "changes": changes}
    if excluded:
        result["excluded"] = excluded
    return result


def document_errors(doc: Any) -> list[EngineError]:
    """Every mistake of a ``gorbunov`` document, each naming its field (``rate_document`` stops at the first):
    what ``manage.py import_history`` reports before it saves anything."""
    errors: list[EngineError] = []

    def attempt(function, *args):
        try:
            return function(*args)
        except EngineError as error:
            errors.append(error)
            return None

    if attempt(parse_object, doc, "document") is None:
        return errors
    system = doc.get("system", "gorbunov")
    if system != "gorbunov":
        errors.append(EngineError("system", f'{system!r} is not "gorbunov"'))
    ratings = doc.get("ratings", {})
    if attempt(parse_object, ratings, "ratings") is not None:
        for player, value in ratings.items():
            attempt(_parse_rating, value, f"ratings.{player}")
    attempt(_parse_options, doc.get("options", {}))
    raw_tournaments = attempt(parse_list, doc.get("tournaments", []), "tournaments") or []
    seen: dict[str, int] = {}
    for index, raw in enumerate(raw_tournaments):
        where = f"tournaments[{index}]"
        before = len(errors)
        tournament = attempt(_parse_tournament, raw, where)
        if tournament is not None:
            attempt(_validate_tournament, tournament, where)
        if len(errors) > before:
            continue
        if tournament.id in seen:
            errors.append(EngineError(f"{where}.id", f'"{tournament.id}" is also tournaments[{seen[tournament.id]}]'))
            continue
        seen[tournament.id] = index
    return errors


def _parse_rating(value: Any, where: str) -> int:
    value = integral(value)
    _check_rating(value, where)
    return value


def _parse_options(raw: Any) -> GorbunovSettings:
    parse_object(raw, "options")
    kwargs: dict[str, Any] = {}
    for name in ("sqrt_rule", "sealed_cap"):
        if name in raw:
            kwargs[name] = parse_bool(raw[name], f"options.{name}")
    if "min_participants" in raw:
        value = raw["min_participants"]
        if not is_whole(value) or value < 2:
            raise EngineError("options.min_participants", f"{value!r} is not a whole number >= 2")
        kwargs["min_participants"] = value
    if "draft_bonus_since" in raw:
        kwargs["draft_bonus_since"] = parse_date(raw["draft_bonus_since"], "options.draft_bonus_since")
    return GorbunovSettings(**kwargs)


def _parse_tournament(raw: Any, where: str) -> RatedTournament:
    """The tournament as given; :func:`rate_season` checks its values with the same field names."""
    parse_object(raw, where)
    tournament_id = require(raw, "id", where)
    date = parse_date(require(raw, "date", where), f"{where}.date")
    k = require(raw, "k", where)
    raw_results = parse_list(require(raw, "results", where), f"{where}.results")
    results = []
    for index, line in enumerate(raw_results):
        at = f"{where}.results[{index}]"
        parse_object(line, at)
        results.append(Placement(player=require(line, "player", at), place=require(line, "place", at)))
    tournament_format = raw.get("format")
    return RatedTournament(
        id=tournament_id,
        date=date,
        k=k,
        results=tuple(results),
        format="" if tournament_format is None else tournament_format,
        sqrt_rule=raw.get("sqrt_rule"),
        sealed_cap=raw.get("sealed_cap"),
    )


__all__ = [
    "DEFAULT_SETTINGS",
    "FLOOR",
    "START_RATING",
    "Change",
    "GorbunovSettings",
    "Placement",
    "RatedTournament",
    "SeasonOutcome",
    "TournamentContext",
    "TournamentOutcome",
    "WeekOutcome",
    "document_errors",
    "effective_k",
    "explain_change",
    "rate_document",
    "rate_season",
    "rate_tournament",
    "rate_week",
    "week_start",
]
