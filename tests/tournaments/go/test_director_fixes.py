"""What a director met at the venue and the pages now do right: hand pairings above 9 stones, the "not paired" list,
the engine's warning after a fix by hand, the director's record through re-pairing, the result form, confirmations,
the DIRS game form."""

import importlib

import pytest
from django.apps import apps
from django.test import Client

from ratings.dirs.models import DirsGame
from tests.factories import ClubFactory, UserFactory, organiser
from tests.ratings.dirs.helpers import rated_player
from tournaments import pairing
from tournaments.go import services
from tournaments.go.models import Absence, Board, DirectorLog, GoTournament, Round

from .helpers import EN, approve, boards, create, edit, pair, register, result

pytestmark = pytest.mark.django_db


@pytest.fixture
def director(client):
    client.force_login(organiser(username="venue-director"))
    return client


def _rules(rnd) -> list[str]:
    rnd.refresh_from_db()
    return [i["rule"] for i in rnd.issues]


def test_a_hand_pairing_above_nine_stones_is_played_on_nine_and_the_round_completes(director):
    """Decision (rounds.py): the director's override is accepted and played on 9 stones, the broken rule shown."""
    go = create(director, name="Override", rounds=2)
    regs = {n: register(director, go, n, r) for n, r in (("A", 2400), ("B", 2300), ("C", 1300), ("D", 1200))}
    rnd = pair(director, go)
    assert boards(rnd) == [("A", "B", 1, "reverse"), ("C", "D", 1, "reverse")]
    edit(director, go, 1, action="unpair", board=1)
    edit(director, go, 1, action="unpair", board=1)
    # A (48) against C (26): a gap of 22 would need 11 stones.
    page = edit(director, go, 1, action="pair", first=regs["A"].pk, second=regs["C"].pk).content.decode()
    assert "level gap 22 needs 11 stones, more than 9; played on 9 stones" in page
    edit(director, go, 1, action="pair", first=regs["B"].pk, second=regs["D"].pk)
    assert boards(rnd) == [("A", "C", 9, "reverse"), ("B", "D", 9, "reverse")]
    assert _rules(rnd) == [pairing.RULE_HANDICAP_LIMIT, pairing.RULE_HANDICAP_LIMIT]
    edit(director, go, 1, action="publish")
    assert result(director, go, 1, 1, "black").status_code == 200
    assert result(director, go, 1, 2, "white").status_code == 200
    rnd.refresh_from_db()
    assert rnd.completed
    levels = {s.registration.name: s.level for s in rnd.standings.select_related("registration")}
    # C won on black (26 + 1), B on white (46 + 1): the game counts like any other.
    assert levels == {"A": 48, "B": 47, "C": 27, "D": 24}
    assert director.get(f"{EN}/{go.pk}/rounds/1/").status_code == 200


def test_a_swap_that_lands_above_nine_stones_gets_the_same_board(director):
    go = create(director, name="Swap far", rounds=2)
    regs = {n: register(director, go, n, r) for n, r in (("A", 2400), ("B", 2300), ("C", 1300), ("D", 1200))}
    rnd = pair(director, go)
    edit(director, go, 1, action="swap", first=regs["B"].pk, second=regs["C"].pk)
    assert boards(rnd) == [("A", "C", 9, "reverse"), ("B", "D", 9, "reverse")]
    assert _rules(rnd) == [pairing.RULE_HANDICAP_LIMIT, pairing.RULE_HANDICAP_LIMIT]
    edit(director, go, 1, action="publish")
    for number in (1, 2):
        services.go_result_enter(go_round=rnd, board_number=number, result="white")
    rnd.refresh_from_db()
    assert rnd.completed


