"""Reads for DIRS: the leaderboard, a player's club games, the points of their chart, the ratings of a form."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import NamedTuple

from django.db.models import Case, F, OuterRef, Q, QuerySet, Subquery, When, Window
from django.db.models.functions import Rank

from federation.db import marked_rows, marked_statement
from federation.models import Player
from federation.tables import listed

from .models import DirsGame, DirsRating


def dirs_leaderboard() -> QuerySet[DirsRating]:
    """Everyone with a DIRS rating, best first; ``place`` is shared by equal ratings (within the filter applied)."""
    return listed(
        DirsRating.objects.select_related("player", "club")
        .annotate(place=Window(Rank(), order_by=F("rating").desc()))
        .order_by("-rating", "player__last_name", "player_id"),
        "rating",
        "acceleration",
        "games",
        club="club",
    )


def dirs_rating_count() -> int:
    """How many players have a DIRS rating (the leaderboard's rows, unfiltered)."""
    return DirsRating.objects.count()


def dirs_rating_get(*, player_id: int) -> DirsRating:
    return DirsRating.objects.select_related("player", "club").get(player_id=player_id)


def dirs_rating_of(*, player: Player) -> DirsRating | None:
    return DirsRating.objects.select_related("club").filter(player=player).first()


def dirs_ratings_by_player() -> dict[int, int]:
    """Every player's current rating, for the game form to propose the handicap DIRS prescribes."""
    return dict(DirsRating.objects.values_list("player_id", "rating"))


def dirs_player_games(*, player_id: int) -> QuerySet[DirsGame]:
    """The player's club games in the order they were rated."""
    return (
        DirsGame.objects.filter(Q(white_id=player_id) | Q(black_id=player_id))
        .select_related("white", "black", "club")
        .order_by("id")
    )


def dirs_chart_points(*, rating: DirsRating, games: list[DirsGame]) -> list[dict]:
    """The rating after each game of the player (``dirs_rating_steps``)."""
    steps = [(g.date, g.white_after if g.white_id == rating.player_id else g.black_after) for g in games]
    return dirs_rating_steps(initial_rating=rating.initial_rating, steps=steps)


def dirs_rating_steps(*, initial_rating: int, steps: list[tuple[dt.date, int]]) -> list[dict]:
    """The chart's points from the rating after each game, ``(date, rating)`` in the order rated: the first point
    is the initial rating, dated with the first game (a rating without games has no chart)."""
    first = steps[0][0].isoformat() if steps else None
    points = [{"x": 0, "date": first, "rating": initial_rating}]
    for i, (day, after) in enumerate(steps, start=1):
        points.append({"x": i, "date": day.isoformat(), "rating": after})
    return points


# --- the player page's DIRS section (ratings.dirs.sections): its two reads, compiled once (federation.db.marked_rows)


class DirsCard(NamedTuple):
    """What the player page shows of a DIRS rating: the rating, the club, and the rating carried over from the
    federation's list (``StartingRating`` of a DIRS list; ``start_*`` are None without one)."""

    rating: int
    initial_rating: int
    club_id: int | None
    club_name: str | None
    start_rating: Decimal | None
    start_acceleration: int | None
    start_date: dt.date | None


def _card_query(player_id: int):
    from ratings.models import Engine, StartingRating

    # Of several DIRS lists, the first in the lists' order (the model's default, less its sort by the players' names:
    # one player here). Decision: three subqueries of one statement, not a second statement: the lookup costs
    # PostgreSQL microseconds each time, a statement a round trip (and SQLite has no LATERAL join to do it once).
    carried = StartingRating.objects.filter(player_id=OuterRef("player_id"), rating_list__engine=Engine.DIRS).order_by(
        "rating_list__ordering", "rating_list__slug", "rating_list_id"
    )
    return (
        DirsRating.objects.filter(player_id=player_id)
        .annotate(
            club_name=F("club__name"),
            start_rating=Subquery(carried.values("rating")[:1]),
            start_acceleration=Subquery(carried.values("acceleration")[:1]),
            start_date=Subquery(carried.values("list_date")[:1]),
        )
        .order_by()
        .values_list(*DirsCard._fields)
    )


def player_statements(*, player_id: int) -> list:
    """What ``dirs_card_of`` and ``dirs_rated_steps_of`` send (``federation.db.reads_together``)."""
    return [
        marked_statement(("dirs.card",), _card_query, values={"player_id": player_id}),
        marked_statement(("dirs.steps",), _steps_query, values={"player_id": player_id}),
    ]


def dirs_card_of(*, player_id: int) -> DirsCard | None:
    """The player's DIRS rating with its club and starting rating, in one statement; None without a rating."""
    rows = marked_rows(("dirs.card",), _card_query, values={"player_id": player_id})
    return DirsCard(*rows[0]) if rows else None


def _steps_query(player_id: int):
    after = Case(When(white_id=player_id, then=F("white_after")), default=F("black_after"))
    return (
        DirsGame.objects.filter(Q(white_id=player_id) | Q(black_id=player_id), rated=True)
        .order_by("id")
        .values_list("date", after)
    )


def dirs_rated_steps_of(*, player_id: int) -> list[tuple[dt.date, int]]:
    """The player's rating after each of their rated club games, ``(date, rating)`` in the order rated."""
    return marked_rows(("dirs.steps",), _steps_query, values={"player_id": player_id})


def dirs_list_document(*, as_of: dt.date | None = None) -> dict:
    """The club rating as of ``as_of`` (the games played up to that day, or all), as exactly the document
    ``manage.py rate`` prints for the same history (``docs/rate-cli.md``): every DIRS-rated player's rating and
    acceleration, and each game's rated flag, the ratings after it, its reason and explanation, in the order rated.
    """
    from ratings.history import player_ids_map
    from ratings.models import Engine, StartingRating

    carried = dict(
        StartingRating.objects.filter(rating_list__engine=Engine.DIRS, acceleration__isnull=False).values_list(
            "player_id", "acceleration"
        )
    )
    states = {
        pk: (rating, carried.get(pk, 0))
        for pk, rating in DirsRating.objects.order_by("player_id").values_list("player_id", "initial_rating")
    }
    games = DirsGame.objects.order_by("id")
    if as_of is not None:
        games = games.filter(date__lte=as_of)
    out = []
    for row in games.values_list(
        "white_id",
        "black_id",
        "rated",
        "white_after",
        "black_after",
        "white_acceleration_after",
        "black_acceleration_after",
        "reason_en",
        "reason_ru",
        "explanation_en",
        "explanation_ru",
    ).iterator(chunk_size=20_000):
        white, black, rated, white_after, black_after, white_acc, black_acc, reason_en, reason_ru, en, ru = row
        states[white] = (white_after, white_acc)
        states[black] = (black_after, black_acc)
        out.append(
            {
                "rated": rated,
                "white_after": white_after,
                "black_after": black_after,
                "reason": {"en": reason_en, "ru": reason_ru},
                "explanation": {"en": en, "ru": ru},
            }
        )
    ids = player_ids_map(states)
    return {
        "ratings": {ids[pk]: rating for pk, (rating, _a) in states.items()},
        "accelerations": {ids[pk]: acceleration for pk, (_r, acceleration) in states.items()},
        "games": out,
    }
