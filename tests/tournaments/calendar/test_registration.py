"""Online registration: the e-mail with its single-use, expiring link, the limit and the waiting list, the cancel
link, the throttle; read from Django's test outbox."""

import re

import pytest
from django.core import mail, signing
from django.test import override_settings
from django.utils import timezone

from tests.factories import PlayerFactory
from tournaments.calendar import services
from tournaments.models import Registration, RegistrationStatus

pytestmark = pytest.mark.django_db

LINK = re.compile(r"https?://\S+/calendar/(confirm|cancel)/(\S+)/")


def _link(message, kind):
    for found in LINK.finditer(message.body):
        if found.group(1) == kind:
            return found.group(0).split("://", 1)[1].split("/", 1)[1]
    raise AssertionError(f"no {kind} link in {message.body}")


def _register(client, tournament, **data):
    return client.post(f"/en/calendar/{tournament.pk}/register/", data)


def test_a_player_registers_and_confirms_by_the_link(client, announced, django_capture_on_commit_callbacks):
    player = PlayerFactory(last_name="Картов", first_name="Иван", last_name_latin="Kartov", first_name_latin="Ivan")
    response = _register(client, announced, player=player.pk, email="Ivan@Example.org")
    assert response.status_code == 302
    registration = Registration.objects.get()
    assert registration.status == RegistrationStatus.PENDING
    assert registration.email == "ivan@example.org"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["ivan@example.org"]
    assert "Confirm your registration: Кубок Твери" in mail.outbox[0].subject
    # Not yet on the public page: the e-mail is not confirmed.
    assert "Kartov" not in client.get(f"/en/calendar/{announced.pk}/").content.decode()
    link = "/" + _link(mail.outbox[0], "confirm")
    assert "Confirm my registration" in client.get(link).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the page cache's versions move when a write commits
        page = client.post(link).content.decode()
    assert "You are registered" in page
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.REGISTERED
    assert "You are registered: Кубок Твери" in mail.outbox[1].subject
    public = client.get(f"/en/calendar/{announced.pk}/").content.decode()
    assert "Kartov Ivan" in public
    assert "example.org" not in public.replace("org@example.org", "")
    # The link is single-use.
    again = client.post(link)
    assert again.status_code == 400
    assert "used already" in again.content.decode()


def test_the_limit_then_the_waiting_list_then_a_freed_seat(client, announced):
    players = [PlayerFactory() for _ in range(4)]
    for n, player in enumerate(players):
        _register(client, announced, player=player.pk, email=f"p{n}@example.org")
        client.post("/" + _link(mail.outbox[-1], "confirm"))
    statuses = [Registration.objects.get(player=p).status for p in players]
    assert statuses == ["registered"] * 3 + ["waiting"]
    assert "You are on the waiting list" in mail.outbox[-1].subject
    # The first cancels from the link in their e-mail: the waiting player moves up and is told.
    first_mail = next(m for m in mail.outbox if m.to == ["p0@example.org"] and "registered" in m.subject)
    cancel = "/" + _link(first_mail, "cancel")
    assert "Your registration is cancelled" in client.post(cancel).content.decode()
    assert Registration.objects.get(player=players[3]).status == RegistrationStatus.REGISTERED
    assert any(m.to == ["p3@example.org"] and "You are registered" in m.subject for m in mail.outbox)


def test_a_full_tournament_without_a_waiting_list_refuses_politely(client, announced):
    announced.waiting_list = False
    announced.max_players = 2
    announced.save()
    for n in range(2):
        _register(client, announced, name=f"Новичков {n}", email=f"n{n}@example.org")
        client.post("/" + _link(mail.outbox[-1], "confirm"))
    response = _register(client, announced, name="Опоздалов", email="late@example.org")
    assert response.status_code == 400
    assert "the field is full and this tournament keeps no waiting list" in response.content.decode()
    assert Registration.objects.filter(name="Опоздалов").count() == 0


def test_an_expired_or_forged_link_changes_nothing(client, announced):
    _register(client, announced, name="Новичков Пётр", city="Тверь", email="p@example.org")
    link = "/" + _link(mail.outbox[0], "confirm")
    with override_settings(REGISTRATION_CONFIRM_SECONDS=-1):
        response = client.post(link)
    assert response.status_code == 400
    assert "expired" in response.content.decode()
    forged = client.post(link[:-3] + "xx/")
    assert forged.status_code == 400
    # A cancel token does not confirm.
    registration = Registration.objects.get()
    cancel = signing.TimestampSigner(salt=services.SALT).sign_object(
        {"r": registration.pk, "a": "cancel", "e": registration.email}
    )
    assert client.post(f"/en/calendar/confirm/{cancel}/").status_code == 400
    assert Registration.objects.get().status == RegistrationStatus.PENDING


def test_bad_input_names_the_field_and_saves_nothing(client, announced):
    response = _register(client, announced, email="not-an-address")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Enter a valid email address." in page
    assert "Find yourself in the registry, or type your surname and name." in page
    response = _register(client, announced, player=999999, email="a@example.org")
    assert "There is no such player in the registry." in response.content.decode()
    assert not Registration.objects.exists()
    assert not mail.outbox


@override_settings(REGISTRATION_RATE="2/3600")
def test_the_form_is_throttled_per_address_and_per_email(client, announced):
    for n in range(2):
        assert _register(client, announced, name=f"Игрок {n}", email=f"x{n}@example.org").status_code == 302
    refused = _register(client, announced, name="Игрок 3", email="x3@example.org")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert "Too many registrations" in refused.content.decode()
    # Another address is refused for the same e-mail too.
    other = _register(client, announced, name="Игрок 4", email="x0@example.org", REMOTE_ADDR="10.0.0.9")
    assert other.status_code in (302, 429)


def test_registration_closes_at_the_deadline_and_by_the_organiser(client, announced):
    announced.registration_deadline = timezone.localdate() - timezone.timedelta(days=1)
    announced.save()
    page = client.get(f"/en/calendar/{announced.pk}/register/").content.decode()
    assert "The registration deadline has passed." in page
    assert _register(client, announced, name="Поздний", email="l@example.org").status_code == 200
    assert not Registration.objects.exists()


def test_without_e_mail_the_site_takes_no_online_registration(client, announced, settings):
    settings.EMAIL_URL = ""
    page = client.get(f"/en/calendar/{announced.pk}/").content.decode()
    assert "Online registration needs e-mail" in page
    assert _register(client, announced, name="Игрок", email="a@example.org").status_code == 200
    assert not Registration.objects.exists()