def test_a_dirs_hand_pairing_95_apart_is_played_on_nine_stones_and_not_rated(client):
    client.force_login(organiser())
    players = [rated_player(rank) for rank in ("2d", "1d", "9k", "10k")]  # 220, 210, 120, 110
    go = create(client, name="DIRS far", system="dirs", rounds=2, half_stone=None, acceleration=None)
    for p in players:
        client.post(f"{EN}/{go.pk}/register/", {"player": p.pk})
    rnd = pair(client, go)
    regs = {r.player_id: r for r in go.registrations.all()}
    edit(client, go, 1, action="swap", first=regs[players[1].pk].pk, second=regs[players[3].pk].pk)
    far = Board.objects.get(round=rnd, number=1)
    assert (far.handicap, far.komi_kind) == (9, "reverse")  # 220 - 110 = 110: 95 or more apart
    assert pairing.RULE_HANDICAP_LIMIT in _rules(rnd)
    edit(client, go, 1, action="publish")
    for b in rnd.boards.all():
        result(client, go, 1, b.number, "black")
    rnd.refresh_from_db()
    assert rnd.completed
    game = DirsGame.objects.get(board=far)
    assert not game.rated
    standing = rnd.standings.get(registration=far.black)
    assert standing.level == standing.start_level  # DIRS rates no such game, in the tournament either


def test_boards_stored_above_nine_stones_are_capped_by_the_migration(director):
    go = create(director, name="Legacy", rounds=2)
    regs = [register(director, go, n, r) for n, r in (("A", 2400), ("B", 1300))]
    rnd = pair(director, go)  # 48 and 26 are too far apart: two byes, then the director pairs them by hand
    for reg in regs:
        edit(director, go, 1, action="unbye", first=reg.pk)
    edit(director, go, 1, action="pair", first=regs[0].pk, second=regs[1].pk)
    Board.objects.filter(round=rnd).update(handicap=11, komi_kind="none")
    Round.objects.filter(pk=rnd.pk).update(
        overrides=[
            {
                "at": "2026-03-07T10:00:00+00:00",
                "by": "venue-director",
                "action": "pair",
                "en": "paired by hand",
                "ru": "вручную",
            }
        ]
    )
    migration = importlib.import_module("tournaments.go.migrations.0003_director_record_data")
    migration.forwards(apps, None)
    board = Board.objects.get(round=rnd)
    assert (board.handicap, board.komi_kind, float(board.komi)) == (9, "reverse", 6.5)
    moved = DirectorLog.objects.get(tournament=go, text_en="paired by hand")
    assert (moved.username, moved.round_number, moved.text_en) == ("venue-director", 1, "paired by hand")
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "white")
    rnd.refresh_from_db()
    assert rnd.completed


def test_the_not_paired_list_offers_only_players_of_this_round(director):
    go = create(director, name="Present", rounds=3)
    regs = {n: register(director, go, n, r) for n, r in (("A", 2100), ("B", 2000), ("C", 1900), ("D", 1800))}
    rnd = pair(director, go)
    edit(director, go, 1, action="publish")
    for b in rnd.boards.all():
        result(director, go, 1, b.number, "white")
    late = register(director, go, "Late", 1700)
    director.post(f"{EN}/{go.pk}/registrations/{regs['D'].pk}/withdraw/", {"confirmed": "1"})
    director.post(f"{EN}/{go.pk}/absence/", {"registration": regs["C"].pk, "round_number": 2, "absent": "on"})
    rnd2 = pair(director, go)
    # Present: A (43), B (40), Late (34); A met B, so A plays Late and B sits out.
    assert boards(rnd2) == [("A", "Late", 5, "none")]
    assert [b.registration.name for b in rnd2.byes.select_related("registration")] == ["B"]
    edit(director, go, 2, action="unbye", first=regs["B"].pk)
    page = director.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    unpaired = page.split("Not paired")[1].split("</p>")[0]
    assert unpaired == ":</strong> B"  # not C (absent), not D (withdrawn)
    swap = page.split('id="swap-first"')[1].split("</select>")[0]
    assert [name for name in ("A", "B", "C", "D", "Late") if f">{name}<" in swap] == ["A", "B", "Late"]
    # Pairing an absent or withdrawn player by hand is refused with the reason; nothing changes.
    text = edit(director, go, 2, action="pair", first=regs["B"].pk, second=regs["C"].pk).content.decode()
    assert "C is marked absent in round 2: mark them present first." in text
    text = edit(director, go, 2, action="bye", first=regs["D"].pk).content.decode()
    assert "D withdrew after round 1." in text
    text = edit(director, go, 2, action="swap", first=late.pk, second=regs["D"].pk).content.decode()
    assert "D withdrew after round 1." in text
    assert boards(rnd2) == [("A", "Late", 5, "none")]
    assert Absence.objects.filter(registration=regs["C"], round_number=2).exists()


