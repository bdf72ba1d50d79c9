"""The EGD results table (`rules/go.md`, part 3) read back by an EGD-style validator (``egd_validator``), and the
validator itself on tables shaped like real ones: what EGD accepts and what it refuses."""

import datetime
import re

import pytest

from federation.latin import latin_key, to_ascii, transliterate
from tests.factories import ClubFactory, PlayerFactory, organiser
from tournaments.go import egd_read, selectors, services, sheets
from tournaments.go.models import Board

from .egd_validator import Refused, validate
from .helpers import EN, approve

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 7)


def _egd_cup():
    """Seven players, four rounds: members with and without Latin names, typed names in Cyrillic and with
    accents, a late entry, an absence (a bye for the odd field), a withdrawal, a forfeit and places level on every
    tie-break."""
    user = organiser()
    go = services.go_tournament_create(
        user=user,
        name="Кубок Москвы",
        start_date=DAY,
        end_date=DAY,
        city="Москва",
        system="fus",
        rounds=4,
        half_stone=True,
        acceleration=True,
    )
    club = ClubFactory(name="Тэнгэн", city="Москва")
    kondratev = PlayerFactory(
        last_name="Кондратьев", first_name="Даниил", last_name_latin="Kondratev", first_name_latin="Daniil", club=club
    )
    elkina = PlayerFactory(last_name="Ёлкина", first_name="Мария Ивановна", last_name_latin="", first_name_latin="")
    berg = PlayerFactory(
        last_name="ван дер Берг", first_name="Ян", last_name_latin="van der Berg", first_name_latin="Jan"
    )
    for player in (kondratev, elkina, berg):
        services.go_registration_add(go=go, player=player, rating=2000)
    services.go_registration_add(go=go, name="Щукин Пётр", rating=2000, club_name="Сэнтэ")
    services.go_registration_add(go=go, name="Müller Hans", rating=2000, country="DE")
    services.go_registration_add(go=go, name="Ли", rating=1500)
    return go, user


def _play_round(go, user, winners="wbwb", forfeit_board=None):
    rnd = services.go_round_pair(go=go, user=user)
    services.go_round_publish(go_round=rnd, user=user)
    for k, board in enumerate(rnd.boards.order_by("number")):
        colour = "white" if winners[k % len(winners)] == "w" else "black"
        value = f"{colour}_forfeit" if board.number == forfeit_board else colour
        services.go_result_enter(go_round=rnd, board_number=board.number, result=value, user=user)
    return rnd


def _finished():
    go, user = _egd_cup()
    _play_round(go, user)
    late = services.go_registration_add(go=go, name="Поздний Игрок", rating=1700)
    ghost = go.registrations.get(name="Ли")
    services.go_absence_set(registration=ghost, round_number=2, absent=True)
    _play_round(go, user, winners="bw", forfeit_board=1)
    services.go_registration_withdraw(registration=go.registrations.get(name="Müller Hans"), user=user)
    _play_round(go, user)
    _play_round(go, user, winners="w")
    return approve(services.go_egd_class_set(go=go, egd_class="B", user=user)), late


