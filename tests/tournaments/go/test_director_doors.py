"""Every door of the Go pages (every address of ``tournaments/go/urls.py``) by the tournament's status and by who
knocks (issue 27): the tournament's own organiser, another organiser, federation staff, an anonymous visitor.

The rules, as the admin and ``/tournaments/<id>/`` have them:
- a draft or a submitted tournament is its director's (the organiser who created it) and staff's alone: anyone else
  gets a 404 from every page of it and does not find it on ``/go/``; an approved one is everyone's to read;
- a submitted or approved tournament is locked for its organiser, as the admin locks it: every door that changes
  it refuses them (the reason on the tournament's page, or a 403 for the fast entry's JSON) and nothing changes;
  staff may change it in any status;
- the director's own pages (the record, the result slips, the backup) are the director's and staff's.

A door missing from ``DOORS`` fails ``test_every_address_has_a_row``, so a new address must say who may use it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from tests.factories import PlayerFactory, federation_staff, organiser
from tournaments.go import services, urls
from tournaments.go.models import Absence, Board, DirectorLog, GoTournament, Registration, Round
from tournaments.models import Tournament, TournamentStatus

from .helpers import EN, today

pytestmark = pytest.mark.django_db

STATUSES = [TournamentStatus.DRAFT, TournamentStatus.SUBMITTED, TournamentStatus.APPROVED]
ROLES = ["owner", "other_organiser", "staff", "anonymous"]


def _tournament(owner) -> GoTournament:
    """FUS, 3 rounds, 4 players: round 1 complete, round 2 published with board 1 played and board 2 not yet."""
    go = services.go_tournament_create(
        user=owner,
        name="Doors Cup",
        start_date=today(),
        end_date=today(),
        system="fus",
        rounds=3,
        half_stone=True,
        acceleration=True,
    )
    for name, rating in (("A", 2000), ("B", 1950), ("C", 1900), ("D", 1850)):
        services.go_registration_add(go=go, name=name, rating=rating)
    for number in (1, 2):
        rnd = services.go_round_pair(go=go)
        services.go_round_publish(go_round=rnd)
        boards = [1, 2] if number == 1 else [1]
        for board in boards:
            services.go_result_enter(go_round=rnd, board_number=board, result="white")
    return go


def _finish_round_two(go):
    services.go_result_enter(go_round=Round.objects.get(tournament=go, number=2), board_number=2, result="black")


def _draft_round_three(go):
    _finish_round_two(go)
    services.go_round_pair(go=go)


def snapshot(go: GoTournament) -> tuple:
    """Everything a door could change about the tournament."""
    return (
        list(Registration.objects.filter(tournament=go).order_by("id").values_list("id", "name", "withdrawn_after")),
        list(
            Absence.objects.filter(registration__tournament=go)
            .order_by("registration_id", "round_number")
            .values_list("registration_id", "round_number")
        ),
        list(Round.objects.filter(tournament=go).order_by("number").values_list("number", "status", "completed")),
        list(
            Board.objects.filter(round__tournament=go)
            .order_by("round__number", "number")
            .values_list("round__number", "number", "white_id", "black_id", "result", "handicap")
        ),
        GoTournament.objects.get(pk=go.pk).egd_class,
        Tournament.objects.get(pk=go.pk).status,
        DirectorLog.objects.filter(tournament=go).count(),
    )


def _reg(go, name="A") -> Registration:
    return Registration.objects.get(tournament=go, name=name)


def _players_import(client, go):
    """Upload a list of players, then confirm the preview (the confirmation posts the file's hash)."""
    url = f"{EN}/{go.pk}/import/"
    upload = _csv(b"surname,first_name,rating\nImported,Player,1500\n")
    response = client.post(url, {"file": upload})
    if response.status_code != 200:
        return response
    found = re.search(r'name="sha256" value="([0-9a-f]{64})"', response.content.decode())
    assert found, response.content.decode()[:3000]
    return client.post(url, {"confirm": "1", "sha256": found.group(1)})


def _csv(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("players.csv", content, content_type="text/csv")


@dataclass(frozen=True)
class Door:
    """``kind``: public (everyone's once approved), director (the director's and staff's pages that change
    nothing), write (changes the tournament: refused while locked), open (no tournament: anyone), create (no
    tournament: whoever may create tournaments). ``changes``: whether a successful request changes the snapshot."""

    kind: str
    knock: Callable
    prepare: Callable | None = None
    changes: bool = False
    json: bool = False


DOORS: dict[str, Door] = {
    # No tournament behind them.
    "index": Door("open", lambda c, go: c.get(f"{EN}/")),
    "calculator": Door("open", lambda c, go: c.get(f"{EN}/calculator/")),
    "calculator_json": Door(
        "open", lambda c, go: c.get(f"{EN}/calculator.json", {"scale": "dirs", "a": 150, "b": 137})
    ),
    "tournament_create": Door("create", lambda c, go: c.get(f"{EN}/new/")),
    "history_import": Door("create", lambda c, go: c.get(f"{EN}/import-history/")),
    "backup_restore": Door("create", lambda c, go: c.get(f"{EN}/restore/")),
    # What everyone reads of an approved tournament.
    "tournament": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/")),
    "round": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/rounds/1/")),
    "standings": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/standings/")),
    "player_games": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/players/{_reg(go).pk}/")),
    "egd_export": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/egd.h9")),
    "crosstable": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/crosstable/")),
    "print_standings": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/print/standings/")),
    "print_boards": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/rounds/1/print/boards/")),
    "print_players": Door("public", lambda c, go: c.get(f"{EN}/{go.pk}/rounds/1/print/players/")),
    # The director's pages that change nothing.
    "log": Door("director", lambda c, go: c.get(f"{EN}/{go.pk}/log/")),
    "backup": Door("director", lambda c, go: c.get(f"{EN}/{go.pk}/backup.json")),
    "print_slips": Door("director", lambda c, go: c.get(f"{EN}/{go.pk}/rounds/1/print/slips/")),
    # The doors that change the tournament (or lead to a change).
    "member_search": Door("write", lambda c, go: c.get(f"{EN}/{go.pk}/members.json", {"q": "Petrov"}), json=True),
    "registration_add": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/register/", {"surname": "Comer", "given_name": "Late", "rating": 1500}),
        changes=True,
    ),
    "registration_withdraw": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/registrations/{_reg(go, 'D').pk}/withdraw/", {"confirmed": "1"}),
        changes=True,
    ),
    "absence_set": Door(
        "write",
        lambda c, go: c.post(
            f"{EN}/{go.pk}/absence/", {"registration": _reg(go).pk, "round_number": 3, "absent": "on"}
        ),
        changes=True,
    ),
    "round_pair": Door("write", lambda c, go: c.post(f"{EN}/{go.pk}/pair/"), prepare=_finish_round_two, changes=True),
    "round_edit": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/rounds/3/edit/", {"action": "publish"}),
        prepare=_draft_round_three,
        changes=True,
    ),
    "result_enter": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/rounds/2/result/", {"board": 2, "result": "black"}),
        changes=True,
    ),
    "result_correct": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/rounds/1/correct/", {"board": 1, "result": "black"}),
        changes=True,
    ),
    "egd_class_set": Door("write", lambda c, go: c.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "B"}), changes=True),
    "entry": Door("write", lambda c, go: c.get(f"{EN}/{go.pk}/rounds/2/enter/")),
    "entry_json": Door(
        "write",
        lambda c, go: c.post(f"{EN}/{go.pk}/rounds/2/result.json", {"board": 2, "result": "black"}),
        changes=True,
        json=True,
    ),
    "players_import": Door("write", _players_import, changes=True),
}


