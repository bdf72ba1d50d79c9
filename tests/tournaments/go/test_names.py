"""A registration's surname and given name kept apart (the form, the import, the EGD table, the migration of the
names kept so far), and names in the order of the reader's alphabet on every Go page and sheet (issue 27)."""

import importlib
import re

import pytest
from django.apps import apps
from django.test import Client

from tests.factories import PlayerFactory, organiser
from tournaments import pairing
from tournaments.go import egd_read, selectors, services
from tournaments.go.models import Registration
from tournaments.go.names import split_name

from .egd_validator import validate
from .helpers import EN, approve, create, edit, pair, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser(username="names-director"))
    return client


def test_the_form_keeps_the_surname_and_the_given_name_apart(director):
    go = create(director, name="Parts", rounds=1)
    response = director.post(
        f"{EN}/{go.pk}/register/", {"surname": "Ван дер Берг", "given_name": "Ян", "rating": 1800}, follow=True
    )
    assert "Ван дер Берг Ян is registered." in response.content.decode()
    reg = Registration.objects.get(tournament=go)
    assert (reg.surname, reg.given_name, reg.name) == ("Ван дер Берг", "Ян", "Ван дер Берг Ян")
    page = director.get(f"{EN}/{go.pk}/").content.decode()
    assert 'name="surname"' in page
    assert 'name="given_name"' in page
    # A surname is needed; a given name alone is not a name.
    response = director.post(f"{EN}/{go.pk}/register/", {"given_name": "Пётр", "rating": 1500}, follow=True)
    assert "Choose a member or type a name." in response.content.decode()
    assert Registration.objects.filter(tournament=go).count() == 1


def test_a_multi_word_surname_goes_to_egd_as_one_field(director):
    """`Ван дер Берг Ян` is written `Van_der_Berg Ian`: EGD reads the surname "Van der Berg" (before: `Van` and
    `der_Berg_Ian`)."""
    go = create(director, name="Berg Cup", rounds=1)
    director.post(f"{EN}/{go.pk}/register/", {"surname": "Ван дер Берг", "given_name": "Ян", "rating": 1800})
    director.post(f"{EN}/{go.pk}/register/", {"surname": "de la Cruz", "given_name": "Maria José", "rating": 1800})
    pair(director, go)
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "white")
    director.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "C"})
    text = director.get(f"{EN}/{go.pk}/egd.h9").content.decode("ascii")
    read = validate(text)
    names = {(p.surname, p.first_name) for p in read.players}
    assert names == {("Van_der_Berg", "Ian"), ("de_la_Cruz", "Maria_Jose")}
    assert re.search(r"^\s+\d+ Van_der_Berg\s+Ian\s", text, re.MULTILINE)
    # The site's reader gives the parts back.
    table = egd_read.read_h9(text)
    assert {(p.surname, p.first_name) for p in table.players} == {("Van der Berg", "Ian"), ("de la Cruz", "Maria Jose")}


def test_an_imported_player_keeps_the_file_s_two_fields(director):
    go = create(director, name="Import parts", rounds=2)
    h9 = (
        b"; CL[C]\n; EV[Spring]\n;\n"
        b"  1 van_der_Berg Jan_Willem 2d NL Amst 0+\n"
        b"  2 Kim          Min_Ho     1k KR Seou 0-\n"
    )
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = director.post(f"{EN}/{go.pk}/import/", {"file": SimpleUploadedFile("p.h9", h9)}).content.decode()
    sha256 = re.search(r'name="sha256" value="([0-9a-f]{64})"', page).group(1)
    director.post(f"{EN}/{go.pk}/import/", {"confirm": "1", "sha256": sha256})
    parts = set(Registration.objects.filter(tournament=go).values_list("surname", "given_name", "surname_latin"))
    assert parts == {("van der Berg", "Jan Willem", "van der Berg"), ("Kim", "Min Ho", "Kim")}


