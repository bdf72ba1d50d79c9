"""The tournament services' rules on their own: the coefficient K (rules/gorbunov.md, "K")."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import ResultFactory, TournamentFactory, federation_staff, organiser
from tournaments.models import Tournament, TournamentStatus
from tournaments.services import tournament_k_check

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    from django.utils import translation

    with translation.override("en"):
        yield


def _refused(**kwargs) -> str:
    with pytest.raises(ValidationError) as refused:
        tournament_k_check(**kwargs)
    return " ".join(refused.value.message_dict["k"])


def test_organisers_choose_k_of_1_or_2_staff_any():
    user, staff = organiser(), federation_staff()
    for k in (None, 1, 2):
        tournament_k_check(user=user, tournament=None, k=k)
    assert "above 2" in _refused(user=user, tournament=None, k=3)
    assert "above 2" in _refused(user=user, tournament=Tournament(k=1), k=16)
    for k in (3, 8, 16):
        tournament_k_check(user=staff, tournament=None, k=k)


def test_once_results_are_in_only_staff_change_k():
    user, staff = organiser(), federation_staff()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=1)
    tournament_k_check(user=user, tournament=tournament, k=2)  # no results yet
    ResultFactory(tournament=tournament, place=1)
    tournament_k_check(user=user, tournament=tournament, k=1)  # unchanged
    assert "only federation staff may change K" in _refused(user=user, tournament=tournament, k=2)
    assert "only federation staff may change K" in _refused(user=user, tournament=tournament, k=None)
    tournament_k_check(user=staff, tournament=tournament, k=4)