def test_every_address_has_a_row():
    names = {p.name for p in urls.urlpatterns if isinstance(p, URLPattern)}
    assert names == set(DOORS), f"without a row: {sorted(names - set(DOORS))}; no longer there: {set(DOORS) - names}"


def _client(role: str, owner) -> Client:
    client = Client()
    if role == "owner":
        client.force_login(owner)
    elif role == "other_organiser":
        client.force_login(organiser())
    elif role == "staff":
        client.force_login(federation_staff())
    return client


def _set_status(go, status):
    Tournament.objects.filter(pk=go.pk).update(status=status)


def _is_login(response) -> bool:
    return response.status_code == 302 and "/login/" in response["Location"]


def _refused_as_locked(response, go, door: Door) -> bool:
    if door.json:
        return response.status_code == 403 and "federation staff" in response.json()["error"]
    return response.status_code == 302 and response["Location"] == reverse("go:tournament", args=[go.pk])


TOURNAMENT_DOORS = sorted(name for name, door in DOORS.items() if door.kind in ("public", "director", "write"))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("status", STATUSES)
@pytest.mark.parametrize("name", TOURNAMENT_DOORS)
def test_a_tournament_door(name, status, role):
    door = DOORS[name]
    owner = organiser(username="doors-owner")
    go = _tournament(owner)
    if door.prepare:
        door.prepare(go)
    _set_status(go, status)
    go = GoTournament.objects.select_related("tournament").get(pk=go.pk)
    client = _client(role, owner)
    before = snapshot(go)
    response = door.knock(client, go)
    after = snapshot(go)
    director = role in ("owner", "staff")
    visible = director or status == TournamentStatus.APPROVED
    where = f"{name}, {status}, {role}: {response.status_code}"

    if door.kind == "public":
        if not visible:
            assert response.status_code == 404, where
        elif name == "egd_export":  # not finished yet: back to the tournament's page, which says why
            assert response.status_code == 302, where
            assert response["Location"] == reverse("go:tournament", args=[go.pk])
        else:
            assert response.status_code == 200, where
        assert after == before, where
        return

    if role == "anonymous":
        assert _is_login(response), where
    elif not director:
        assert response.status_code == (403 if status == TournamentStatus.APPROVED else 404), where
    elif door.kind == "director" or role == "staff" or status == TournamentStatus.DRAFT:
        # Allowed: the page, or the change made (a form's redirect, the fast entry's JSON).
        assert response.status_code in (200, 302), where
        if response.status_code == 302:
            assert not _is_login(response), where
            assert "messages" not in response.cookies or "federation staff" not in response.cookies["messages"].value
        if door.changes:
            assert after != before, where
            return
    else:  # the organiser of a submitted or approved tournament: locked as the admin locks it
        assert _refused_as_locked(response, go, door), where
        if not door.json:
            page = client.get(response["Location"]).content.decode()
            assert "federation staff" in page, where
    assert after == before, where


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("name", sorted(name for name, door in DOORS.items() if door.kind in ("open", "create")))
def test_a_door_without_a_tournament(name, role):
    door = DOORS[name]
    owner = organiser(username="doors-owner")
    response = door.knock(_client(role, owner), None)
    if door.kind == "open" or role != "anonymous":
        assert response.status_code == 200, (name, role)
    else:
        assert _is_login(response), (name, role)