def test_the_table_of_a_finished_tournament_is_one_egd_accepts_and_equals_the_standings(client):
    go, _late = _finished()
    text = selectors.egd_table(go=go)
    read = validate(text.encode("ascii"))
    assert read.tags["CL"] == "B"
    assert read.tags["EV"] == "Kubok Moskvy"
    assert read.tags["PC"] == "RU,Moskva"
    assert read.rounds == 4
    # One line a player, places 1..N in the order of the standings, even where the standings share a place.
    lines = sheets.standings_table(go=go, upto=4, language="en")
    assert [p.place for p in read.players] == list(range(1, len(lines) + 1))
    names = {(p.surname, p.first_name) for p in read.players}
    assert {
        ("Kondratev", "Daniil"),  # the member's Latin name
        ("Elkina", "Mariia_Ivanovna"),  # no Latin name on the site: transliterated, inner space as _
        ("van_der_Berg", "Jan"),
        ("Shchukin", "Petr"),
        ("Muller", "Hans"),
        ("Li", "-"),  # no first name: "-" keeps the grade the fourth field
        ("Pozdnii", "Igrok"),
    } == names
    # The results equal the standings and the boards: wins, and every game's opponent, colour, stones, result.
    by_place = read.by_place()
    table = egd_read.read_h9(text)
    ours = {p.place: p for p in table.players}
    for k, line in enumerate(lines, start=1):
        player = by_place[k]
        counted = player.points()
        assert counted["won"] + counted["byes"] == line.wins, line.name
        for number, cell in enumerate(line.cells, start=1):
            game = player.games[number - 1]
            if cell.kind == "game" and not cell.forfeit:
                assert (game.opponent, game.result, game.colour, game.stones) == (
                    cell.opponent,
                    {"−": "-"}.get(cell.sign, cell.sign),
                    cell.colour,
                    cell.stones,
                )
                assert not game.unplayed
            elif cell.kind == "game":
                # A game not played is a round without a game for EGD (rules/go.md, part 3): 0+ for the point,
                # 0- for the other; the game itself follows the line's ';' for the site's reader.
                assert (game.opponent, game.result) == (0, cell.sign)
                played = ours[k].entry(number)
                assert (played.opponent, played.sign, played.colour, played.stones, played.unplayed) == (
                    cell.opponent,
                    cell.sign,
                    cell.colour,
                    cell.stones,
                    True,
                )
            else:
                assert (game.opponent, game.result) == (0, "+" if cell.kind == "bye" else "-")
    # The forfeit of round 2, board 1: no game EGD would rate; the club and the country come through.
    forfeit = Board.objects.get(round__tournament=go, round__number=2, number=1)
    assert forfeit.result.endswith("_forfeit")
    assert sum(g.unplayed for p in read.players for g in p.games) == 0
    assert sum(1 for p in table.players for _r, e in p.played if e.unplayed) == 2
    assert re.search(r"^\s+\d+ .* 0\+ .*; r2:\d+\+!/[wb]\d", text, re.MULTILINE)
    assert re.search(r"^\s+\d+ .* 0- .*; r2:\d+-!/[wb]\d", text, re.MULTILINE)
    assert {p.club for p in read.players} >= {"Tengen", "Sente", "-"}
    assert "DE" in {p.country for p in read.players}
    # The site's own reader agrees with the validator.
    assert table.problems == []
    assert [p.name for p in table.players] == [
        f"{p.surname} {p.first_name}".replace("_", " ").strip(" -") for p in read.players
    ]
    response = client.get(f"{EN}/{go.pk}/egd.h9")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=ascii"


def test_players_level_on_every_tie_break_take_consecutive_places():
    """Four players of one rating: after A beats B and C beats D, A and C share first place on the site, B and D
    third; the table gives them places 1, 2, 3, 4 in the standings' order, so each opponent is named unambiguously."""
    user = organiser()
    go = services.go_tournament_create(
        user=user, name="Ties", start_date=DAY, end_date=DAY, system="fus", rounds=1, half_stone=True, acceleration=True
    )
    for name in ("A", "B", "C", "D"):
        services.go_registration_add(go=go, name=name, rating=2000)
    _play_round(go, user, winners="w")
    lines = sheets.standings_table(go=go, upto=1, language="en")
    assert [(line.place, line.shared) for line in lines] == [(1, True), (1, True), (3, True), (3, True)]
    go = services.go_egd_class_set(go=go, egd_class="D", user=user)
    read = validate(selectors.egd_table(go=go))
    assert [(p.place, p.surname) for p in read.players] == [(k, line.name) for k, line in enumerate(lines, start=1)]
    for p in read.players:
        (game,) = p.games
        assert read.by_place()[game.opponent].games[0].opponent == p.place


def test_only_a_finished_tournament_with_its_class_is_exported(client):
    go, user = _egd_cup()
    _play_round(go, user)
    assert selectors.egd_table(go=go) is None
    assert "all 4 rounds with every result in" in selectors.egd_refusal(go=go)
    go = approve(go)
    page = client.get(f"{EN}/{go.pk}/").content.decode()
    assert "egd.h9" not in page
    assert client.get(f"{EN}/{go.pk}/egd.h9").status_code == 302


