"""The preferans player section as it was written before issue 16 (ORM reads, model instances, a template loop): the
oracle that ``test_player_section_html.py`` compares ``ratings.preferans.sections.player_section`` with, byte for
byte. Kept as it was, except that the reads the section no longer uses live here instead of in the selectors."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from django.db.models import Count, Max, Min, Subquery, Sum
from django.template import engines
from django.utils.translation import gettext as _

from federation import charts
from federation.i18n import current_language
from ratings.preferans import selectors
from ratings.preferans.models import DealResult, Game, League, Seat
from ratings.preferans.services import rating_settings

TEMPLATE = Path(__file__).with_name("reference_player_section.html")


def player_section(request, player) -> str | None:
    rating = selectors.player_rating(player=player)
    if rating is None:
        return None
    language = current_language()
    points = player_history(player=player)
    games = player_recent_games(player=player)
    for row in games:
        row["names"] = [p.display_name(language) for p in row["table"]]
    chart = charts.time_chart(
        [charts.series(_("Rating after the game"), [(point.played_at, round(point.rating, 2)) for point in points])],
        rating=_("Rating"),
    )
    context = {
        "rating": rating,
        "points": points,
        "chart": chart,
        "games": games,
        "deals": player_recent_deals(player=player),
        "starting_league": League(rating.start_league).label if rating.start_league in League.values else "",
    }
    return engines["django"].from_string(TEMPLATE.read_text()).render(context)


@dataclass(frozen=True)
class GamePoint:
    game_id: int
    played_at: object
    delta: float
    deals: int
    rating: float


def player_history(*, player):
    rows = list(
        DealResult.objects.filter(player=player)
        .order_by()
        .values("deal__game_id")
        .annotate(
            delta=Sum("delta"),
            deals=Count("pk"),
            first=Min("deal_id"),
            last=Max("deal_id"),
            at=Max("deal__game__played_at"),
        )
        .order_by("first")
    )
    if not rows:
        return []
    start = DealResult.objects.filter(player=player, deal_id=rows[0]["first"]).values_list("rating_before", flat=True)[
        0
    ]
    points = []
    rating = start
    for row in rows:
        rating += row["delta"]
        points.append(GamePoint(row["deal__game_id"], row["at"], row["delta"], row["deals"], rating))
    return points


def player_recent_games(*, player, limit: int = 10) -> list[dict]:
    rows = list(
        DealResult.objects.filter(player=player)
        .order_by()
        .values("deal__game_id")
        .annotate(delta=Sum("delta"), deals=Count("pk"), last=Max("deal_id"))
        .order_by("-last")[:limit]
    )
    ids = [row["deal__game_id"] for row in rows]
    games = Game.objects.in_bulk(ids)
    tables = defaultdict(list)
    for seat in Seat.objects.filter(game_id__in=ids).select_related("player").order_by("seat", "id"):
        tables[seat.game_id].append(seat.player)
    return [
        {
            "game": games[row["deal__game_id"]],
            "delta": row["delta"],
            "deals": row["deals"],
            "table": tables[row["deal__game_id"]],
        }
        for row in rows
    ]


def player_recent_deals(*, player, limit: int = 20):
    latest = DealResult.objects.filter(player=player).order_by("-deal_id").values("deal_id")[:limit]
    rows = list(
        DealResult.objects.filter(deal_id__in=Subquery(latest))
        .select_related("deal", "deal__game")
        .order_by("-deal_id", "id")
    )
    explained = selectors.explain_rows(rows, rating_settings())
    return [(row, explained[(row.deal_id, row.player_id)]) for row in rows if row.player_id == player.pk]