@pytest.mark.parametrize("status", STATUSES)
def test_the_list_shows_a_draft_or_a_submitted_tournament_to_its_director_and_staff_only(status):
    owner = organiser(username="doors-owner")
    go = _tournament(owner)
    _set_status(go, status)
    link = f'href="{EN}/{go.pk}/"'
    for role in ROLES:
        page = _client(role, owner).get(f"{EN}/").content.decode()
        shown = role in ("owner", "staff") or status == TournamentStatus.APPROVED
        assert (link in page) == shown, (status, role)


@pytest.mark.parametrize("status", STATUSES)
def test_a_player_page_lists_a_go_tournament_once_it_is_approved(status):
    owner = organiser(username="doors-owner")
    go = _tournament(owner)
    member = PlayerFactory(last_name="Участник", first_name="Турнира")
    services.go_registration_add(go=go, player=member, rating=1500)
    _set_status(go, status)
    page = Client().get(f"/en/players/{member.pk}/").content.decode()
    assert ("Doors Cup" in page) == (status == TournamentStatus.APPROVED), status


def test_the_organiser_sees_why_a_submitted_tournament_is_read_only():
    owner = organiser(username="doors-owner")
    go = _tournament(owner)
    _set_status(go, TournamentStatus.SUBMITTED)
    client = _client("owner", owner)
    page = client.get(f"{EN}/{go.pk}/").content.decode()
    assert 'id="locked"' in page
    assert "submitted to federation staff" in page
    for form in ("/register/", "/absence/", "/pair/", "/import/"):
        assert f"{go.pk}{form}" not in page, form
    page = client.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    assert "/rounds/2/result/" not in page
    assert "/enter/" not in page
    # The service refuses too, whatever page sent the request.
    with pytest.raises(services.GoError, match="submitted to federation staff"):
        services.go_result_enter(
            go_round=Round.objects.get(tournament=go, number=2), board_number=2, result="white", user=owner
        )
