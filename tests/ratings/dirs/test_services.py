"""DIRS club games (rated and not rated, with the reason), first ratings, the take-back, the rating list row."""

import datetime

import pytest

from ratings.dirs import services
from ratings.dirs.models import DirsRating
from ratings.models import Engine, RatingList
from tests.factories import PlayerFactory

from .helpers import rated_player

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 7)


def test_initial_rating_from_the_declared_rank():
    p = PlayerFactory()
    r = services.dirs_rating_set_initial(player=p, rank="5k")
    assert (r.rating, r.acceleration, r.declared_rank) == (160, 0, "5k")
    with pytest.raises(services.DirsError, match="already has a DIRS rating"):
        services.dirs_rating_set_initial(player=p, rank="2d")
    with pytest.raises(services.DirsError, match="is not a rank") as refused:
        services.dirs_rating_set_initial(player=PlayerFactory(), rank="strong")
    assert refused.value.field == "rank"


def test_a_game_on_the_prescribed_handicap_is_rated():
    strong, weak = rated_player("2d"), rated_player("1k")  # 220 and 200: d = 20 -> 2 stones, reverse komi
    game = services.dirs_game_record(
        date=DAY, club=None, white=strong, black=weak, handicap=2, komi="reverse", winner="black"
    )
    assert game.rated
    assert (game.white_before, game.white_after, game.black_before, game.black_after) == (220, 219, 200, 201)
    assert DirsRating.objects.get(player=weak).acceleration == 1
    assert "Winner: acceleration 0 + 1 = 1" in game.explanation_en


def test_a_game_on_the_wrong_handicap_is_recorded_but_not_rated():
    strong, weak = rated_player("2d"), rated_player("1k")
    game = services.dirs_game_record(
        date=DAY, club=None, white=strong, black=weak, handicap=0, komi="normal", winner="white"
    )
    assert not game.rated
    assert "not rated: played 0 stones, komi normal; DIRS prescribes 2 stones, komi reverse" in game.reason_en
    assert DirsRating.objects.get(player=strong).rating == 220
    assert DirsRating.objects.get(player=strong).games == 0


def test_the_weaker_on_white_is_not_rated_and_a_player_without_rating_is_refused():
    strong, weak = rated_player("2d"), rated_player("1k")
    game = services.dirs_game_record(
        date=DAY, club=None, white=weak, black=strong, handicap=2, komi="reverse", winner="white"
    )
    assert not game.rated
    assert "the weaker player (200) took white" in game.reason_en
    with pytest.raises(services.DirsError, match="has no DIRS rating yet") as refused:
        services.dirs_game_record(
            date=DAY, club=None, white=strong, black=PlayerFactory(), handicap=0, komi="normal", winner="white"
        )
    assert refused.value.field == "black"
    assert str(refused.value).startswith("black: ")


def test_the_dirs_list_row_exists_once_and_takes_no_parameters():
    """Every rating system has its list row: DIRS's is made after migrate, again without a copy, with no params."""
    services.dirs_setup_defaults()
    services.dirs_setup_defaults()
    row = RatingList.objects.get(engine=Engine.DIRS)
    assert (row.slug, row.name_en, row.params) == ("dirs", "DIRS, the Go club rating", {})
    assert row.get_absolute_url() == "/en/go/dirs/"
    row.params = {"step": 2}
    with pytest.raises(Exception, match="this engine takes no parameters: step"):
        row.full_clean()