def test_the_migration_splits_the_names_kept_so_far():
    """Rows written before the parts existed: a member's parts from the member, a typed name split after its
    surname (particles stay with it)."""
    migration = importlib.import_module("tournaments.go.migrations.0004_registration_name_parts")
    user = organiser()
    go = services.go_tournament_create(
        user=user, name="Old", start_date="2026-01-10", end_date="2026-01-10", system="profs", rounds=1,
        half_stone=False, acceleration=False,
    )  # fmt: skip
    member = PlayerFactory(last_name="Ёлкина", first_name="Мария", last_name_latin="Elkina", first_name_latin="Mariia")
    services.go_registration_add(go=go, player=member, rating=1500)
    services.go_registration_add(go=go, name="Ван дер Берг Ян", rating=1500)
    services.go_registration_add(go=go, name="Ли", rating=1500)
    Registration.objects.update(surname="", given_name="", surname_latin="", given_name_latin="")
    migration.forwards(apps, None)
    parts = {
        r.name: (r.surname, r.given_name, r.surname_latin, r.given_name_latin)
        for r in Registration.objects.filter(tournament=go)
    }
    assert parts == {
        "Ёлкина Мария": ("Ёлкина", "Мария", "Elkina", "Mariia"),
        "Ван дер Берг Ян": ("Ван дер Берг", "Ян", "", ""),
        "Ли": ("Ли", "", "", ""),
    }
    assert migration.split_name("Ван дер Берг Ян") == split_name("Ван дер Берг Ян")


# --- the reader's alphabet ------------------------------------------------------------------------------------------

NAMES = ["Ёлкин Иван", "Андреева Анна", "Жуков Олег", "Елисеев Пётр", "яковлев яков"]
LATIN = {"Ёлкин Иван": "Yolkin Ivan", "Андреева Анна": "Andreeva Anna", "Жуков Олег": "Zhukov Oleg"}
RUSSIAN_ORDER = ["Андреева Анна", "Елисеев Пётр", "Ёлкин Иван", "Жуков Олег", "яковлев яков"]
#: English: by the Latin name shown, the one typed or else the passport transliteration (issue 28).
ENGLISH_ORDER = ["Andreeva Anna", "Eliseev Petr", "iakovlev iakov", "Yolkin Ivan", "Zhukov Oleg"]


def _alphabet_cup(user):
    go = services.go_tournament_create(
        user=user, name="Alphabet", start_date="2026-02-01", end_date="2026-02-01", system="profs", rounds=2,
        half_stone=False, acceleration=False,
    )  # fmt: skip
    for name in NAMES:
        services.go_registration_add(go=go, name=name, name_latin=LATIN.get(name, ""), rating=1500)
    return go


def _in_order(page: str, names: list[str]) -> list[str]:
    found = sorted((page.index(name), name) for name in names if name in page)
    return [name for _at, name in found]


def test_the_tournament_s_players_in_the_reader_s_alphabet(client):
    go = approve(_alphabet_cup(organiser()))
    table = client.get(f"/go/{go.pk}/").content.decode().split('id="registrations"', 1)[1]
    assert _in_order(table, NAMES) == RUSSIAN_ORDER  # before: Ёлкин first, яковлев last but after Жуков by code
    table = client.get(f"{EN}/{go.pk}/").content.decode().split('id="registrations"', 1)[1]
    assert _in_order(table, ENGLISH_ORDER) == ENGLISH_ORDER


def test_standings_sheets_and_choices_in_the_reader_s_alphabet():
    """Five players of one rating: round 1 gives a bye and two games; everyone level shares a place, listed in
    alphabet order on the standings, the crosstable and the wall sheet; the director's lists too."""
    user = organiser(username="alphabet-director")
    go = _alphabet_cup(user)
    rnd = services.go_round_pair(go=go, user=user)
    director = Client()
    director.force_login(user)
    page = director.get(f"/go/{go.pk}/rounds/1/").content.decode()
    swap = page.split('id="swap-first"', 1)[1].split("</select>", 1)[0]
    assert _in_order(swap, NAMES) == RUSSIAN_ORDER
    services.go_round_publish(go_round=rnd, user=user)
    for board in rnd.boards.all():
        services.go_result_enter(go_round=rnd, board_number=board.number, result="white", user=user)
    state = selectors.tournament_state(selectors.tournament_data(go=go), 1)
    places = [s.name for s in pairing.standings(state)]
    for url in (f"/go/{go.pk}/standings/", f"/go/{go.pk}/crosstable/", f"/go/{go.pk}/print/standings/"):
        page = director.get(url).content.decode()
        page = re.sub(r'title="[^"]*"', "", page)  # the crosstable's cells name the opponent in a title
        shown = _in_order(page, NAMES)
        # Within each shared place the alphabet decides, as in the engine's standings (which the EGD table follows).
        assert shown == places, url
    groups: dict[int, list[str]] = {}
    for s in pairing.standings(state):
        groups.setdefault(s.place, []).append(s.name)
    assert any(len(names) > 1 for names in groups.values())
    for names in groups.values():
        assert names == sorted(names, key=lambda n: n.lower().replace("ё", "е")), names
    page = director.get(f"/go/{go.pk}/rounds/1/print/players/").content.decode()
    assert _in_order(page, NAMES) == RUSSIAN_ORDER
