import datetime

import pytest

from ratings.engines.gorbunov import Placement, RatedTournament
from ratings.gorbunov import services
from ratings.gorbunov.params import validate
from ratings.models import Engine, RatingList
from tests.factories import ClubFactory, PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import TournamentStatus

MONDAY = datetime.date(2026, 3, 2)  # a Monday; rating weeks run Monday to Sunday


def week(n: int) -> datetime.date:
    """The Monday n weeks after MONDAY."""
    return MONDAY + datetime.timedelta(days=7 * n)


def make_tournament(players, day, *, k=1, card_format="constructed", status=TournamentStatus.APPROVED, **kwargs):
    tournament = TournamentFactory(start_date=day, k=k, card_format=card_format, status=status, **kwargs)
    for place, player in enumerate(players, start=1):
        ResultFactory(tournament=tournament, player=player, place=place)
    return tournament


def publish_weekly(rating_list, first, last):
    """The weekly publications of weeks ``first`` to ``last``, one after another, as the Monday job makes them."""
    for n in range(first, last + 1):
        services.gorbunov_publish(rating_list_id=rating_list.pk, week=week(n))


def engine_season(tournaments) -> list[RatedTournament]:
    """``tournaments`` as the engine takes them, built here from the rows (not by the services' own conversion), so
    that ``rate_season`` on them is an independent reference for what the site published."""
    return [
        RatedTournament(
            id=str(t.pk),
            date=t.end_date,
            k=t.k,
            format=t.card_format,
            results=tuple(Placement(str(r.player_id), r.place) for r in t.results.all()),
        )
        for t in tournaments
    ]


@pytest.fixture
def gorbunov_list(db):
    """One all-formats list, alone: the defaults that post_migrate creates are removed so each test knows its lists."""
    RatingList.objects.filter(engine=Engine.GORBUNOV).delete()
    return RatingList.objects.create(
        slug="gorbunov",
        name="Горбунов, все форматы",
        name_en="Gorbunov, all formats",
        engine=Engine.GORBUNOV,
        params=validate({"sqrt_rule": True}),
    )


@pytest.fixture
def field(db):
    club = ClubFactory(name="Дракон", city="Казань")
    return [PlayerFactory(city="Казань" if i % 2 else "Москва", club=club if i % 3 == 0 else None) for i in range(12)]


@pytest.fixture
def season(field):
    """Six weeks of tournaments: varied sizes, K and formats (a sealed one, a draft one, one too small)."""
    made = []
    for n in range(6):
        day = week(n) + datetime.timedelta(days=5)
        made.append(make_tournament(field[n % 3 : n % 3 + 8], day, k=[1, 2, 4, 1, 8, 2][n]))
        made.append(make_tournament(field[:6][::-1], day - datetime.timedelta(days=1), card_format="sealed", k=4))
    made.append(make_tournament(field[:5], week(2) + datetime.timedelta(days=2), card_format="draft", k=2))
    made.append(make_tournament(field[:3], week(3) + datetime.timedelta(days=2)))  # 3 players: not rated
    return made
