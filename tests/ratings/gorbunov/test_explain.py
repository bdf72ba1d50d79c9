"""Issue 29: a Gorbunov change keeps its numbers, and its explanation is written from them when it is read: word for
word what the engine wrote for the publication, in both languages."""

import pytest

from ratings.engines.gorbunov import Placement, RatedTournament, rate_season
from ratings.gorbunov import services
from ratings.gorbunov.params import engine_settings
from ratings.models import RatingChange
from tests.ratings.gorbunov.conftest import week

pytestmark = pytest.mark.django_db


def test_every_change_explains_itself_as_the_engine_did(gorbunov_list, season):
    for n in range(1, 8):
        services.gorbunov_publish(rating_list_id=gorbunov_list.pk, week=week(n))
    tournaments = [
        RatedTournament(
            id=str(t.pk),
            date=t.end_date,
            k=t.k,
            format=t.card_format,
            results=tuple(Placement(str(r.player_id), r.place) for r in t.results.all()),
        )
        for t in season
    ]
    outcome = rate_season({}, tournaments, engine_settings(gorbunov_list.params))
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
