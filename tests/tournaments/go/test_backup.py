"""The director's backup file (issue 27): the whole tournament downloaded at any round and loaded again, as a new
tournament, the same in every row (a round trip); a bad file refused with its place named, nothing saved."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import PlayerFactory, organiser
from tournaments.go.models import Absence, Board, Bye, DirectorLog, GoTournament, Registration, Round, StandingRow

from .helpers import EN, create, edit, pair, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser(username="backup-director"))
    return client


def _mid_tournament(director) -> GoTournament:
    """FUS, 4 rounds, six players (two members): round 1 played with a swap by hand and a forfeit; a withdrawal
    after it; round 2 published with a bye by request, a special result and one board still to play."""
    go = create(director, name="Backup Cup", rounds=4)
    members = [
        PlayerFactory(
            last_name="ван дер Берг", first_name="Ян", last_name_latin="van der Berg", first_name_latin="Jan"
        ),
        PlayerFactory(last_name="Ёлкина", first_name="Мария", last_name_latin="", first_name_latin=""),
    ]
    for member, rating in zip(members, (2300, 2200), strict=True):
        director.post(f"{EN}/{go.pk}/register/", {"player": member.pk, "rating": rating})
    for surname, rating in (("Щукин", 2100), ("Ли", 2000), ("Smith", 1900), ("Müller", 1800), ("Kim", 1700)):
        director.post(f"{EN}/{go.pk}/register/", {"surname": surname, "given_name": "A", "rating": rating})
    regs = {r.surname: r for r in go.registrations.all()}
    pair(director, go)
    edit(director, go, 1, action="swap", first=regs["Ли"].pk, second=regs["Smith"].pk)
    edit(director, go, 1, action="publish")
    rnd1 = Round.objects.get(tournament=go, number=1)
    for board in rnd1.boards.order_by("number"):
        result(director, go, 1, board.number, "white_forfeit" if board.number == 2 else "black")
    director.post(f"{EN}/{go.pk}/registrations/{regs['Kim'].pk}/withdraw/", {"confirmed": "1"})
    director.post(f"{EN}/{go.pk}/absence/", {"registration": regs["Müller"].pk, "round_number": 2, "absent": "request"})
    pair(director, go)
    edit(director, go, 2, action="publish")
    rnd2 = Round.objects.get(tournament=go, number=2)
    boards = list(rnd2.boards.order_by("number"))
    result(director, go, 2, boards[0].number, "both_win")
    director.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "B"})
    assert rnd2.boards.filter(result="").exists()
    return GoTournament.objects.select_related("tournament").get(pk=go.pk)


def state(go: GoTournament) -> dict:
    """Everything about a tournament but its ids: what a round trip must keep."""
    name = {r.pk: r.name for r in Registration.objects.filter(tournament=go)}
    return {
        "tournament": (
            go.tournament.name,
            go.tournament.start_date,
            go.tournament.rounds,
            go.tournament.half_stone,
            go.tournament.acceleration,
            go.egd_class,
            go.komi_normal,
        ),
        "registrations": sorted(
            Registration.objects.filter(tournament=go).values_list(
                "surname",
                "given_name",
                "surname_latin",
                "given_name_latin",
                "name",
                "player_id",
                "rating",
                "rating_source",
                "country",
                "club_name",
                "first_round",
                "withdrawn_after",
            )
        ),
        "absences": sorted(
            (name[a.registration_id], a.round_number, a.requested)
            for a in Absence.objects.filter(registration__tournament=go)
        ),
        "rounds": list(
            Round.objects.filter(tournament=go)
            .order_by("number")
            .values_list("number", "seed", "status", "completed", "issues", "overrides")
        ),
        "boards": sorted(
            (
                b.round.number,
                b.number,
                name[b.white_id],
                name[b.black_id],
                b.white_level,
                b.black_level,
                b.handicap,
                b.komi_kind,
                b.komi,
                b.result,
            )
            for b in Board.objects.filter(round__tournament=go).select_related("round")
        ),
        "byes": sorted((b.round.number, name[b.registration_id]) for b in Bye.objects.filter(round__tournament=go)),
        "standings": sorted(
            (s.round.number, s.place, name[s.registration_id], s.level, s.tiebreak, s.streak)
            for s in StandingRow.objects.filter(round__tournament=go).select_related("round")
        ),
        "log": list(DirectorLog.objects.filter(tournament=go).order_by("at", "id").values_list("action", "text_en")),
    }


def _restore(client, content: bytes, name: str = "backup.json"):
    return client.post(f"{EN}/restore/", {"file": SimpleUploadedFile(name, content)}, follow=True)


def test_a_backup_at_any_round_loads_again_as_the_same_tournament(director):
    go = _mid_tournament(director)
    response = director.get(f"{EN}/{go.pk}/backup.json")
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="go-tournament-{go.pk}-round-2.json"'
    document = json.loads(response.content)
    assert document["format"] == "go-tournament-backup"
    assert 'id="backup-link"' in director.get(f"{EN}/{go.pk}/").content.decode()

    page = _restore(director, response.content, "go-tournament-round-2.json").content.decode()
    assert "Backup Cup is loaded from go-tournament-round-2.json." in page
    loaded = GoTournament.objects.exclude(pk=go.pk).select_related("tournament").get()
    assert loaded.tournament.organiser.username == "backup-director"
    before, after = state(go), state(loaded)
    assert after["log"][:-1] == before["log"]
    assert after["log"][-1] == ("restore", "restored from go-tournament-round-2.json")
    before.pop("log")
    after.pop("log")
    assert after == before
    # The loaded tournament's own backup is the first one, but for its ids, when it was saved and the record's
    # new line.
    again = json.loads(director.get(f"{EN}/{loaded.pk}/backup.json").content)

    def without_ids(doc):
        keys = {r["key"]: f"p{k}" for k, r in enumerate(doc["registrations"])}
        doc = {k: v for k, v in doc.items() if k not in ("saved_at", "log")}
        doc["tournament"] = {**doc["tournament"], "id": 0}
        text = json.dumps(doc, sort_keys=True)
        for key, neutral in sorted(keys.items(), key=lambda item: -len(item[0])):
            text = text.replace(f'"{key}"', f'"{neutral}"')
        return json.loads(text)

    assert without_ids(again) == without_ids(document)
    # And it goes on: round 2's last board, then round 3 paired.
    rnd2 = Round.objects.get(tournament=loaded, number=2)
    for board in rnd2.boards.filter(result=""):
        result(director, loaded, 2, board.number, "white")
    rnd2.refresh_from_db()
    assert rnd2.completed
    assert pair(director, loaded).number == 3


def test_a_member_not_found_again_keeps_the_name_and_the_loader_is_told(director):
    go = _mid_tournament(director)
    document = json.loads(director.get(f"{EN}/{go.pk}/backup.json").content)
    member = next(r for r in document["registrations"] if r["player"])
    member["player"]["name"] = "Кто-то Другой"
    page = _restore(director, json.dumps(document).encode()).content.decode()
    assert "Кто-то Другой was a member on the site the file comes from: registered by the name in the file." in page
    loaded = GoTournament.objects.exclude(pk=go.pk).get()
    assert Registration.objects.filter(tournament=loaded, player=None).count() == 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["rounds"][0]["boards"][0].update(white="r999999"), "rounds[0].boards[0].white: is not a reg"),
        (lambda d: d["registrations"][0].update(rating=-5), "registrations[0].rating: is not a whole number from 0"),
        (lambda d: d["rounds"][1]["boards"][0].update(result="maybe"), "rounds[1].boards[0].result: is not one of"),
        (lambda d: d["tournament"].update(rounds="four"), "tournament.rounds: is not a whole number from 1 to 30"),
        (lambda d: d.update(format="opengotha"), "This is not a backup file of a Go tournament"),
        (lambda d: d["rounds"][0].update(number=3), "the rounds are not 1, 2, 3... in order"),
    ],
)
def test_a_bad_backup_is_refused_with_its_place_named_and_nothing_saved(director, change, message):
    go = _mid_tournament(director)
    document = json.loads(director.get(f"{EN}/{go.pk}/backup.json").content)
    change(document)
    response = _restore(director, json.dumps(document).encode())
    assert response.status_code == 200
    assert message in response.content.decode()
    assert GoTournament.objects.count() == 1


def test_a_file_that_is_not_json_is_refused_in_words(director):
    assert "The file is not JSON" in _restore(director, b"\xff\xfe not json").content.decode()
    assert "Upload a .json backup file." in _restore(director, b"{}", "backup.h9").content.decode()
    assert "document: is not an object" in _restore(director, b"[1, 2]").content.decode()
    assert GoTournament.objects.count() == 0
