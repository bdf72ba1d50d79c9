"""Players from an EGD `.h9` table or a CSV, matched against the members and previewed before anything is saved;
a finished tournament's `.h9` imported as history and replayed with the site's rules."""

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from federation.models import Player
from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser
from tournaments.go import egd_read, selectors, services
from tournaments.go.models import Board, DirectorLog, GoTournament, Registration

from .egd_validator import validate
from .helpers import EN, create, register
from .test_egd import OPENGOTHA

pytestmark = pytest.mark.django_db

PLAYERS_H9 = """; CL[C]
; EV[Spring Cup]
; PC[RU, Tver]
; DT[2026-04-04,2026-04-05]
;
; Pl Name               Rk Co Club  MMS
  1 Someone Else        2d RU  Tver  10  2+/w0  |12850431
  2 Kondratev Daniil    1k RU  Mosc   9  1-/b0  |12850432
  3 Shchukin Petr       3k RU  Mosc   8  4+/w1
  4 Petrov Ivan         5k RU  Tver   7  3-/b1
  5 Smith John         10k GB  Lond   6  0+     |12850435
"""


@pytest.fixture
def director(client):
    client.force_login(organiser(username="import-director"))
    return client


@pytest.fixture
def members():
    return {
        "pin": PlayerFactory(last_name="Иной", first_name="Кто-то", last_name_latin="Inoi", egd_pin="12850431"),
        "kondratev": PlayerFactory(
            last_name="Кондратьев", first_name="Даниил", last_name_latin="Kondratyev", first_name_latin="Daniil"
        ),
        # Lives in Moscow (the .h9 file's club "Mosc"), plays for a Tver club (the CSV's "Тверь ГК").
        "shchukin": PlayerFactory(
            last_name="Щукин",
            first_name="Пётр",
            last_name_latin="",
            first_name_latin="",
            club=ClubFactory(name="ГК Тверь", city="Тверь"),
        ),
        "petrov1": PlayerFactory(last_name="Петров", first_name="Иван", last_name_latin="Petrov", city="Тверь"),
        "petrov2": PlayerFactory(last_name="Петров", first_name="Иван", last_name_latin="Petrov", city="Сочи"),
    }


def _upload(client, url, name, content, **extra):
    return client.post(url, {"file": SimpleUploadedFile(name, content), **extra})


def _row(page: str, line: int) -> str:
    return page.split(f'<tr id="row{line}">')[1].split("</tr>")[0]


def test_players_from_an_h9_table_are_matched_previewed_and_registered(director, members):
    go = create(director, name="Import")
    url = f"{EN}/{go.pk}/import/"
    page = _upload(director, url, "spring.h9", PLAYERS_H9.encode()).content.decode()
    assert not Registration.objects.filter(tournament=go).exists()  # the preview saves nothing
    first = _row(page, 7)
    assert "found by the EGD PIN" in first
    assert f'<option value="{members["pin"].pk}" selected>' in first
    assert "found by the name" in _row(page, 8)  # Kondratev ~ Kondratyev (another spelling of one name)
    assert f'<option value="{members["kondratev"].pk}" selected>' in _row(page, 8)
    assert f'<option value="{members["shchukin"].pk}" selected>' in _row(page, 9)  # no Latin name: transliterated
    namesakes = _row(page, 10)
    assert "several members with this name: choose" in namesakes
    assert "Тверь" in namesakes
    assert "Сочи" in namesakes
    assert "selected" not in namesakes.split('value="name"')[0]
    assert '<option value="name" selected>' in namesakes
    assert '<option value="name" selected>' in _row(page, 11)  # Smith John: no member
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    response = director.post(url, {"confirm": "1", "sha256": sha256, "row10": str(members["petrov1"].pk)}, follow=True)
    assert "5 players registered from spring.h9." in response.content.decode()
    regs = {r.name: r for r in Registration.objects.filter(tournament=go)}
    assert regs["Иной Кто-то"].player_id == members["pin"].pk
    assert regs["Кондратьев Даниил"].rating == 2000  # 1k on the tournament scale
    assert regs["Петров Иван"].player_id == members["petrov1"].pk
    assert (regs["Smith John"].player_id, regs["Smith John"].egd_pin, regs["Smith John"].country) == (
        None,
        "12850435",
        "GB",
    )
    assert regs["Smith John"].name_latin == "Smith John"
    # The file's PIN is kept on the member who had none.
    assert Player.objects.get(pk=members["kondratev"].pk).egd_pin == "12850432"
    assert Player.objects.get(pk=members["shchukin"].pk).egd_pin == ""
    assert DirectorLog.objects.filter(tournament=go, action="import").exists()
    # The same file again: everyone is already registered, so every line is skipped.
    page = _upload(director, url, "spring.h9", PLAYERS_H9.encode()).content.decode()
    assert page.count("already registered") == 5


