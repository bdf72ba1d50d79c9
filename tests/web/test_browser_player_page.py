"""Issue 28's target for a player's page, measured in Chromium: the demo's busiest player (``demo_data`` with its
defaults; the player with the most results) fits in three phone screens (390 x 844 px) before anything is unfolded,
every rating they hold is on the first screen, and the page never scrolls sideways at 320, 390 or 1366 px, in Russian
and in English, folded and unfolded. Screenshots go to ``$ARTIFACTS/screenshots`` as the layout test's do.
"""

import os
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count

from federation.models import Player
from tests.federation.test_player_page import ratings_held

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = {"width": 390, "height": 844}
SHOTS = Path(os.environ.get("ARTIFACTS") or Path(__file__).parent) / "screenshots"

MEASURE = """() => {
  const root = document.documentElement;
  return {
    height: root.scrollHeight,
    viewport: root.clientWidth,
    scroll: root.scrollWidth,
    cards: [...document.querySelectorAll('.rating-card')].map(card => {
      const box = card.getBoundingClientRect();
      return {top: box.top + window.scrollY, bottom: box.bottom + window.scrollY, left: box.left, right: box.right,
              text: card.innerText};
    }),
    closed: [...document.querySelectorAll('details.player-fold')].filter(d => !d.open).length,
  };
}"""


CHARTS = """() => [...document.querySelectorAll('canvas.fed-chart')].map(canvas => {
  const chart = Chart.getChart(canvas);
  return {id: canvas.id, datasets: chart.data.datasets.length, legend: chart.options.plugins.legend.display};
})"""


@pytest.fixture
def busiest(transactional_db):
    call_command("demo_data", "--force", stdout=StringIO())
    player = Player.objects.annotate(n=Count("results")).order_by("-n", "pk").first()
    assert player.n > 50
    return player


def test_the_busiest_players_page_fits_three_phone_screens_with_every_rating_on_the_first(
    live_server, browser, busiest
):
    for prefix in ("", "/en"):  # both languages on one demo federation (building it takes most of the test)
        _fits(live_server, browser, busiest, prefix)


def _fits(live_server, browser, busiest, prefix):
    SHOTS.mkdir(parents=True, exist_ok=True)
    held = ratings_held(busiest)
    assert held >= 3
    address = f"{live_server.url}{prefix}/players/{busiest.pk}/"
    language = "en" if prefix else "ru"
    context = browser.new_context(locale="en-US" if prefix else "ru-RU", viewport=SCREEN)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(address)
    page.wait_for_load_state("load")
    page.screenshot(path=str(SHOTS / f"player-busiest-{language}-390.png"), full_page=True)
    folded = page.evaluate(MEASURE)
    assert folded["closed"] >= 2  # the details are folded
    assert folded["height"] <= 3 * SCREEN["height"], f"{folded['height']} px tall at 390 px"
    assert len(folded["cards"]) == held
    for card in folded["cards"]:
        assert card["bottom"] <= SCREEN["height"], f"a rating below the first screen: {card}"
        assert card["left"] >= 0
        assert card["right"] <= folded["viewport"]
    assert folded["scroll"] <= folded["viewport"]

    # Short headers name themselves on hover (title) and on tap (focus shows the title after them).
    m = page.locator("abbr.term[title]").filter(has_text=re.compile(r"^M")).first
    assert m.get_attribute("title") == ("place" if prefix else "место")

    # Unfolded, the long histories still fit the width: the formula's numbers fold under the tournament's name.
    for summary in page.locator("details.player-fold > summary").all():
        summary.click()
    page.screenshot(path=str(SHOTS / f"player-busiest-{language}-390-open.png"), full_page=True)
    opened = page.evaluate(MEASURE)
    assert opened["closed"] == 0
    assert opened["scroll"] <= opened["viewport"]
    assert opened["height"] > folded["height"]
    # Charts: at most three series each, markers included, and a legend whenever there is more than one.
    charts = page.evaluate(CHARTS)
    assert len(charts) >= 2
    for chart in charts:
        assert chart["datasets"] <= 3, chart
        assert chart["legend"] == (chart["datasets"] > 1), chart
    context.close()

    for width in (320, 1366):
        context = browser.new_context(locale="en-US" if prefix else "ru-RU", viewport={"width": width, "height": 844})
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(address)
        page.wait_for_load_state("load")
        page.screenshot(path=str(SHOTS / f"player-busiest-{language}-{width}.png"), full_page=True)
        box = page.evaluate(MEASURE)
        assert box["scroll"] <= box["viewport"], f"{width} px: scrolls sideways ({box['scroll']} px)"
        assert len(box["cards"]) == held
        context.close()
