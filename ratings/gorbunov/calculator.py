""" "What if I take place M": the change for every place of a tournament of U players with strength Rt and
coefficient K, computed by the engine itself (the calculator page's JavaScript only asks and shows).

The engine rates a whole field, so the calculator builds one: you with your rating, and U - 1 others whose ratings
sum to ``round(Rt·U) - your rating`` (all at least 100), which gives exactly the Rt asked for (to the nearest
whole sum). Only your change is read back.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from django.utils.translation import gettext as _

from federation import bounds
from federation.formatting import plain_explanation
from ratings.engines.common import FieldError, div_round_half_away, shown
from ratings.engines.gorbunov import FLOOR, Placement, RatedTournament, rate_tournament, week_start
from ratings.gorbunov.params import engine_settings
from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot
from tournaments.models import CardFormat

MAX_PARTICIPANTS = 256


class CalculatorError(FieldError):
    """A calculator input the page must ask again for, named by its query parameter."""


def changes_for_every_place(
    *,
    rating_list: RatingList | None,
    u: int,
    rt: float,
    k: int,
    rating: int,
    card_format: str,
    day: dt.date,
    language: str,
) -> dict:
    if not 2 <= u <= MAX_PARTICIPANTS:
        raise CalculatorError("u", _("U must be between 2 and %(max)s.") % {"max": MAX_PARTICIPANTS})
    if not 1 <= k <= bounds.GORBUNOV_K_MAX:
        raise CalculatorError("k", _("K must be between 1 and %(max)s.") % {"max": bounds.GORBUNOV_K_MAX})
    if not FLOOR <= rating <= bounds.GORBUNOV_RATING_MAX:
        raise CalculatorError("rating", _("A rating is between 100 and %(max)s.") % {"max": bounds.GORBUNOV_RATING_MAX})
    if not 0 < rt <= bounds.GORBUNOV_RATING_MAX:
        raise CalculatorError("rt", _("Rt is between 100 and %(max)s.") % {"max": bounds.GORBUNOV_RATING_MAX})
    if card_format not in {"", *CardFormat.values}:
        raise CalculatorError("format", _("Unknown format."))
    exact = Fraction(repr(rt))  # the decimal as typed, not the binary float
    total = div_round_half_away(exact.numerator * u, exact.denominator)
    others = total - rating
    if others < FLOOR * (u - 1):
        lowest = shown(rating + FLOOR * (u - 1), u, 2)
        raise CalculatorError(
            "rt", _("With your rating of %(rating)s, Rt cannot be below %(min)s.") % {"rating": rating, "min": lowest}
        )
    settings = engine_settings(rating_list.params if rating_list else {})
    share, extra = divmod(others, u - 1)
    ratings = {"you": rating}
    for i in range(u - 1):
        ratings[f"o{i}"] = share + (1 if i < extra else 0)
    places = []
    for place in range(1, u + 1):
        order = [f"o{i}" for i in range(u - 1)]
        order.insert(place - 1, "you")
        tournament = RatedTournament(
            id="calculator",
            date=day,
            k=k,
            format=card_format,
            results=tuple(Placement(p, m) for m, p in enumerate(order, start=1)),
        )
        outcome = rate_tournament(tournament, ratings, settings)
        if not outcome.rated:
            note = outcome.reason.in_language(language)
            return {"u": u, "rt": shown(total, u, 4), "k": k, "rating": rating, "places": [], "note": note}
        change = next(c for c in outcome.changes if c.player == "you")
        places.append(
            {
                "place": place,
                "delta": change.delta,
                "after": change.after,
                "base": shown(change.base_numerator, 800 * u, 4),
                "rules": list(change.rules),
                # As on every page: words for the rules' names ("основа", not "base") and the reader's numbers.
                "explanation": plain_explanation(change.explanation.in_language(language), language),
            }
        )
    k_effective = outcome.changes[0].context.k
    return {"u": u, "rt": shown(total, u, 4), "k": k, "k_effective": k_effective, "rating": rating, "places": places}


def tournament_inputs(*, rating_list: RatingList | None, tournament) -> dict:
    """U, Rt, K and the format of a real tournament; Rt from the ratings valid in its week in ``rating_list``."""
    players = list(tournament.results.values_list("player_id", flat=True))
    u = len(players)
    total = None
    if rating_list is not None:
        change = RatingChange.objects.filter(rating_list=rating_list, tournament=tournament).first()
        if change is not None:
            total = change.details.get("Rt_total")
        if total is None:
            snapshot = (
                RatingSnapshot.objects.filter(rating_list=rating_list, as_of__lte=week_start(tournament.end_date))
                .order_by("-as_of")
                .first()
            )
            known: dict[int, int] = {}
            if snapshot is not None:
                rows = (
                    RatingEntry.objects.filter(
                        snapshot__rating_list=rating_list,
                        snapshot__as_of__lte=snapshot.as_of,
                        player_id__in=[p for p in players if p],
                    )
                    .order_by("snapshot__as_of")
                    .values_list("player_id", "rating")
                )
                known = {player_id: int(rating) for player_id, rating in rows}
            total = sum(known.get(p, FLOOR) if p else FLOOR for p in players)
    if total is None:
        total = FLOOR * u
    return {
        "u": u,
        "rt": shown(total, u, 4) if u else 0,
        "k": tournament.k or 1,
        "format": tournament.card_format,
        "name": tournament.name,
        "date": tournament.end_date.isoformat(),
    }