def test_players_from_a_russian_csv(director, members):
    go = create(director, name="CSV")
    content = "Фамилия;Имя;Разряд;Клуб\nЩукин;Пётр;3k;Тверь ГК\nНовиков;Олег;12k;\n".encode("cp1251")
    page = _upload(director, f"{EN}/{go.pk}/import/", "list.csv", content).content.decode()
    assert f'<option value="{members["shchukin"].pk}" selected>' in _row(page, 2)
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    director.post(f"{EN}/{go.pk}/import/", {"confirm": "1", "sha256": sha256})
    regs = {r.name: (r.player_id, r.rating, r.club_name, r.name_latin) for r in go.registrations.all()}
    assert regs == {
        "Щукин Пётр": (members["shchukin"].pk, 1800, "Тверь ГК", ""),
        "Новиков Олег": (None, 900, "", ""),
    }


def test_bad_files_are_refused_with_the_line_and_nothing_is_saved(director, members):
    go = create(director, name="Bad")
    url = f"{EN}/{go.pk}/import/"
    page = _upload(director, url, "list.csv", b"name,club\nA,B\n").content.decode()
    assert "The first row must name the columns" in page
    page = _upload(director, url, "list.csv", b"surname,first_name,rank\nA,B,5p\nC,D,3k\n").content.decode()
    assert "line 2: 5p is a professional rank: type a rating instead" in page
    page = _upload(director, url, "list.pdf", b"%PDF").content.decode()
    assert "Upload an .h9, .txt or .csv file." in page
    broken = PLAYERS_H9.replace("Someone Else", "Someone_Else")
    page = _upload(director, url, "t.h9", broken.encode()).content.decode()
    assert "the fourth field RU is not a rank: the surname and the first name must be two fields" in page
    assert 'name="sha256"' not in page  # a file with problems cannot be confirmed
    # A confirmation that does not name the file last uploaded here is refused.
    response = director.post(url, {"confirm": "1", "sha256": "0" * 64}, follow=True)
    assert "not the one last uploaded here" in response.content.decode()
    # A refused row refuses the whole file: nothing is registered.
    page = _upload(director, url, "list.csv", b"surname,first_name,rating\nA,B,1500\nC,D,\n").content.decode()
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    response = director.post(url, {"confirm": "1", "sha256": sha256}, follow=True)
    assert "line 3: Type the rating of a player who is not a member." in response.content.decode()
    assert not Registration.objects.filter(tournament=go).exists()
    other = Client()
    other.force_login(UserFactory())
    assert _upload(other, url, "spring.h9", PLAYERS_H9.encode()).status_code == 404  # a draft: not shown to others


