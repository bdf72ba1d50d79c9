"""The crosstable, the standings with wins and streaks, and the venue's print sheets: their content, who may see
them, and a bounded number of queries whatever the field's size."""

import datetime
import re

import pytest
from django.test import Client

from tests.factories import federation_staff
from tournaments.go import services, sheets

from .helpers import EN, approve

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 7)


def _cup(players: int = 5, rounds: int = 3):
    """FUS: P0 strongest; round 1 white wins everywhere, round 2 black wins, P4 (last) sits out round 1 with the bye.

    Approved, so the public sees it; run by federation staff, who may change an approved tournament."""
    user = federation_staff(username="sheets-director")
    go = services.go_tournament_create(
        user=user, name="Sheets", start_date=DAY, end_date=DAY, system="fus", rounds=rounds, half_stone=True,
        acceleration=True,
    )  # fmt: skip
    regs = [services.go_registration_add(go=go, name=f"P{i}", rating=2000 - 60 * min(i, 4) - i) for i in range(players)]
    return approve(go), user, regs


def _play(go, user, colour):
    rnd = services.go_round_pair(go=go, user=user)
    services.go_round_publish(go_round=rnd, user=user)
    for number in rnd.boards.values_list("number", flat=True):
        services.go_result_enter(go_round=rnd, board_number=number, result=colour, user=user)
    return rnd


def test_the_crosstable_gives_every_round_of_every_player(client):
    go, user, regs = _cup()
    rnd1 = _play(go, user, "white")
    services.go_registration_withdraw(registration=regs[3], user=user)
    _play(go, user, "black")
    lines = sheets.standings_table(go=go, upto=2, language="en")
    by_name = {line.name: line for line in lines}
    number = {line.name: line.number for line in lines}
    # Round 1: P0-P1, P2-P3, P4 bye (boards by level, white the higher level).
    assert [(b.white.name, b.black.name) for b in rnd1.boards.order_by("number")] == [("P0", "P1"), ("P2", "P3")]
    p0 = by_name["P0"].cells[0]
    assert (p0.kind, p0.opponent, p0.sign, p0.colour, p0.stones) == ("game", number["P1"], "+", "w", 1)
    assert by_name["P4"].cells[0].kind == "bye"
    # P3 withdrew after round 1: absent in round 2, marked, and counted with no win.
    assert by_name["P3"].cells[1].kind == "absent"
    assert by_name["P3"].withdrawn_after == 1
    # Wins count games won and byes (a bye is a win, rules/go.md): 2 games and a bye, then 2 games.
    assert sum(line.wins for line in lines) == 5
    assert (by_name["P0"].wins, by_name["P3"].wins) == (1 + (by_name["P0"].cells[1].sign == "+"), 0)
    page = client.get(f"{EN}/{go.pk}/crosstable/").content.decode()
    assert "after round 2" in page
    # The colour letter carries its full name on hover (issue 28).
    assert (
        f'<td class="round win" title="P1">{number["P1"]}+<br><small><abbr title="white">w</abbr>1</small></td>' in page
    )
    assert "(withdrawn after round 1)" in page
    assert page.count('<tr id="line-') == 5
    page = client.get(f"{EN}/{go.pk}/crosstable/?round=1").content.decode()
    assert "after round 1" in page
    assert "withdrawn" in page  # the mark says what happened since, in any round shown


def test_the_standings_show_wins_the_streak_and_the_withdrawn(client):
    go, user, regs = _cup()
    _play(go, user, "white")
    services.go_registration_withdraw(registration=regs[3], user=user)
    _play(go, user, "white")
    page = client.get(f"{EN}/{go.pk}/standings/").content.decode()
    assert "<th>Wins</th><th>Streak</th>" in page
    row = re.search(r"<tr><td>\d=?</td><td class=\"name\"><a [^>]*>P3</a>.*?</tr>", page).group(0)
    assert "withdrawn after round 1" in row
    streaks = {line.name: (line.wins, line.streak) for line in sheets.standings_table(go=go, upto=2, language="en")}
    assert streaks["P3"] == (0, 0)
    winners = [name for name, (wins, streak) in streaks.items() if wins == 2]
    assert winners
    for name in winners:
        assert streaks[name][1] in (1, 2)  # a bye neither extends nor breaks a streak


