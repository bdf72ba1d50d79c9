"""Clubs on a phone and a desktop (issue 28): a visitor finds the clubs of their city, opens one and sees where it
meets, whom to ask and how its players stand, at 320, 390 and 1366 px in both languages. Nothing scrolls sideways,
the rating column is on screen, and a screenshot of each page at each width is written to ``$ARTIFACTS/screenshots``
(or ``tests/web/screenshots/``) for CI to keep.

The club is one of a small demo federation (``demo_data --players 60 --years 1``), the demo's clubs with the most
players and with a meeting place, so that its ratings, players and tournaments are filled as on a real site.
"""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count, Q
from playwright.sync_api import expect

from federation.models import Club

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (320, 390, 1366)
SHOTS = Path(os.environ.get("ARTIFACTS") or Path(__file__).parent) / "screenshots"

MEASURE = """() => {
  const root = document.documentElement;
  const rating = [...document.querySelectorAll('th.col-rating')].find(el => el.offsetParent !== null);
  const box = rating ? rating.getBoundingClientRect() : null;
  const rated = box ? {left: box.left, right: box.right} : null;
  return {viewport: root.clientWidth, scroll: root.scrollWidth, rating: rated};
}"""


@pytest.fixture
def demo(transactional_db):
    call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
    clubs = Club.objects.annotate(n=Count("players", filter=Q(players__is_bot=False)))
    shown = clubs.exclude(meeting_place="").order_by("-n", "pk").first()
    assert shown is not None
    assert shown.n > 0
    return shown


def _fits(page, where: str, *, rating: bool) -> list[str]:
    box = page.evaluate(MEASURE)
    problems = []
    if box["scroll"] > box["viewport"]:
        problems.append(f"{where}: scrolls sideways ({box['scroll']} > {box['viewport']} px)")
    if rating:
        if box["rating"] is None:
            problems.append(f"{where}: no rating column shown")
        elif box["rating"]["left"] < 0 or box["rating"]["right"] > box["viewport"]:
            problems.append(f"{where}: the rating column is off screen ({box['rating']})")
    return problems


@pytest.mark.parametrize(("language", "prefix"), [("ru", ""), ("en", "/en")])
def test_find_a_club_of_a_city_and_open_it_at_every_width(live_server, browser, demo, language, prefix):
    SHOTS.mkdir(parents=True, exist_ok=True)
    club = demo
    words = {
        "ru": {"clubs": "Клубы", "city": "Город", "show": "Показать", "meets": "Место встреч", "season": "За сезон"},
        "en": {"clubs": "Clubs", "city": "City", "show": "Show", "meets": "Meeting place", "season": "This season"},
    }[language]
    meeting_place = club.localised("meeting_place", language)
    problems = []
    for width in WIDTHS:
        context = browser.new_context(locale=f"{language}-RU", viewport={"width": width, "height": 844})
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{live_server.url}{prefix}/clubs/")
        expect(page.get_by_role("heading", name=words["clubs"], exact=True)).to_be_visible()
        # On a phone the city sits behind "More filters"; a desktop shows it at once.
        toggle = page.locator("label.filter-toggle, label[for^='filter-toggle']")
        if toggle.first.is_visible():
            toggle.first.click()
        page.get_by_label(words["city"]).select_option(club.city)
        page.get_by_role("button", name=words["show"]).click()
        expect(page).to_have_url(re.compile(r"\?city="))
        page.wait_for_load_state("load")
        page.screenshot(path=str(SHOTS / f"clubs-{language}-{width}.png"), full_page=True)
        problems += _fits(page, f"{width}px {prefix}/clubs/", rating=False)

        name = club.display_name(language)  # the English page: the club's name in Latin letters (issue 28)
        page.locator("#clubs").get_by_role("link", name=name, exact=True).click()
        expect(page).to_have_url(re.compile(rf"{prefix}/clubs/{club.pk}/$"))
        expect(page.get_by_role("heading", level=1)).to_contain_text(name)
        expect(page.locator("#meeting-place")).to_have_text(meeting_place)
        expect(page.get_by_text(words["meets"], exact=True)).to_be_visible()
        expect(page.get_by_role("columnheader", name=words["season"]).first).to_be_visible()
        page.wait_for_load_state("load")
        page.screenshot(path=str(SHOTS / f"club-{language}-{width}.png"), full_page=True)
        problems += _fits(page, f"{width}px {prefix}/clubs/{club.pk}/", rating=True)
        context.close()
    assert not problems, "\n".join(problems)
