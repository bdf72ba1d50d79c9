"""The clubs' world (issue 28), shared by the pages' tests and the API's."""

import datetime

import pytest
from django.utils import timezone

from federation.clubs import season_start
from ratings.dirs.models import DirsRating
from ratings.dirs.services import dirs_game_record
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import ClubFactory, PlayerFactory, ResultFactory, TournamentFactory, federation_staff
from tournaments.models import TournamentStatus


def _snapshot(rating_list, day, rows):
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=day)
    for rank, (player, rating) in enumerate(rows, start=1):
        RatingEntry.objects.create(snapshot=snapshot, player=player, rank=rank, rating=rating)
    return snapshot


@pytest.fixture
def dragon():
    """A club of Kazan with two players (and a bot, who is nobody's member), another club's player, and ratings of
    every system before and during this season."""
    today = timezone.localdate()
    start = season_start(today)
    club = ClubFactory(
        name="«Дракон»",
        city="Казань",
        meeting_place="ул. Баумана, 1, по средам с 19:00",
        meeting_place_en="1 Bauman St, Wednesdays from 7 pm",
        contact="Айрат, +7 900 000-00-00",
        website="https://dragon.example/",
    )
    other = ClubFactory(name="Тигр", city="Москва")
    ann = PlayerFactory(last_name="Акулова", first_name="Анна", last_name_latin="Akulova", first_name_latin="Anna")
    ann.club = club
    ann.save()
    bob = PlayerFactory(last_name="Бобров", first_name="Борис", club=club, city="Зеленодольск")
    cat = PlayerFactory(last_name="Котов", first_name="Кирилл", club=other)
    PlayerFactory(last_name="Робот", club=club, is_bot=True)
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("ordering", "slug").first()
    _snapshot(gorbunov, start - datetime.timedelta(days=200), [(ann, 1490)])
    _snapshot(gorbunov, start - datetime.timedelta(days=3), [(cat, 1400)])  # Ann did not move that week
    _snapshot(gorbunov, today, [(ann, 1530), (cat, 1410), (bob, 1200)])
    rr = RatingList.objects.get(engine=Engine.MAHJONG_RR)
    _snapshot(rr, start - datetime.timedelta(days=1), [(bob, 1600)])
    _snapshot(rr, today, [(bob, "1650.50")])
    staff = federation_staff()
    for player in (ann, cat):
        DirsRating.objects.create(player=player, rating=150, initial_rating=150, declared_rank="5k")
    dirs_game_record(date=today, club=club, white=ann, black=cat, handicap=0, komi="normal", winner="white", user=staff)
    game, _created = game_create(server=None, external_id="club-game", player_ids=[ann.pk, bob.pk, cat.pk])
    deals_apply(deals=[DealInput(game=game, whists={ann.pk: -2, bob.pk: 4, cat.pk: -2})])
    tournament = TournamentFactory(name="Кубок Казани", end_date=today, start_date=today)
    ResultFactory(tournament=tournament, player=bob, place=2)
    ResultFactory(tournament=tournament, player=ann, place=5)
    ResultFactory(tournament=tournament, player=cat, place=1)
    draft = TournamentFactory(name="Черновик", status=TournamentStatus.DRAFT)
    ResultFactory(tournament=draft, player=ann, place=1)
    return {"club": club, "other": other, "ann": ann, "bob": bob, "cat": cat, "tournament": tournament}