def test_the_engine_warning_goes_once_the_director_pairs_by_hand(director):
    """The engine gives two byes (A and B have met, C and D too, and the rest is too far): the director pairs them
    against the rules; the note "cannot be paired legally" is then untrue and disappears, the hand issues stay."""
    go = create(director, name="Warning", rounds=3, system="profs", half_stone=None, acceleration=None)
    regs = {n: register(director, go, n, r) for n, r in (("A", 2000), ("B", 1900))}
    pair(director, go)
    edit(director, go, 1, action="publish")
    result(director, go, 1, 1, "white")
    rnd2 = pair(director, go)
    assert _rules(rnd2) == [pairing.RULE_FIELD_UNPAIRABLE]
    assert "cannot be paired" in director.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    edit(director, go, 2, action="unbye", first=regs["A"].pk)
    assert pairing.RULE_FIELD_UNPAIRABLE in _rules(rnd2)  # B still sits out where an even field needs no bye
    edit(director, go, 2, action="unbye", first=regs["B"].pk)
    assert pairing.RULE_FIELD_UNPAIRABLE not in _rules(rnd2)
    edit(director, go, 2, action="pair", first=regs["A"].pk, second=regs["B"].pk)
    assert _rules(rnd2) == [pairing.RULE_REMATCH]
    page = director.get(f"{EN}/{go.pk}/rounds/2/").content.decode()
    assert "cannot be paired" not in page
    assert "have already played" in page


def test_the_record_of_hand_changes_survives_re_pairing_and_deletion(director, client):
    go = create(director, name="Record", rounds=3)
    regs = {n: register(director, go, n, r) for n, r in (("A", 2100), ("B", 2000), ("C", 1900), ("D", 1800))}
    rnd = pair(director, go)
    edit(director, go, 1, action="swap", first=regs["B"].pk, second=regs["C"].pk)
    edit(director, go, 1, action="repair")
    rnd.refresh_from_db()
    assert rnd.overrides == []  # the new pairing has no change by hand...
    actions = list(DirectorLog.objects.filter(tournament=go).values_list("action", "username", "round_number"))
    # ...but the record keeps the swap, who made it and the re-pairing.
    assert actions == [
        ("pair_round", "venue-director", 1),
        ("swap", "venue-director", 1),
        ("repair", "venue-director", 1),
    ]
    page = director.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert "swapped B and C" in page
    assert "venue-director" in page
    edit(director, go, 1, action="unpair", board=2)
    edit(director, go, 1, action="delete", confirmed="1")
    assert not Round.objects.filter(tournament=go).exists()
    log = director.get(f"{EN}/{go.pk}/log/").content.decode()
    for text in ("swapped B and C", "paired again", "board 2 unpaired", "pairing of round 1 deleted"):
        assert text in log
    assert log.count("venue-director") == 5
    # The public sees the pairing and its changes by hand, never the director's login nor the record.
    rnd = pair(director, go)
    edit(director, go, 1, action="swap", first=regs["A"].pk, second=regs["D"].pk)
    edit(director, go, 1, action="publish")
    approve(go)  # the public sees an approved tournament only
    director.logout()
    page = client.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    assert "swapped A and D" in page
    assert "venue-director" not in page
    assert client.get(f"{EN}/{go.pk}/log/").status_code == 302
    client.force_login(UserFactory())
    assert client.get(f"{EN}/{go.pk}/log/").status_code == 403


def test_the_result_form_chooses_nothing_until_the_director_does(director):
    go = create(director, name="Choose", rounds=2)
    for n, r in (("A", 2100), ("B", 2000)):
        register(director, go, n, r)
    pair(director, go)
    edit(director, go, 1, action="publish")
    page = director.get(f"{EN}/{go.pk}/rounds/1/").content.decode()
    select = page.split('aria-label="Result of board 1"')[1].split("</select>")[0]
    assert '<option value="" selected>choose the result</option>' in select
    for words in ("white wins", "black wins", "white wins by forfeit", "black wins by forfeit"):
        assert f">{words}</option>" in select
    assert "required" in page.split('name="result"')[1].split(">")[0]
    # Saving without choosing records nothing and says why.
    response = result(director, go, 1, 1, "")
    assert "Result: Choose a result." in response.content.decode()
    assert Board.objects.get(round__tournament=go).result == ""


