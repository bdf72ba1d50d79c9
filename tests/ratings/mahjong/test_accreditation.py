"""Bad input that stops a submission, accreditation and staff judgements with who and when, the admin hooks."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from ratings.mahjong import services
from ratings.mahjong.admin import TOURNAMENT_ACTIONS
from ratings.mahjong.params import validate_crr, validate_online, validate_rr
from ratings.models import JobRun, RatingList, RatingSnapshot
from tests.factories import PlayerFactory, federation_staff, organiser
from tests.ratings.mahjong.factories import mahjong_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    from django.utils import translation

    with translation.override("en"):
        yield


def test_no_hanchans_cannot_be_submitted():
    t = mahjong_tournament(n=16, hanchans=None)
    assert services.mahjong_tournament_problems(t) == ["Hanchans: the number of hanchans is not entered."]


def test_stages_whose_players_do_not_add_up():
    players = [PlayerFactory() for _ in range(28)]
    t = mahjong_tournament(players=players, hanchans=20, stages=[(10, 30), (10, 8)], played=[20] * 10 + [10] * 18)
    problems = services.mahjong_tournament_problems(t)
    assert "Stage 1: 30 players, but the tournament has 28 participants." in problems
    assert "Stage 2: 8 players, but 10 results played into it." in problems
    t2 = mahjong_tournament(players=players, hanchans=25, stages=[(10, 28), (10, 8)], played=[20] * 8 + [10] * 20)
    assert services.mahjong_tournament_problems(t2) == [
        "Stages: their hanchans add up to 20, but the tournament has 25."
    ]


def test_result_with_more_hanchans_than_the_stages_hold():
    players = [PlayerFactory() for _ in range(28)]
    t = mahjong_tournament(players=players, hanchans=20, stages=[(10, 28), (10, 8)], played=[24] + [20] * 7 + [10] * 20)
    assert services.mahjong_tournament_problems(t) == ["Place 1: 24 hanchans played, more than the stages hold (20)."]
    plain = mahjong_tournament(n=16, hanchans=8, played=[9] + [8] * 15)
    assert services.mahjong_tournament_problems(plain) == ["Place 1: 9 hanchans played, more than the stages hold (8)."]


def test_a_good_cutoff_tournament_has_no_problems():
    players = [PlayerFactory() for _ in range(28)]
    t = mahjong_tournament(players=players, hanchans=20, stages=[(10, 28), (10, 8)], played=[20] * 8 + [10] * 20)
    assert services.mahjong_tournament_problems(t) == []


def test_approved_tournament_with_impossible_data_is_shown_not_crashing_the_list():
    services.mahjong_setup_defaults()
    players = [PlayerFactory() for _ in range(16)]
    mahjong_tournament(players=players, end=datetime.date(2025, 1, 1))
    mahjong_tournament(players=players, end=datetime.date(2025, 2, 1))
    bad = mahjong_tournament(players=players, end=datetime.date(2025, 3, 1), hanchans=8, played=[9] + [8] * 15)
    mahjong_tournament(players=players, end=datetime.date(2025, 3, 2), hanchans=None)
    services.mahjong_daily(today=datetime.date(2025, 4, 1))
    snapshot = RatingSnapshot.objects.get(rating_list__slug="mahjong-rr")
    assert str(bad.pk) in {row["id"] for row in snapshot.summary["invalid"]}
    assert snapshot.summary["entries"] == 16


def test_accreditation_by_someone_not_staff_is_refused():
    t = mahjong_tournament(n=16, accredited=False)
    user = organiser()
    with pytest.raises(PermissionDenied):
        services.mahjong_accredit(tournament=t, user=user)
    with pytest.raises(PermissionDenied):
        services.mahjong_accreditation_withdraw(tournament=t, user=user, reason="x")
    with pytest.raises(PermissionDenied):
        services.mahjong_rank_restriction_judge(tournament=t, user=user, legitimate=True)
    t.refresh_from_db()
    assert not t.accredited


def test_staff_accredit_and_withdraw_with_a_reason_recorded():
    t = mahjong_tournament(n=16, accredited=False)
    staff = federation_staff()
    services.mahjong_accredit(tournament=t, user=staff)
    t.refresh_from_db()
    assert t.accredited
    assert t.accredited_by == staff
    assert t.accredited_at is not None
    with pytest.raises(ValidationError):
        services.mahjong_accreditation_withdraw(tournament=t, user=staff, reason="  ")
    services.mahjong_accreditation_withdraw(tournament=t, user=staff, reason="Registration was closed")
    t.refresh_from_db()
    assert not t.accredited
    assert t.accreditation_note == "Registration was closed"
    last = t.history.order_by("-history_date").first()
    assert last.history_user == staff
    assert last.history_change_reason.startswith("accreditation withdrawn")


def test_accreditation_refused_while_the_tournament_has_problems():
    t = mahjong_tournament(n=16, accredited=False, hanchans=None)
    with pytest.raises(ValidationError):
        services.mahjong_accredit(tournament=t, user=federation_staff())


def test_params_validators():
    assert validate_rr({})["min_players"] == 16
    assert validate_crr({})["requires_accreditation"] is False
    assert validate_online({"part_b_count": 3})["rank_restricted_from"] == "2021-05-19"
    for bad in ({"min_players": "x"}, {"nonsense": 1}, {"country": "russia"}, {"full_rules_from": "2018-13-01"}):
        with pytest.raises(ValueError):  # noqa: PT011
            validate_rr(bad)
    rating_list = RatingList(slug="x", name="x", engine="mahjong-rr", params={"min_players": -1})
    with pytest.raises(ValidationError):
        rating_list.clean()


@pytest.fixture
def _eager():
    """With a broker the rebuild is a queued task; here it runs at once, as on the embedded default."""
    from federation.celery import app

    old = app.conf.task_always_eager
    app.conf.update(task_always_eager=True)
    yield
    app.conf.update(task_always_eager=old)


@pytest.mark.usefixtures("_eager")
def test_admin_rebuild_and_compute_actions(admin_client, django_capture_on_commit_callbacks):
    services.mahjong_setup_defaults()
    players = [PlayerFactory() for _ in range(16)]
    mahjong_tournament(players=players, end=datetime.date(2025, 1, 1))
    mahjong_tournament(players=players, end=datetime.date(2025, 2, 1))
    rr = RatingList.objects.get(slug="mahjong-rr")
    response = admin_client.post(
        "/en/admin/ratings/ratinglist/", {"action": "mahjong_rebuild_dates", "_selected_action": [rr.pk]}
    )
    assert response.status_code == 302
    page = admin_client.get(response["Location"])
    assert page.status_code == 200
    assert "First date" in page.content.decode()
    bad = admin_client.post(
        "/en/admin/ratings/ratinglist/mahjong/rebuild/",
        {"lists": str(rr.pk), "start": "2025-03-01", "end": "2025-01-01"},
    )
    assert "The last date is before the first." in bad.content.decode()
    unconfirmed = admin_client.post(
        "/en/admin/ratings/ratinglist/mahjong/rebuild/",
        {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01"},
    )
    assert "Tick the confirmation" in unconfirmed.content.decode()
    assert not rr.snapshots.exists()
    with django_capture_on_commit_callbacks(execute=True):
        done = admin_client.post(
            "/en/admin/ratings/ratinglist/mahjong/rebuild/",
            {"lists": str(rr.pk), "start": "2025-01-01", "end": "2025-03-01", "confirm": "on"},
        )
    assert done.status_code == 302
    progress = admin_client.get(done["Location"]).content.decode()
    assert 'id="task-progress"' in progress
    assert "Rebuilt 2025-01-01 – 2025-03-01; snapshots written: mahjong-rr: 2." in progress
    state = admin_client.get(done["Location"], {"format": "json"}).json()
    assert (state["state"], state["running"]) == ("succeeded", False)
    assert list(rr.snapshots.order_by("as_of").values_list("as_of", flat=True)) == [
        datetime.date(2025, 1, 1),
        datetime.date(2025, 2, 1),
    ]
    response = admin_client.post(
        "/en/admin/ratings/ratinglist/", {"action": "mahjong_compute_today", "_selected_action": [rr.pk]}, follow=True
    )
    assert "Mahjong: today&#x27;s lists:" in response.content.decode()
    assert JobRun.objects.filter(kind="mahjong_daily", state="succeeded").exists()


def test_tournament_actions_withdraw_with_a_reason_form(rf, admin_user):
    from django.contrib import admin as django_admin
    from django.contrib.messages.storage.fallback import FallbackStorage

    from tournaments.models import Tournament

    t = mahjong_tournament(n=16)
    model_admin = django_admin.site._registry[Tournament]
    withdraw = next(a for a in TOURNAMENT_ACTIONS if a.__name__ == "mahjong_withdraw_accreditation")
    request = rf.post("/", {"action": "mahjong_withdraw_accreditation", "_selected_action": [t.pk]})
    request.user = admin_user
    request.session = {}
    request._messages = FallbackStorage(request)
    response = withdraw(model_admin, request, Tournament.objects.filter(pk=t.pk))
    response.render()
    assert "Reason" in response.content.decode()
    request = rf.post("/", {"action": "x", "_selected_action": [t.pk], "apply": "1", "reason": "Closed registration"})
    request.user = admin_user
    request.session = {}
    request._messages = FallbackStorage(request)
    assert withdraw(model_admin, request, Tournament.objects.filter(pk=t.pk)) is None
    t.refresh_from_db()
    assert not t.accredited
    assert t.accreditation_note == "Closed registration"
