"""Words, numbers and controls a player can reach on a phone (issue 28), in Chromium against the demo federation:

- every page link of every paginated public list lies inside a 320-px screen, in both languages;
- the Gorbunov week picker is a select of the published weeks and choosing one shows that week;
- short headers carry their full names (``abbr`` with a title, shown on a tap);
- a calculator writes Russian numbers on the Russian page after typing;
- the organiser's results editor does not scroll sideways at 390 px, and at 1366 px its player picker shows the
  city, club and id after the name.

Screenshots go to ``$ARTIFACTS/screenshots`` (or ``tests/web/screenshots/``), as the other browser tests do.
"""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from federation.models import Player
from ratings.models import Engine, RatingList
from tests.web.browser import log_in
from tournaments.models import Discipline, Tournament, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("ARTIFACTS") or Path(__file__).parent) / "screenshots"

PAGE_LINKS = """() => ({
  viewport: document.documentElement.clientWidth,
  scroll: document.documentElement.scrollWidth,
  links: [...document.querySelectorAll('nav .pagination a, nav .pagination .page-link, nav .pagination span')]
    .filter(el => el.offsetParent !== null)
    .map(el => {
      const b = el.getBoundingClientRect();
      return {text: el.textContent.trim(), left: b.left, right: b.right};
    }),
})"""


@pytest.fixture
def demo(transactional_db):
    call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
    assert Player.objects.exists()


def _context(browser, width, locale="ru-RU"):
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    return context, page


def _lists() -> list[str]:
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV).order_by("ordering", "slug").first()
    return [
        "/players/",
        "/players/?page=2",
        "/tournaments/",
        "/tournaments/?page=3",
        f"/ratings/cards/{gorbunov.slug}/",
        "/ratings/mahjong/mahjong-rr/",
        "/ratings/mahjong/mahjong-rr/dates/",
        "/go/dirs/",
        "/preferans/",
        "/preferans/games/",
    ]


def _every_page_link_fits_a_320_px_phone_in_both_languages(live_server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems, paginated = [], 0
    context, page = _context(browser, 320)
    for prefix in ("", "/en"):
        for address in _lists():
            response = page.goto(live_server.url + prefix + address)
            assert response is not None, address
            assert response.status == 200, address
            box = page.evaluate(PAGE_LINKS)
            if box["scroll"] > box["viewport"]:
                problems.append(f"{prefix}{address}: scrolls sideways ({box['scroll']} > {box['viewport']} px)")
            if box["links"]:
                paginated += 1
                name = re.sub(r"\W+", "-", f"{prefix}{address}").strip("-")
                page.screenshot(path=str(SHOTS / f"pagination-{name}-320.png"), full_page=True)
            for link in box["links"]:
                if link["left"] < 0 or link["right"] > box["viewport"]:
                    problems.append(f"{prefix}{address}: «{link['text']}» at {link['left']:.0f}…{link['right']:.0f}")
    context.close()
    assert not problems, "\n".join(problems)
    assert paginated >= 6  # the demo fills several lists past one page, in each language


def _the_week_select_shows_the_week_chosen(live_server, browser):
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV).order_by("ordering", "slug").first()
    context, page = _context(browser, 390)
    page.goto(f"{live_server.url}/ratings/cards/{gorbunov.slug}/")
    select = page.locator("select#id_week")
    expect(select).to_be_visible()
    options = select.locator("option")
    assert options.count() >= 3
    expect(options.first).to_contain_text("текущий список")
    # An older week: its label is the reader's dates (02.03.2026 – 08.03.2026), its value the ISO week.
    value = options.nth(2).get_attribute("value")
    label = options.nth(2).inner_text()
    assert re.fullmatch(r"\d{4}-W\d{2}", value)
    assert re.fullmatch(r"\d\d\.\d\d\.\d{4} – \d\d\.\d\d\.\d{4}", label)
    select.select_option(value)
    page.locator("form.filter-form").get_by_role("button", name="Показать").click()
    expect(page).to_have_url(re.compile(rf"week={value}"))
    monday = label.split(" – ")[0]
    expect(page.locator("#list-week")).to_contain_text(monday)
    expect(page.locator("select#id_week")).to_have_value(value)
    page.screenshot(path=str(SHOTS / "week-select-390.png"), full_page=False)
    context.close()


