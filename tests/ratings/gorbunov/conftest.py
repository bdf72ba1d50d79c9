import datetime

import pytest

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
