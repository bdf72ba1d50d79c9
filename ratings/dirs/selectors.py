"""Reads for DIRS: the leaderboard, a player's club games, the points of their chart, the ratings of a form."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet, Window
from django.db.models.functions import Rank

from federation.models import Player

from .models import DirsGame, DirsRating


def dirs_leaderboard() -> QuerySet[DirsRating]:
    """Everyone with a DIRS rating, best first; ``place`` is shared by equal ratings (within the filter applied)."""
    return (
        DirsRating.objects.select_related("player", "club")
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
    """The rating after each game of the player; the first point is the initial rating, dated with the first game
    (a rating without games has no chart)."""
    first = games[0].date.isoformat() if games else None
    points = [{"x": 0, "date": first, "rating": rating.initial_rating}]
    for i, g in enumerate(games, start=1):
        after = g.white_after if g.white_id == rating.player_id else g.black_after
        points.append({"x": i, "date": g.date.isoformat(), "rating": after})
    return points


# --- page versions (federation.caching) ----------------------------------------------------------------------------


def leaderboard_version(request, **kwargs) -> str:
    """A club game (recorded, corrected or deleted) moves ``updated_at`` of the ratings it changes."""
    from federation.selectors import registry_fragments, version_of

    table = DirsRating._meta.db_table
    return version_of(
        [
            *registry_fragments(),
            (f"SELECT MAX(updated_at) FROM {table}", []),
            (f"SELECT MAX(player_id) FROM {table}", []),
            (f"SELECT MAX(id) FROM {DirsGame._meta.db_table}", []),
        ]
    )


def player_version_fragments(player_id: int) -> list:
    return [
        (f"SELECT MAX(updated_at) FROM {DirsRating._meta.db_table}", []),
        (f"SELECT MAX(id) FROM {DirsGame._meta.db_table}", []),
    ]