def _short_headers_have_their_full_names_and_calculators_write_russian_numbers(live_server, browser):
    card = (
        Tournament.objects.filter(discipline=Discipline.CARD_GAMES, status=TournamentStatus.APPROVED)
        .order_by("-end_date")
        .first()
    )
    context, page = _context(browser, 390)
    page.goto(f"{live_server.url}/tournaments/{card.pk}/")
    place = page.locator(".gorbunov-tournament thead abbr.term").first
    expect(place).to_have_attribute("title", "место")
    # A tap (focus) shows the full name where a phone shows no title.
    place.focus()
    shown = place.evaluate("el => getComputedStyle(el, '::after').content")
    assert "место" in shown
    page.screenshot(path=str(SHOTS / "abbr-tap-390.png"), full_page=False)

    page.goto(f"{live_server.url}/ratings/how/mahjong/")
    expect(page.locator("#glossary")).to_be_visible()
    expect(page.locator("dl.glossary")).to_contain_text("Коэффициент давности")

    # The mahjong calculator after typing: 2,40-style coefficients, never 2.40.
    page.goto(f"{live_server.url}/ratings/mahjong/calculator/")
    page.locator("#calc-players").fill("30")
    page.locator("#calc-hanchans").fill("10")
    expect(page.locator("#calc-summary")).to_contain_text("K")
    expect(page.locator("#calc-places tbody tr")).to_have_count(30)
    summary = page.locator("#calc-summary").inner_text()
    cells = page.locator("#calc-places tbody").inner_text()
    assert re.search(r"\d,\d\d", summary), summary
    assert not re.search(r"\d\.\d", summary + cells)
    page.screenshot(path=str(SHOTS / "mahjong-calculator-ru-390.png"), full_page=False)

    # The Gorbunov calculator: Rt with a decimal comma, the explanation in words and Russian numbers.
    page.goto(f"{live_server.url}/ratings/cards/calculator/")
    page.locator("#calc-rt").fill("130.5")
    expect(page.locator("#calc-note")).to_contain_text("130,5")
    expect(page.locator("#calc-table tbody tr").first).to_contain_text("основа")
    assert "base" not in page.locator("#calc-table tbody").inner_text()
    context.close()

    context, page = _context(browser, 390, locale="en-US")
    page.goto(f"{live_server.url}/en/ratings/mahjong/calculator/")
    page.locator("#calc-players").fill("30")
    expect(page.locator("#calc-summary")).to_contain_text(re.compile(r"\d\.\d\d"))
    context.close()


def _log_in(page, live_server, next_url):
    log_in(page, live_server, "admin", next_url, password="admin")


def _the_results_editor_fits_a_phone_and_its_picker_shows_city_club_and_id(live_server, browser):
    tournament = (
        Tournament.objects.filter(discipline=Discipline.CARD_GAMES, results__player__isnull=False)
        .distinct()
        .order_by("-end_date")
        .first()
    )
    address = f"/en/admin/tournaments/tournament/{tournament.pk}/results/"
    for width in (390, 1366):
        context, page = _context(browser, width, locale="en-US")
        _log_in(page, live_server, address)
        expect(page.locator("#results-grid")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"results-editor-{width}.png"), full_page=False)
        scroll, viewport = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert scroll <= viewport, f"{width}px: the results editor scrolls sideways ({scroll} > {viewport})"
        if width == 1366:
            chosen = page.locator("#results-grid .select2-selection__rendered").first
            text = chosen.inner_text()
            assert re.search(r"№\d+", text), text  # the id is part of the label
            whole = chosen.evaluate("el => el.scrollWidth <= el.clientWidth")
            assert whole, f"the picker cuts its label: {text}"
        context.close()


def test_words_numbers_and_controls_on_a_phone(live_server, browser, demo):
    """One demo federation for the four checks (building it took most of each test's time); the results editor,
    which writes, comes last."""
    _every_page_link_fits_a_320_px_phone_in_both_languages(live_server, browser)
    _the_week_select_shows_the_week_chosen(live_server, browser)
    _short_headers_have_their_full_names_and_calculators_write_russian_numbers(live_server, browser)
    _the_results_editor_fits_a_phone_and_its_picker_shows_city_club_and_id(live_server, browser)
