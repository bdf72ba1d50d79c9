"""What a director sees at the venue in Chromium (issue 27): the wall standings keep every name on one line and show
the club, one A4 page wide; the sheets and the players' list read names as their alphabet orders them (Ё with Е);
the special results are typed on the fast entry page (X, then L, W or F)."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.factories import federation_staff, organiser
from tests.web.browser import log_in
from tournaments.go import services
from tournaments.go.models import Board

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: A4 content width at 96 px an inch (186 mm), as the venue test prints.
CONTENT_PX = 703

SURNAMES = [
    "Константинопольский", "Ёлкина", "Андреева", "Верещагина-Оболенская", "Жуков", "Елисеев", "Щербаков",
    "Преображенский", "Ястребов", "Григорьев", "Черноморцева", "Дмитриев", "Зеленоградский", "Ильин",
    "Калашникова", "Лебедев", "Митрофанова", "Новосельцев", "Одинцова", "Покровский", "Рождественская",
    "Соловьёв", "Тарасова", "Уварова", "Фёдоров", "Харитонова", "Цветаева", "Шереметьев", "Юрьева", "Богданов",
    "Вознесенский", "Ёжиков",
]  # fmt: skip
GIVEN = ["Александр", "Екатерина", "Владислав", "Анастасия"]


@pytest.fixture(autouse=True)
def _roles():
    """A transactional test starts from empty tables: the roles' groups are made again."""
    from federation.roles import ensure_roles

    ensure_roles()


def _thirty_two(user):
    go = services.go_tournament_create(
        user=user, name="Кубок Стены", start_date=datetime.date(2026, 6, 6), end_date=datetime.date(2026, 6, 7),
        city="Тверь", system="fus", rounds=3, half_stone=True, acceleration=True,
    )  # fmt: skip
    clubs = ["Тэнгэн", "ГК «Белый камень» (Санкт-Петербург)", "Го-клуб Тверского государственного университета"]
    for k, surname in enumerate(SURNAMES):
        services.go_registration_add(
            go=go, surname=surname, given_name=GIVEN[k % 4], rating=2400 - 25 * k, club_name=clubs[k % 3]
        )
    rnd = services.go_round_pair(go=go)
    services.go_round_publish(go_round=rnd)
    for board in rnd.boards.all():
        services.go_result_enter(go_round=rnd, board_number=board.number, result="white")
    return go


def test_the_wall_standings_keep_each_name_on_one_line_with_its_club(live_server, page):
    """Before: the name column took what six fixed-width number columns left, and 27 of 32 names broke over two
    lines; there was no club."""
    user = federation_staff(username="wall-director")
    go = _thirty_two(user)
    log_in(page, live_server, "wall-director", f"/go/{go.pk}/print/standings/")
    page.goto(f"{live_server.url}/go/{go.pk}/print/standings/")
    page.set_viewport_size({"width": CONTENT_PX, "height": 1000})
    page.emulate_media(media="print")
    expect(page.locator("#sheet th.club")).to_have_text("Клуб")
    lines = page.evaluate(
        "[...document.querySelectorAll('#sheet tbody td.name .player')].map(s => [s.textContent,"
        " s.getClientRects().length])"
    )
    assert len(lines) == 32
    broken = [name for name, rects in lines if rects != 1]
    assert broken == [], broken
    clubs = page.locator("#sheet tbody td.club").all_inner_texts()
    assert all(clubs), clubs
    assert "Го-клуб Тверского государственного университета" in clubs
    widths = page.evaluate("[...document.querySelectorAll('#sheet thead th')].map(t => [t.textContent, t.offsetWidth])")
    scroll, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert scroll <= client, (scroll, client, widths)
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert all(abs(float(w) - 595.3) < 2 for w, _h in re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf))


def test_the_players_sheet_and_list_in_the_reader_s_alphabet(live_server, page):
    """Ёлкина between Елисеев and Жуков on the A-to-Z sheet and the tournament's players (before, the list put
    Ёлкина and Ёжиков before Андреева)."""
    user = organiser(username="alphabet-director")
    go = _thirty_two(user)
    log_in(page, live_server, "alphabet-director", f"/go/{go.pk}/")
    page.goto(f"{live_server.url}/go/{go.pk}/")
    names = page.locator("#registrations tbody td.name a").all_inner_texts()
    surnames = [name.split()[0] for name in names]
    assert surnames == sorted(SURNAMES, key=lambda s: s.lower().replace("ё", "е")), surnames
    assert surnames.index("Ёжиков") < surnames.index("Елисеев") < surnames.index("Ёлкина") < surnames.index("Жуков")
    page.goto(f"{live_server.url}/go/{go.pk}/rounds/1/print/players/")
    sheet = [name.split()[0] for name in page.locator("#sheet td.name").all_inner_texts()]
    assert sheet == surnames


def test_special_results_typed_on_the_fast_entry_page(live_server, page):
    user = organiser(username="keyboard-director")
    go = services.go_tournament_create(
        user=user, name="Keys", start_date=datetime.date(2026, 6, 6), end_date=datetime.date(2026, 6, 6),
        system="fus", rounds=2, half_stone=True, acceleration=True,
    )  # fmt: skip
    for k, name in enumerate(("Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel")):
        services.go_registration_add(go=go, name=name, rating=2000 - 10 * k)
    rnd = services.go_round_pair(go=go)
    services.go_round_publish(go_round=rnd)
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, live_server, "keyboard-director", f"/en/go/{go.pk}/rounds/1/enter/")
    page.goto(f"{live_server.url}/en/go/{go.pk}/rounds/1/enter/")
    entry = page.locator("#entry-input")
    entry.click()
    entry.press_sequentially("1x")
    expect(page.locator("#entry-preview")).to_contain_text("both players: now L (both lose)")
    entry.press_sequentially("l")
    expect(page.locator("#entry-1")).to_have_class(re.compile("saved"))
    expect(page.locator("#entry-1 .result")).to_have_text("both lose")
    for typed, board in (("2xw", 2), ("3xf", 3), ("4fb", 4)):
        entry.press_sequentially(typed)
        expect(page.locator(f"#entry-{board}")).to_have_class(re.compile("saved"))
    expect(page.locator("#remaining")).to_have_text("0")
    results = dict(Board.objects.filter(round=rnd).values_list("number", "result"))
    assert results == {1: "both_lose", 2: "both_win", 3: "double_forfeit", 4: "black_forfeit"}
    page.goto(f"{live_server.url}/en/go/{go.pk}/crosstable/")
    expect(page.locator("#crosstable td[title$=': both win']")).to_have_count(2)
