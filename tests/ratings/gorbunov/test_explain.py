"""Issue 29: a Gorbunov change keeps its numbers, and its explanation is written from them when it is read: word for
word what the engine wrote for the publication, in both languages."""

import pytest

from ratings.engines.gorbunov import rate_season
from ratings.gorbunov.params import engine_settings
from ratings.models import RatingChange
from tests.ratings.gorbunov.conftest import engine_season, publish_weekly

pytestmark = pytest.mark.django_db


def test_every_change_explains_itself_as_the_engine_did(gorbunov_list, season):
    publish_weekly(gorbunov_list, 1, 7)
    outcome = rate_season({}, engine_season(season), engine_settings(gorbunov_list.params))
    expected = {
        (int(change.tournament_id), int(change.player)): change.explanation
        for week_outcome in outcome.weeks
        for tournament in week_outcome.tournaments
        for change in tournament.changes
    }
    changes = RatingChange.objects.filter(rating_list=gorbunov_list)
    assert changes.count() == len(expected) > 10
    assert not changes.exclude(explanation_en="").exclude(explanation_ru="").exists()  # the numbers only
    for change in changes:
        explanation = expected[(change.tournament_id, change.player_id)]
        assert change.explanation("en") == explanation.en
        assert change.explanation("ru") == explanation.ru