def test_deleting_a_pairing_asks_first(director):
    go = create(director, name="Ask", rounds=2)
    for n, r in (("A", 2100), ("B", 2000)):
        register(director, go, n, r)
    pair(director, go)
    page = edit(director, go, 1, action="delete").content.decode()
    assert "Delete the pairing of round 1?" in page
    assert 'name="action" value="delete"' in page
    assert 'name="confirmed" value="1"' in page
    assert Round.objects.filter(tournament=go).exists()
    edit(director, go, 1, action="delete", confirmed="1")
    assert not Round.objects.filter(tournament=go).exists()


def test_withdrawing_asks_first_and_taking_back_does_not(director):
    go = create(director, name="Withdraw", rounds=2)
    a = register(director, go, "A", 2100)
    page = director.post(f"{EN}/{go.pk}/registrations/{a.pk}/withdraw/").content.decode()
    assert "Withdraw A?" in page
    assert "Cancel" in page
    a.refresh_from_db()
    assert a.withdrawn_after is None
    director.post(f"{EN}/{go.pk}/registrations/{a.pk}/withdraw/", {"confirmed": "1"})
    a.refresh_from_db()
    assert a.withdrawn_after == 0
    director.post(f"{EN}/{go.pk}/registrations/{a.pk}/withdraw/", {"undo": "1"})
    a.refresh_from_db()
    assert a.withdrawn_after is None
    assert [r.action for r in DirectorLog.objects.filter(tournament=go)] == ["withdraw", "withdraw"]


def test_the_dirs_game_form_refuses_a_draw_by_name_and_tells_namesakes_apart(client):
    from django.contrib.auth.models import Permission

    user = organiser()
    user.user_permissions.add(Permission.objects.get(codename="add_dirsgame"))
    client.force_login(user)
    north, south = ClubFactory(name="Север", city="Тверь"), ClubFactory(name="Юг", city="Сочи")
    one = rated_player("3k", last_name="Петров", first_name="Иван", city="Тверь", club=north)
    two = rated_player("5k", last_name="Петров", first_name="Иван", city="Сочи", club=south)
    page = client.get("/en/go/dirs/games/new/").content.decode()
    assert f"Петров Иван (Тверь, Север, #{one.pk})" in page
    assert f"Петров Иван (Сочи, Юг, #{two.pk})" in page
    data = {"date": "2026-03-07", "white": one.pk, "black": two.pk, "handicap": 2, "komi": "reverse"}
    page = client.post("/en/go/dirs/games/new/", {**data, "winner": "draw"}).content.decode()
    assert "DIRS knows no draws: a club game is won by white or black" in page
    assert "Select a valid choice" not in page
    page = client.post("/en/go/dirs/games/new/", {**data, "winner": "nobody"}).content.decode()
    assert "Choose the winner: white or black." in page
    assert not DirsGame.objects.exists()


def test_the_director_pages_are_the_directors(director):
    go = create(director, name="Doors", rounds=1)
    for n, r in (("A", 2100), ("B", 2000)):
        register(director, go, n, r)
    pair(director, go)
    director_urls = [
        f"{EN}/{go.pk}/log/",
        f"{EN}/{go.pk}/rounds/1/enter/",
        f"{EN}/{go.pk}/rounds/1/print/slips/",
        f"{EN}/{go.pk}/import/",
    ]
    for url in director_urls:
        assert director.get(url).status_code == 200, url
    client = Client()
    client.force_login(UserFactory())
    # A draft is its director's and staff's alone: someone else is told it does not exist (test_director_doors).
    for url in director_urls:
        assert client.get(url).status_code == 404, url
    assert client.post(f"{EN}/{go.pk}/rounds/1/result.json", {"board": 1, "result": "white"}).status_code == 404
    assert client.post(f"{EN}/{go.pk}/egd-class/", {"egd_class": "A"}).status_code == 404
    assert GoTournament.objects.get(pk=go.pk).egd_class == ""
    # A draft round's sheets are the director's too.
    assert client.get(f"{EN}/{go.pk}/rounds/1/print/boards/").status_code == 404
    assert director.get(f"{EN}/{go.pk}/rounds/1/print/boards/").status_code == 200
    staff = UserFactory(is_superuser=True)
    client.force_login(staff)
    assert client.get(f"{EN}/{go.pk}/log/").status_code == 200
