"""Every page type at a 390-px phone and a 1366-px desktop (issue 16): the page never scrolls sideways, where the
page shows a rating the rating column is inside the viewport, and every chart is drawn on a time axis. A screenshot
of each page at each width is written to ``$ARTIFACTS/screenshots`` (or ``tests/web/screenshots/``, ignored by git)
for CI to keep.

The pages are those of a small demo federation (``demo_data --players 60 --years 1``), built once through the
services, so that every list, chart, explanation and table is filled as on a real site.
"""

import os
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from federation.models import Player
from ratings.dirs.models import DirsGame
from ratings.models import Engine, RatingEntry, RatingList
from ratings.preferans.models import Game
from tournaments.go.models import GoTournament, Registration
from tournaments.models import Discipline, Tournament, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1366)
SHOTS = Path(os.environ.get("ARTIFACTS") or Path(__file__).parent) / "screenshots"

MEASURE = """() => {
  const root = document.documentElement;
  const shown = document.querySelectorAll('th.col-rating, .rating-card .col-rating');
  const rating = [...shown].find(el => el.offsetParent !== null);
  const box = rating ? rating.getBoundingClientRect() : null;
  return {
    viewport: root.clientWidth,
    scroll: root.scrollWidth,
    rating: box ? {left: box.left, right: box.right} : null,
    charts: [...document.querySelectorAll('canvas.fed-chart')].map(canvas => {
      const chart = window.Chart && Chart.getChart(canvas);
      return chart ? chart.scales.x.type : 'not drawn';
    }),
  };
}"""


def pages() -> list[tuple[str, str, bool]]:
    """(name, address, shows a rating column) for every page type of the demo."""
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV).order_by("ordering", "slug").first()
    rated = (
        RatingEntry.objects.filter(snapshot__rating_list__engine=Engine.GORBUNOV)
        .values_list("player_id", flat=True)
        .first()
    )
    mahjong_player = (
        RatingEntry.objects.filter(snapshot__rating_list__engine=Engine.MAHJONG_RR)
        .values_list("player_id", flat=True)
        .first()
    )
    go = GoTournament.objects.filter(rounds__isnull=False).distinct().first()
    registration = Registration.objects.filter(tournament=go).first()
    game = Game.objects.order_by("pk").first()
    dirs_player = DirsGame.objects.values_list("white_id", flat=True).first()
    approved = Tournament.objects.filter(status=TournamentStatus.APPROVED)
    by_discipline = {
        d: approved.filter(discipline=d).order_by("-end_date").values_list("pk", flat=True).first()
        for d in Discipline.values
    }
    result = [
        ("home", "/", False),
        ("home-en", "/en/", False),
        ("players", "/players/", False),
        ("player", f"/players/{rated}/", True),
        ("player-en", f"/en/players/{rated}/", True),
        ("tournaments", "/tournaments/", False),
        ("gorbunov-index", "/ratings/cards/", False),
        ("gorbunov-list", f"/ratings/cards/{gorbunov.slug}/", True),
        ("gorbunov-list-en", f"/en/ratings/cards/{gorbunov.slug}/", True),
        ("gorbunov-calculator", "/ratings/cards/calculator/", False),
        ("mahjong-index", "/ratings/mahjong/", False),
        ("mahjong-list", "/ratings/mahjong/mahjong-rr/", True),
        ("mahjong-dates", "/ratings/mahjong/mahjong-rr/dates/", False),
        ("mahjong-tournaments", "/ratings/mahjong/mahjong-rr/tournaments/", False),
        ("mahjong-player", f"/ratings/mahjong/players/{mahjong_player}/", True),
        ("mahjong-calculator", "/ratings/mahjong/calculator/", False),
        ("go-index", "/go/", False),
        ("go-tournament", f"/go/{go.pk}/", False),
        ("go-round", f"/go/{go.pk}/rounds/1/", False),
        ("go-standings", f"/go/{go.pk}/standings/", False),
        ("go-crosstable", f"/go/{go.pk}/crosstable/", False),
        ("go-player", f"/go/{go.pk}/players/{registration.pk}/", False),
        ("go-calculator", "/go/calculator/", False),
        ("dirs", "/go/dirs/", True),
        ("dirs-player", f"/go/dirs/players/{dirs_player}/", True),
        ("preferans", "/preferans/", True),
        ("preferans-game", f"/preferans/games/{game.pk}/", False),
        ("preferans-calculator", "/preferans/calculator/", False),
    ]
    for discipline, pk in by_discipline.items():
        if pk:
            result.append((f"tournament-{discipline}", f"/tournaments/{pk}/", False))
    # The calendar (issue 30): the demo's season ahead, its fullest announcement (a waiting list) and its form.
    full = Tournament.objects.filter(registrations__status="waiting").values_list("pk", flat=True).first()
    result += [
        ("calendar", "/calendar/", False),
        ("calendar-en", "/en/calendar/", False),
        ("calendar-tournament", f"/calendar/{full}/", False),
        ("calendar-register", f"/en/calendar/{full}/register/?q=a", False),
    ]
    return result


@pytest.fixture
def demo(transactional_db):
    call_command("demo_data", "--players", "60", "--years", "1", "--force", stdout=StringIO())
    assert Player.objects.exists()


def test_every_page_type_fits_a_phone_and_a_desktop_with_the_rating_on_screen(live_server, browser, demo):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    checked = 0
    charts = 0
    for width in WIDTHS:
        context = browser.new_context(locale="ru-RU", viewport={"width": width, "height": 844})
        page = context.new_page()
        page.set_default_timeout(15000)
        for name, address, has_rating in pages():
            response = page.goto(live_server.url + address)
            if response is None or response.status != 200:
                problems.append(f"{width}px {address}: HTTP {response and response.status}")
                continue
            page.wait_for_load_state("load")
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
            box = page.evaluate(MEASURE)
            checked += 1
            if box["scroll"] > box["viewport"]:
                problems.append(f"{width}px {address}: scrolls sideways ({box['scroll']} > {box['viewport']} px)")
            if any(kind != "time" for kind in box["charts"]):
                problems.append(f"{width}px {address}: a chart not drawn on a time axis ({box['charts']})")
            charts += len(box["charts"])
            if has_rating:
                if box["rating"] is None:
                    problems.append(f"{width}px {address}: no rating column shown")
                elif box["rating"]["left"] < 0 or box["rating"]["right"] > box["viewport"]:
                    problems.append(f"{width}px {address}: the rating column is off screen ({box['rating']})")
        context.close()
    assert not problems, "\n".join(problems)
    assert checked == 2 * len(pages())
    assert charts >= 2 * 4  # the player's page, the mahjong player, the DIRS player: every chart drawn
