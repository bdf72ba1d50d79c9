"""The player page's DIRS section: the rating, its club, the starting rating carried over and the chart of the rated
games, in both languages."""

import datetime

import pytest
from django.test import RequestFactory
from django.utils import translation

from ratings.dirs import services
from ratings.dirs.models import DirsRating
from ratings.dirs.sections import player_section
from ratings.engines import dirs
from ratings.models import Engine, RatingList, StartingRating
from tests.factories import ClubFactory, PlayerFactory

from .helpers import rated_player

pytestmark = pytest.mark.django_db


def play(day: datetime.date, a, b, *, winner: str = "white", prescribed: bool = True):
    """A club game recorded as the organisers' form records it: the stronger player on white, on the handicap DIRS
    prescribes (rated), or on an even game whatever the ratings (not rated unless they are within 4 points)."""
    ratings = dict(DirsRating.objects.filter(player__in=[a, b]).values_list("player_id", "rating"))
    white, black = (a, b) if ratings[a.pk] >= ratings[b.pk] else (b, a)
    handicap = dirs.prescribed_handicap(ratings[white.pk], ratings[black.pk]) if prescribed else None
    return services.dirs_game_record(
        date=day,
        club=None,
        white=white,
        black=black,
        handicap=handicap.stones if handicap else 0,
        komi=handicap.komi if handicap else "normal",
        winner=winner,
    )


def carry(player, rating, *, acceleration, day, rating_list=None):
    return StartingRating.objects.create(
        rating_list=rating_list or RatingList.objects.get(slug="dirs"),
        player=player,
        list_date=day,
        rating=rating,
        acceleration=acceleration,
    )


def test_no_dirs_rating_has_no_section():
    player = PlayerFactory()
    assert player_section(RequestFactory().get("/"), player) is None


def test_a_rating_without_games_or_club():
    player = rated_player("12k", club=None)
    with translation.override("en"):
        html = player_section(RequestFactory().get("/"), player).html
    assert f'<a href="/en/go/dirs/players/{player.pk}/"><strong>090</strong></a> (12k)</p>' in html
    assert "dirs-chart" not in html


def test_games_a_club_and_a_starting_rating():
    club = ClubFactory(name='Go & "Tengen" <club>')
    ann = rated_player("3k", club=club)
    bob = rated_player("5k")
    eve = rated_player("1d")
    carry(ann, 180, acceleration=2, day=datetime.date(2025, 12, 1))
    day = datetime.date(2026, 1, 3)
    for i in range(6):
        play(day + datetime.timedelta(days=i), ann, bob, winner="white" if i % 3 else "black")
        play(day + datetime.timedelta(days=i), ann, eve, winner="black")
    play(day, ann, bob, prescribed=False)  # recorded, not rated: not on the chart
    with translation.override("en"):
        html = player_section(RequestFactory().get("/"), ann).html
    assert f', <a href="/en/clubs/{club.pk}/">Go &amp; &quot;Tengen&quot; &lt;club&gt;</a></p>' in html
    assert "Starting rating 180 (acceleration 2), carried over from the federation's list of 1 Dec 2025." in html
    assert 'id="dirs-chart"' in html


def test_only_unrated_games_draw_no_chart_and_one_game_draws_one():
    ann = rated_player("3k")
    bob = rated_player("10k")
    play(datetime.date(2026, 2, 1), ann, bob, prescribed=False)
    assert "dirs-chart" not in player_section(RequestFactory().get("/"), ann).html
    play(datetime.date(2026, 2, 2), ann, bob)
    assert "dirs-chart" in player_section(RequestFactory().get("/"), ann).html


def test_the_starting_rating_of_the_first_dirs_list_without_acceleration():
    """Two DIRS lists: the one first in the lists' order is shown; a list of another system is not."""
    player = rated_player("20k")
    earlier = RatingList.objects.create(slug="dirs-archive", name="Архив ДИРС", engine=Engine.DIRS, ordering=1)
    gorbunov = RatingList.objects.get(slug="gorbunov")
    carry(player, 7, acceleration=None, day=datetime.date(2024, 5, 6), rating_list=earlier)
    carry(player, 150, acceleration=3, day=datetime.date(2025, 5, 6))
    carry(player, 1500, acceleration=None, day=datetime.date(2023, 5, 6), rating_list=gorbunov)
    with translation.override("ru"):
        html = player_section(RequestFactory().get("/"), player).html
    assert "Начальный рейтинг 007 (ускорение 0)" in html
    assert "06.05.2024" in html


def test_a_few_queries_whatever_the_games(django_assert_max_num_queries):
    ann = rated_player("3k")
    bob = rated_player("5k")
    play(datetime.date(2026, 2, 1), ann, bob)
    nobody = PlayerFactory()
    request = RequestFactory().get("/")
    with django_assert_max_num_queries(3):
        player_section(request, ann)
    for i in range(12):
        play(datetime.date(2026, 2, 2) + datetime.timedelta(days=i), ann, bob, winner="black" if i % 2 else "white")
    with django_assert_max_num_queries(3):
        html = player_section(request, ann).html
    assert html.count('"x": "2026-02-') == 14  # the starting point and thirteen rated games
    with django_assert_max_num_queries(1):
        assert player_section(request, nobody) is None