def test_the_print_sheets_of_a_round(client):
    go, user, _regs = _cup()
    rnd = services.go_round_pair(go=go, user=user)
    director = Client()
    director.force_login(user)
    # A draft's sheets are the director's; the public sees them once the round is published.
    assert client.get(f"{EN}/{go.pk}/rounds/1/print/boards/").status_code == 404
    page = director.get(f"{EN}/{go.pk}/rounds/1/print/boards/").content.decode()
    assert "(draft)" in page
    services.go_round_publish(go_round=rnd, user=user)
    page = client.get(f"{EN}/{go.pk}/rounds/1/print/boards/").content.decode()
    assert "css/go-print.css" in page
    assert "<script>" not in page  # no inline script: the print button's code is a static file
    assert re.search(r'<td class="board">1</td><td>P0</td><td class="lv">40</td><td>P1</td>', page)
    assert "Bye (a win worth 1 point):</strong> P4" in page
    page = client.get(f"{EN}/{go.pk}/rounds/1/print/players/").content.decode()
    names = re.findall(r'<td class="name">(P\d)</td>', page)
    assert names == ["P0", "P1", "P2", "P3", "P4"]
    assert "bye (a win worth 1 point)" in page
    assert client.get(f"{EN}/{go.pk}/rounds/1/print/slips/").status_code == 302  # the director's
    page = director.get(f"{EN}/{go.pk}/rounds/1/print/slips/").content.decode()
    assert page.count('class="slip"') == 2
    assert "White's signature" in page
    for number in rnd.boards.values_list("number", flat=True):
        services.go_result_enter(go_round=rnd, board_number=number, result="white", user=user)
    page = client.get(f"{EN}/{go.pk}/print/standings/").content.decode()
    assert page.count('<tr><td class="num">') == 5
    assert "after round 1" in page


def test_a_player_who_does_not_play_is_listed_so(client):
    go, user, regs = _cup(players=4)
    services.go_absence_set(registration=regs[1], round_number=1, absent=True, user=user)
    services.go_round_pair(go=go, user=user)
    director = Client()
    director.force_login(user)
    page = director.get(f"{EN}/{go.pk}/rounds/1/print/players/").content.decode()
    row = page.split('<td class="name">P1</td>')[1].split("</tr>")[0]
    assert "does not play this round" in row


def test_russian_sheets_read_the_names_in_cyrillic(client):
    go, user, _regs = _cup(players=2)
    services.go_registration_add(go=go, name="Ёлкин Иван", rating=1500)
    _play(go, user, "white")
    page = client.get(f"/go/{go.pk}/crosstable/").content.decode()
    assert "Ёлкин Иван" in page
    assert "Перекрёстная таблица" in page
    page = client.get(f"/go/{go.pk}/rounds/1/print/players/").content.decode()
    assert page.index("P0") < page.index("Ёлкин Иван")


@pytest.mark.parametrize("players", [6, 40])
def test_the_crosstable_and_sheets_take_a_bounded_number_of_queries(client, django_assert_max_num_queries, players):
    go, user, _regs = _cup(players=players)
    _play(go, user, "white")
    _play(go, user, "black")
    for url, limit in (
        (f"{EN}/{go.pk}/crosstable/", 7),  # one for the byes by request
        (f"{EN}/{go.pk}/standings/", 7),
        (f"{EN}/{go.pk}/print/standings/", 6),
        (f"{EN}/{go.pk}/rounds/2/print/boards/", 6),
        (f"{EN}/{go.pk}/rounds/2/print/players/", 6),
    ):
        with django_assert_max_num_queries(limit):
            assert client.get(url).status_code == 200, url
