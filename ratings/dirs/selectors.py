"""Reads for DIRS: the leaderboard, a player's club games, the points of their chart, the ratings of a form."""

from __future__ import annotations

import datetime as dt

from django.db.models import Case, F, Q, QuerySet, When, Window
from django.db.models.functions import Rank

from federation.models import Player

from .models import DirsGame, DirsRating


def dirs_leaderboard() -> QuerySet[DirsRating]:
    """Everyone with a DIRS rating, best first, with what the table and its downloads show of them and their club;
    ``place`` is shared by equal ratings (within the filter applied)."""
    return (
        DirsRating.objects.select_related("player", "club")
        .only(
            "rating",
            "acceleration",
            "games",
            *(f"player__{name}" for name in ("last_name", "first_name", "last_name_latin", "first_name_latin")),
            *("player__city", "player__country", "club__name", "club__name_en"),
        )
        .annotate(place=Window(Rank(), order_by=F("rating").desc()))
        .order_by("-rating", "player__last_name", "player_id")
    )


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


def dirs_starting_rating_of(*, player_id: int):
    """The rating carried over from the federation's list (``StartingRating`` of a DIRS list; of several, the first
    in the lists' order), or None."""
    from ratings.models import Engine, StartingRating

    carried = StartingRating.objects.filter(player_id=player_id, rating_list__engine=Engine.DIRS)
    return carried.order_by("rating_list__ordering", "rating_list__slug", "rating_list_id").first()


def dirs_rated_steps_of(*, player_id: int) -> list[tuple[dt.date, int]]:
    """The player's rating after each of their rated club games, ``(date, rating)`` in the order rated."""
    after = Case(When(white_id=player_id, then=F("white_after")), default=F("black_after"))
    games = DirsGame.objects.filter(Q(white_id=player_id) | Q(black_id=player_id), rated=True)
    return list(games.order_by("id").values_list("date", after))


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
