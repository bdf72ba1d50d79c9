"""``/api/v1/calendar/``: the announced tournaments and the public part of their registrations, in the API's style
(JSON, the language of ``?lang=``, errors naming the parameter, ETag/304), never an e-mail address."""

import datetime

import pytest

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import AnnouncementStatus, Registration, TournamentStatus

pytestmark = pytest.mark.django_db


def test_the_calendar_and_one_tournament(client, announced):
    player = PlayerFactory(last_name="Картов", last_name_latin="Kartov", first_name_latin="Ivan")
    Registration.objects.create(
        tournament=announced, player=player, name=player.full_name, email="hidden@example.org", status="registered"
    )
    Registration.objects.create(tournament=announced, name="Новичков Пётр", email="new@example.org", status="waiting")
    Registration.objects.create(tournament=announced, name="Не подтвердил", email="p@example.org")
    TournamentFactory(name="Не объявлен", status=TournamentStatus.DRAFT, start_date=announced.start_date)
    answer = client.get("/api/v1/calendar/?lang=en")
    assert answer.status_code == 200
    body = answer.json()
    assert body["paging"]["count"] == 1
    entry = body["tournaments"][0]
    assert entry["name"] == "Кубок Твери"
    assert entry["schedule"] == "scheduled"
    assert entry["registration_open"] is True
    assert (entry["registered"], entry["waiting"], entry["max_players"]) == (1, 1, 3)
    assert entry["url"] == f"/en/calendar/{announced.pk}/"
    assert entry["ics"] == f"/en/calendar/{announced.pk}.ics"
    assert entry["results_url"] is None
    # 304 when nothing changed.
    again = client.get("/api/v1/calendar/?lang=en", HTTP_IF_NONE_MATCH=answer["ETag"])
    assert again.status_code == 304

    detail = client.get(f"/api/v1/calendar/{announced.pk}/?lang=en")
    assert detail.status_code == 200
    data = detail.json()
    assert data["description"] == "An open tournament."
    assert [(r["name"], r["status"]) for r in data["registrations"]] == [
        ("Kartov Ivan", "registered"),
        ("Новичков Пётр", "waiting"),
    ]
    assert data["registrations"][0]["player"]["id"] == player.pk
    assert data["registrations"][1]["player"] is None
    assert 'example.org"' not in detail.content.decode().replace('"org@example.org"', "")
    assert client.get(f"/api/v1/calendar/{announced.pk}/?lang=ru").json()["description"] == "Открытый турнир."


def test_filters_and_errors(client, announced):
    TournamentFactory(
        name="Прошлый",
        announcement=AnnouncementStatus.APPROVED,
        start_date=datetime.date(2020, 5, 1),
        end_date=datetime.date(2020, 5, 1),
    )
    assert client.get("/api/v1/calendar/?discipline=go").json()["tournaments"] == []
    assert client.get("/api/v1/calendar/?city=Тверь").json()["paging"]["count"] == 1
    assert client.get("/api/v1/calendar/?city=Казань").json()["paging"]["count"] == 0
    past = client.get("/api/v1/calendar/?when=past").json()["tournaments"]
    assert [t["name"] for t in past] == ["Прошлый"]
    assert past[0]["results_url"]
    bad = client.get("/api/v1/calendar/?discipline=chess")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "discipline"
    missing = client.get("/api/v1/calendar/999999/")
    assert missing.status_code == 404
    assert missing.json()["errors"][0]["field"] == "id"
    draft = TournamentFactory(status=TournamentStatus.DRAFT)
    assert client.get(f"/api/v1/calendar/{draft.pk}/").status_code == 404
