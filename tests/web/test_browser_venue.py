"""A director runs a whole FUS tournament at the venue through the pages, in Chromium: 30 players, 5 rounds, a late
entry, an absence, a withdrawal, a hand pairing above 9 stones and a correction, every result typed on the fast
entry page; each print sheet rendered to PDF and checked to be one A4 page wide; the EGD table exported, read back
by the EGD-style validator, and equal to the standings."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.factories import PlayerFactory, organiser
from tests.tournaments.go.egd_validator import validate
from tests.web.browser import log_in
from tournaments import pairing
from tournaments.go import services, sheets
from tournaments.go.models import Board, GoTournament, Registration, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A4 is 595.3 points wide; the sheets print with 12 mm margins (the crosstable 10 mm): 186 mm of content at 96 px
#: an inch is 703 px.
A4_POINTS = 595.3
CONTENT_PX = 703


def _one_a4_page_wide(page, url) -> bytes:
    """The page printed: no content wider than an A4 page's content, and a PDF whose pages are A4."""
    page.goto(url)
    size = page.viewport_size
    page.set_viewport_size({"width": CONTENT_PX, "height": 1000})
    page.emulate_media(media="print")
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client, f"{url}: {scroll} px of content on a {client} px wide page"
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert boxes, url
    assert all(abs(float(width) - A4_POINTS) < 2 for width, _height in boxes), (url, boxes)
    page.emulate_media(media="screen")
    page.set_viewport_size(size)
    return pdf


def _enter_by_keyboard(page, live_server, go, number, *, forfeit_board=None):
    """Every board of the round typed on the fast entry page: white wins odd boards, black even ones."""
    page.goto(f"{live_server.url}/en/go/{go.pk}/rounds/{number}/enter/")
    entry = page.locator("#entry-input")
    entry.click()
    boards = list(Board.objects.filter(round__tournament=go, round__number=number).order_by("number"))
    for board in boards:
        key = "w" if board.number % 2 else "b"
        typed = f"{board.number}{'f' if board.number == forfeit_board else ''}{key}"
        entry.press_sequentially(typed)
        expect(page.locator(f"#entry-{board.number}")).to_have_class(re.compile("saved"))
    expect(page.locator("#remaining")).to_have_text("0")
    expect(page.locator("#entry-status")).to_contain_text("All results are in.")


def _pair_and_publish(page, live_server, go, number):
    page.goto(f"{live_server.url}/en/go/{go.pk}/")
    page.get_by_role("button", name="Pair next round").click()
    expect(page).to_have_url(re.compile(rf"/rounds/{number}/$"))


def _publish(page):
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("is published.")).to_be_visible()