def test_transliteration_to_plain_ascii():
    assert transliterate("Щукин Юлия Ёлкин") == "Shchukin Iuliia Elkin"
    assert to_ascii("Müller «Тэнгэн» 東京") == "Muller Tengen "
    assert latin_key("Кондратьев Даниил") == latin_key("Kondratyev Daniil") == latin_key("KONDRATEV  Daniil")
    assert latin_key("Щукин") == latin_key("Schukin")


# --- the validator on tables shaped like real ones ---------------------------------------------------------------

OPENGOTHA = """; CL[C]
; EV[Belfast Handicap]
; PC[IE, Belfast]
; DT[2016-01-30,2016-01-30]
; HA[h9]
; KM[6.5]
; TM[52]
; CM[Standard byo-yomi]
; Generated by OpenGotha 3.35
;
; Pl Name                 Rk Co Club  CAT  NBW  EXT  EXR
  1 Gociu Tiberiu         5k IE  Belf  1    3    7    7    2+/b7  3+/w6  4+/w1  |12850431
  2 Smith John           12k IE  Belf  1    1    7    2    1-/w7  0+     3-/b2  |12850432
  3 Brown Emily          11k IE  Dubl  1    1    5    1    4+/b1  1-/b6  2+/w2  |12850433
  4 Nowak Pawel           6k PL  Wars  1    0    4    0    3-/w1  0-     1-/b1  |12850434
"""

MACMAHON_STYLE = """; CL[A]
; EV[Test tournament]
; HA[h9]
;
; Pl Name                   Grd Co Club  MMS  SOS SOSO
 1 Voittaja Ykkonen         4d SE  Stock  36   206  1231 0=   3+/w1   2+/b0!  |14011111
 2 Jaba Kakkonen            3d NO  Oslo   36   205  1238 0    0=0     1-/w0!  |10222222
 3 Tyyppi Kolmonen          5  FI  Heh    35   206  1228 0    1-/b1   0+      |10333333
"""


def test_the_validator_accepts_real_shaped_tables():
    read = validate(OPENGOTHA)
    assert read.rounds == 3
    assert [(g.opponent, g.result, g.colour, g.stones) for g in read.by_place()[1].games] == [
        (2, "+", "b", 7),
        (3, "+", "w", 6),
        (4, "+", "w", 1),
    ]
    # A tie-break column holding "0=", an unplayed game marked "!", "0=0" and a grade without its letter.
    read = validate(MACMAHON_STYLE)
    assert read.rounds == 2
    assert read.by_place()[1].games[1].unplayed
    assert read.by_place()[3].grade == "5"
    for text in (OPENGOTHA, MACMAHON_STYLE):
        assert egd_read.read_h9(text).problems == []


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda t: t.replace("Gociu Tiberiu", "Gociu_Tiberiu"), "is not a grade (are the two name fields there?)"),
        (lambda t: t.replace("  2 Smith", "  1 Smith"), "are shared"),
        (lambda t: t.replace("Brown Emily", "Браун Эмили"), "not plain ASCII"),
        (lambda t: t.replace("1-/w7  0+", "1+/w7  0+"), "writes the game otherwise"),
        (lambda t: t.replace("1-/w7", "1-/b7"), "same colour"),
        (lambda t: t.replace("1-/w7", "1-/w6"), "different stones"),
        (lambda t: t.replace("3-/b2  |12850432", "|12850432"), "fewer results than the 3 rounds"),
        (lambda t: t.replace("2+/b7", "9+/b7"), "no player at place 9"),
    ],
)
def test_the_validator_refuses_what_egd_refuses(change, reason):
    broken = change(OPENGOTHA)
    with pytest.raises(Refused) as refused:
        validate(broken)
    assert any(reason in r for r in refused.value.reasons), refused.value.reasons
    if reason != "not plain ASCII":  # the site's reader takes a non-ASCII file and transliterates on import
        assert egd_read.read_h9(broken).problems
