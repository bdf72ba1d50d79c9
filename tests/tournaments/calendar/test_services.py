"""The calendar's services: the announcement's workflow and its owner checks, a moved or cancelled tournament, the
organiser's hand on registrations, and what the registrations become: the results editor's first rows and, for Go,
the round-by-round registrations."""

import datetime

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import translation

from ratings.dirs.models import DirsRating
from tests.factories import PlayerFactory, TournamentFactory, federation_staff, organiser
from tournaments.calendar import services
from tournaments.go.models import Registration as GoRegistration
from tournaments.models import AnnouncementStatus, Registration, RegistrationStatus, Schedule, TournamentStatus

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def _draft(user, **kwargs):
    values = {
        "organiser": user,
        "status": TournamentStatus.DRAFT,
        "description": "Анонс.",
        "contact": "org@example.org",
        "start_date": datetime.date(2030, 5, 1),
        "end_date": datetime.date(2030, 5, 1),
    }
    return TournamentFactory(**(values | kwargs))


def test_organiser_submits_staff_approve_and_nobody_else():
    me, them, staff = organiser(username="me"), organiser(username="them"), federation_staff(username="staff")
    tournament = _draft(me)
    with pytest.raises(PermissionDenied):
        services.announcement_submit(tournament=tournament, user=them)
    services.announcement_submit(tournament=tournament, user=me)
    tournament.refresh_from_db()
    assert tournament.announcement == AnnouncementStatus.SUBMITTED
    with pytest.raises(PermissionDenied):
        services.announcement_approve(tournament=tournament, user=me)
    services.announcement_approve(tournament=tournament, user=staff)
    tournament.refresh_from_db()
    assert tournament.announcement == AnnouncementStatus.APPROVED
    assert tournament.announcement_approved_by == staff
    # The results' workflow is untouched: the same record takes its results later.
    assert tournament.status == TournamentStatus.DRAFT


def test_an_incomplete_announcement_is_refused_naming_what_is_missing():
    me = organiser(username="me")
    tournament = _draft(me, description="", contact="", registration_deadline=datetime.date(2030, 6, 1))
    with pytest.raises(ValidationError) as refused:
        services.announcement_submit(tournament=tournament, user=me)
    assert refused.value.messages == [
        "The description (Russian) is empty.",
        "The organiser's contact is not set.",
        "The registration deadline is after the start of the tournament.",
    ]


def test_a_changed_date_marks_it_moved_and_cancel_closes_registration():
    me = organiser(username="me")
    tournament = _draft(me, announcement=AnnouncementStatus.APPROVED)
    before = type(tournament).objects.get(pk=tournament.pk)
    tournament.start_date = tournament.end_date = datetime.date(2030, 5, 8)
    services.tournament_schedule_changed(before=before, after=tournament)
    assert tournament.schedule == Schedule.MOVED
    assert tournament.schedule_note == "Moved from 2030-05-01."
    assert tournament.calendar_sequence == 1
    tournament.save()
    with pytest.raises(PermissionDenied):
        services.tournament_cancel(tournament=tournament, user=organiser(username="them"))
    Registration.objects.create(tournament=tournament, name="Игрок", email="p@example.org", status="registered")
    services.tournament_cancel(tournament=tournament, user=me, note="The hall is closed.")
    assert [m.subject for m in mail.outbox] == [f"The tournament is cancelled: {tournament.name}"]
    assert "The hall is closed." in mail.outbox[0].body
    tournament.refresh_from_db()
    assert (tournament.schedule, tournament.registration_closed, tournament.calendar_sequence) == ("cancelled", True, 2)
    assert services.registration_closed_reason(tournament=tournament) == "The tournament is cancelled."


def test_the_organiser_moves_registrations_of_their_own_tournament_only():
    me, them = organiser(username="me"), organiser(username="them")
    tournament = _draft(me, announcement=AnnouncementStatus.APPROVED)
    registration = Registration.objects.create(
        tournament=tournament, name="Игрок", email="a@example.org", status=RegistrationStatus.REGISTERED
    )
    with pytest.raises(PermissionDenied):
        services.registration_set_status(registration=registration, user=them, status="waiting")
    services.registration_set_status(registration=registration, user=me, status="waiting")
    services.registration_organiser_confirm(registration=registration, user=me)
    registration.refresh_from_db()
    assert (registration.status, registration.confirmed_by_organiser) == ("waiting", True)
    pending = Registration.objects.create(tournament=tournament, name="Ждёт", email="b@example.org")
    with pytest.raises(ValidationError):
        services.registration_set_status(registration=pending, user=me, status="registered")


def test_the_results_editor_starts_from_the_registered_players(client):
    me = organiser(username="me")
    tournament = _draft(me, announcement=AnnouncementStatus.APPROVED)
    first, second = PlayerFactory(last_name="Первов"), PlayerFactory(last_name="Второв")
    for n, player in enumerate((first, second)):
        Registration.objects.create(
            tournament=tournament, player=player, name=player.full_name, email=f"{n}@example.org", status="registered"
        )
    Registration.objects.create(tournament=tournament, name="Новичков Пётр", email="n@example.org", status="registered")
    Registration.objects.create(tournament=tournament, name="Ждунов", email="w@example.org", status="waiting")
    client.force_login(me)
    page = client.get(f"/en/admin/tournaments/tournament/{tournament.pk}/results/").content.decode()
    assert f'<option value="{first.pk}" selected>Первов' in page
    assert f'<option value="{second.pk}" selected>Второв' in page
    assert 'value="Новичков Пётр"' in page
    assert "Ждунов" not in page


def test_closing_a_go_tournaments_registration_registers_the_players_for_its_rounds():
    me = organiser(username="me")
    tournament = _draft(me, discipline="go", go_system="fus", rounds=3, announcement=AnnouncementStatus.APPROVED)
    rated, unrated = PlayerFactory(last_name="Рейтингов"), PlayerFactory(last_name="Безрейтингов")
    DirsRating.objects.create(player=rated, rating=180, initial_rating=180, declared_rank="3k")
    for n, player in enumerate((rated, unrated)):
        Registration.objects.create(
            tournament=tournament, player=player, name=player.full_name, email=f"{n}@example.org", status="registered"
        )
    Registration.objects.create(tournament=tournament, name="Новичков", email="n@example.org", status="registered")
    services.registration_close(tournament=tournament, user=me)
    go_players = list(GoRegistration.objects.filter(tournament__tournament=tournament).values_list("player", "rating"))
    assert go_players == [(rated.pk, 1800)]  # the DIRS rating on the tournament scale (rules/go.md)
    skipped = services.go_registrations_sync(tournament=tournament, user=me)
    assert any("Безрейтингов" in line for line in skipped)  # no DIRS rating: the director types one
    assert any("Новичков" in line for line in skipped)  # not in the registry yet
    assert GoRegistration.objects.filter(tournament__tournament=tournament).count() == 1