def test_a_five_round_fus_tournament_at_the_venue(live_server, page):
    from federation.roles import ensure_roles

    ensure_roles()
    user = organiser(username="venue")
    go = services.go_tournament_create(
        user=user,
        name="Venue Open",
        start_date=datetime.date(2026, 5, 9),
        end_date=datetime.date(2026, 5, 10),
        city="Тверь",
        system="fus",
        rounds=5,
        half_stone=True,
        acceleration=True,
    )
    for i in range(29):
        member = PlayerFactory(
            last_name=f"Игроков{i:02d}", first_name="Иван", last_name_latin=f"Igrokov{i:02d}", first_name_latin="Ivan"
        )
        services.go_registration_add(go=go, player=member, rating=2600 - 60 * i)
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server, "venue", f"/en/go/{go.pk}/")
    expect(page.get_by_role("heading", name="Venue Open")).to_be_visible()

    # Round 1: paired, published, every result typed; board 3 is a win by forfeit.
    _pair_and_publish(page, live_server, go, 1)
    _publish(page)
    _enter_by_keyboard(page, live_server, go, 1, forfeit_board=3)
    assert Board.objects.get(round__number=1, round__tournament=go, number=3).result == "white_forfeit"

    # A late entry (typed name) and an absence in round 2, both on the tournament page.
    page.goto(f"{live_server.url}/en/go/{go.pk}/")
    page.get_by_label("or a surname (not a member)").fill("Late")
    page.get_by_label("Given name").fill("Comer")
    page.get_by_label("Rating", exact=True).fill("1500")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("Late Comer is registered.")).to_be_visible()
    late = Registration.objects.get(tournament=go, name="Late Comer")
    assert late.first_round == 2
    absent = Registration.objects.get(tournament=go, name="Игроков05 Иван")
    row = page.locator("#registrations tr", has_text="Igrokov05 Ivan")
    row.get_by_label("Round").select_option("2")
    row.get_by_role("button", name="absent").click()
    expect(page.locator("#registrations tr", has_text="Igrokov05 Ivan")).to_contain_text("2")

    _pair_and_publish(page, live_server, go, 2)
    round2 = Round.objects.get(tournament=go, number=2)
    playing = {b.white_id for b in round2.boards.all()} | {b.black_id for b in round2.boards.all()}
    playing |= {b.registration_id for b in round2.byes.all()}
    assert late.pk in playing
    assert absent.pk not in playing
    _publish(page)
    _enter_by_keyboard(page, live_server, go, 2)

    # A withdrawal after round 2: the page asks first.
    page.goto(f"{live_server.url}/en/go/{go.pk}/")
    page.locator("#registrations tr", has_text="Igrokov10 Ivan").get_by_role("button", name="withdraw").click()
    expect(page.get_by_role("heading", name="Withdraw Igrokov10 Ivan?")).to_be_visible()
    page.get_by_role("button", name="Withdraw").click()
    expect(page.locator("#registrations tr", has_text="Igrokov10 Ivan")).to_contain_text("withdrawn after round 2")

    # Round 3: the director pairs the top player against the bottom one by hand, more than 9 stones apart.
    _pair_and_publish(page, live_server, go, 3)
    round3 = Round.objects.get(tournament=go, number=3)
    ordered = list(round3.boards.select_related("white", "black").order_by("number"))
    first, last = ordered[0], ordered[-1]
    levels = {first.white: first.white_level, first.black: first.black_level}
    levels.update({last.white: last.white_level, last.black: last.black_level})
    four = sorted(levels, key=lambda r: -levels[r])
    top, bottom = four[0], four[-1]
    assert levels[top] - levels[bottom] > 18
    for number in (last.number, first.number):
        page.locator(f"#board-{number}").get_by_role("button", name="unpair").click()
        expect(page.locator("#director")).to_contain_text("Not paired")
    page.locator("#pair-first").select_option(label=_latin(top))
    page.locator("#pair-second").select_option(label=_latin(bottom))
    page.get_by_role("button", name="Pair by hand").click()
    expect(page.locator("#issues")).to_contain_text("more than 9; played on 9 stones")
    page.locator("#pair-first").select_option(label=_latin(four[1]))
    page.locator("#pair-second").select_option(label=_latin(four[2]))
    page.get_by_role("button", name="Pair by hand").click()
    expect(page.locator("#board-1")).to_contain_text("9 stones")
    far = Board.objects.get(round=round3, number=1)
    assert {far.white_id, far.black_id} == {top.pk, bottom.pk}
    assert far.handicap == pairing.MAX_STONES
    expect(page.locator("#overrides")).to_contain_text("paired by hand on board 1")
    _publish(page)
    # The director's result choice on a phone: full words, nothing chosen.
    page.set_viewport_size({"width": 390, "height": 844})
    select = page.get_by_label("Result of board 2")
    expect(select).to_have_value("")
    room, needed = select.evaluate(
        "s => { const c = document.createElement('canvas').getContext('2d'); c.font = getComputedStyle(s).font;"
        " return [s.clientWidth, c.measureText('white wins by forfeit').width]; }"
    )
    assert room >= needed, (room, needed)
    page.set_viewport_size({"width": 1280, "height": 900})
    _enter_by_keyboard(page, live_server, go, 3)
    round3.refresh_from_db()
    assert round3.completed

    # A correction of round 3, board 2 (white wins, not black), before round 4 is paired.
    page.goto(f"{live_server.url}/en/go/{go.pk}/rounds/3/")
    page.locator("#board-2 summary").click()
    page.get_by_label("New result of board 2").select_option("white")
    page.locator("#board-2").get_by_role("button", name="Correct").click()
    expect(page.get_by_text("Board 2 corrected: white wins.")).to_be_visible()
    expect(page.locator("#round-records")).to_contain_text("black wins → white wins")

    for number in (4, 5):
        _pair_and_publish(page, live_server, go, number)
        _publish(page)
        _enter_by_keyboard(page, live_server, go, number)
    assert Round.objects.filter(tournament=go, completed=True).count() == 5

    # Every sheet printed: one A4 page wide.
    base = f"{live_server.url}/en/go/{go.pk}"
    for url in (
        f"{base}/rounds/5/print/boards/",
        f"{base}/rounds/5/print/players/",
        f"{base}/rounds/5/print/slips/",
        f"{base}/print/standings/",
        f"{base}/crosstable/",
    ):
        _one_a4_page_wide(page, url)

    # The EGD table: the director chooses the class, then the file is read back as EGD would read it.
    page.goto(f"{base}/")
    page.locator("#id_egd_class").select_option("B")
    page.get_by_role("button", name="Save the class").click()
    expect(page.get_by_text("EGD class B chosen.")).to_be_visible()
    response = page.request.get(f"{base}/egd.h9")
    assert response.ok
    read = validate(response.body())
    assert read.tags["CL"] == "B"
    assert read.rounds == 5
    lines = sheets.standings_table(go=GoTournament.objects.get(pk=go.pk), upto=5, language="en")
    assert len(read.players) == len(lines) == 30
    by_place = read.by_place()
    for k, line in enumerate(lines, start=1):
        player = by_place[k]
        assert f"{player.surname} {player.first_name}".replace("_", " ") == line.name
        counted = player.points()
        assert counted["won"] + counted["byes"] == line.wins
        for number, cell in enumerate(line.cells, start=1):
            game = player.games[number - 1]
            if cell.kind == "game" and cell.forfeit:  # a game not played: EGF's round without a game
                assert (game.opponent, game.result) == (0, cell.sign)
            elif cell.kind == "game":
                assert (game.opponent, game.result, game.colour, game.stones, game.unplayed) == (
                    cell.opponent,
                    cell.sign,
                    cell.colour,
                    cell.stones,
                    False,
                )
            else:
                assert (game.opponent, game.result) == (0, "+" if cell.kind == "bye" else "-")
    far_line = next(p for p in read.players if any(g.stones == pairing.MAX_STONES for g in p.games))
    assert far_line.games[2].stones == 9


def _latin(reg) -> str:
    return reg.name_latin or reg.name