def test_a_finished_tournament_imported_as_history(director):
    page = _upload(director, f"{EN}/import-history/", "belfast.h9", OPENGOTHA.encode()).content.decode()
    assert 'value="Belfast Handicap"' in page
    assert 'value="2016-01-30"' in page
    assert '<option value="C" selected>' in page
    assert not GoTournament.objects.exists()
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    form = {
        "name": "Belfast Handicap",
        "start_date": "2016-01-30",
        "end_date": "2016-01-30",
        "city": "Belfast",
        "country": "IE",
        "system": "fus",
        "half_stone": "on",
        "acceleration": "on",
        "tiebreak": "on",
        "komi_normal": "6.5",
        "time_minutes": "52",
        "egd_class": "C",
    }
    response = director.post(f"{EN}/import-history/", {"confirm": "1", "sha256": sha256, **form}, follow=True)
    assert "Belfast Handicap is imported." in response.content.decode()
    go = GoTournament.objects.get(tournament__name="Belfast Handicap")
    assert list(go.rounds.values_list("number", "completed", "status")) == [
        (1, True, "published"),
        (2, True, "published"),
        (3, True, "published"),
    ]
    games = [
        (b.round.number, b.white.name, b.black.name, b.handicap, b.komi_kind, b.result)
        for b in Board.objects.filter(round__tournament=go).select_related("round", "white", "black")
    ]
    # As the file writes them: Gociu won on black against Smith on 7 stones, Brown on black against Nowak... The file
    # has no komi: a game on the stones the replayed levels call for gets the table's komi (Gociu 32, Smith 18: a gap
    # of 14 is 7 stones and reverse komi), any other game on stones none.
    assert sorted(games) == [
        (1, "Nowak Pawel", "Brown Emily", 1, "none", "black"),
        (1, "Smith John", "Gociu Tiberiu", 7, "reverse", "black"),
        (2, "Gociu Tiberiu", "Brown Emily", 6, "reverse", "white"),
        (3, "Brown Emily", "Smith John", 2, "none", "white"),
        (3, "Gociu Tiberiu", "Nowak Pawel", 1, "none", "white"),
    ]
    assert [b.registration.name for b in go.rounds.get(number=2).byes.select_related("registration")] == ["Smith John"]
    nowak = go.registrations.get(name="Nowak Pawel")
    assert list(nowak.absences.values_list("round_number", flat=True)) == [2]
    assert go.rounds.get(number=3).standings.count() == 4
    # The imported tournament exports again as a table EGD accepts, with the same games.
    read = validate(selectors.egd_table(go=go))
    assert sorted((p.surname, p.first_name) for p in read.players) == [
        ("Brown", "Emily"),
        ("Gociu", "Tiberiu"),
        ("Nowak", "Pawel"),
        ("Smith", "John"),
    ]
    assert DirectorLog.objects.filter(tournament=go, action="import_history").exists()


def test_history_notes_and_refusals(director):
    far = OPENGOTHA.replace("2+/b7", "2+/b11").replace("1-/w7", "1-/w11").replace("0-     1-/b1", "0=     1-/b1")
    table = egd_read.read_h9(far)
    notes = services.history.history_notes(table)
    assert "line 12, round 1: 11 stones are recorded as 9, the most a board holds" in notes
    assert "line 15, round 2: a half-point free round is recorded as an absence" in notes
    other = Client()
    other.force_login(UserFactory())
    assert other.get(f"{EN}/import-history/").status_code == 403
    assert director.get(f"{EN}/import-history/").status_code == 200


def test_registering_players_from_a_file_keeps_a_known_pin_elsewhere(director, members):
    """A PIN another member already holds is not copied onto a second member."""
    go = create(director, name="Pins")
    register(director, go, "Z", 1000)
    text = "surname,first_name,rank,egd_pin\nКондратьев,Даниил,1k,12850431\n"
    table = egd_read.read_csv(text)
    services.go_players_import(go=go, table=table, choices={}, user=None)
    assert Player.objects.get(pk=members["kondratev"].pk).egd_pin == ""


def test_a_players_csv_with_old_line_ends_or_an_unreadable_field_is_read_or_refused_in_words():
    """A lone carriage return ends a line (as an old spreadsheet writes it); a field the csv module cannot read at
    all is refused with a sentence, never a 500."""
    table = egd_read.read_csv("surname,first_name,rank\rКондратьев,Даниил,1k\r")
    assert [row.surname for row in table.players] == ["Кондратьев"]
    with pytest.raises(egd_read.FileProblem, match="cannot be read as CSV"):
        egd_read.read_csv('surname,first_name,rank\nA,"' + "b" * 200_000 + '",1k\n')
