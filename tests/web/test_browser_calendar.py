"""Issue 30's "done when", in Chromium: an organiser announces a tournament, staff approve it, three players register
through their e-mail links (read from Django's test outbox: the live server runs in this process), the organiser
closes registration, enters the results from the pre-filled editor, and staff approve and publish; the calendar, the
``.ics`` files (parsed by icalendar) and the Atom feeds (parsed by feedparser) show each step."""

import datetime
import re
from urllib.parse import urlsplit

import feedparser
import icalendar
import pytest
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from federation.celery import app
from federation.models import Player
from ratings.gorbunov.services import gorbunov_setup_defaults
from ratings.models import RatingChange, RatingList
from tests.factories import federation_staff, organiser
from tests.web.browser import log_in
from tournaments.models import AnnouncementStatus, Registration, Result, Tournament, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Elements of the page's content that reach beyond the viewport's right edge (what makes a page scroll sideways; the
#: header is the base layout's, checked by test_browser_layout.py).
WIDER_THAN_THE_SCREEN = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('main *')]
    .filter(el => el.getBoundingClientRect().right > width + 0.5)
    .slice(0, 5)
    .map(el => `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ${Math.round(el.getBoundingClientRect().right)}`);
}"""
LINK = re.compile(r"https?://\S+/calendar/confirm/\S+/")


@pytest.fixture
def eager():
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


def _log_in(page, live_server, username, next_url="/en/admin/"):
    page.context.clear_cookies()
    log_in(page, live_server, username, next_url)


def _action(page, live_server, tournament, action, message):
    page.goto(f"{live_server.url}/en/admin/tournaments/tournament/")
    page.locator(f'input[name="_selected_action"][value="{tournament.pk}"]').check()
    page.locator('select[name="action"]').select_option(action)
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text(message)


def _events(page, live_server, path):
    response = page.request.get(f"{live_server.url}{path}")
    assert response.headers["content-type"].startswith("text/calendar")
    return {str(e["summary"]): e for e in icalendar.Calendar.from_ical(response.body()).walk("VEVENT")}


def _atom(page, live_server, path):
    response = page.request.get(f"{live_server.url}{path}")
    assert response.headers["content-type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.body())
    assert not feed.bozo, feed.bozo_exception
    return feed


def test_announce_register_close_enter_publish(page, live_server, eager, monkeypatch, settings):
    settings.EMAIL_URL = "smtp://mail.example.org:587"  # the site sends e-mail; the test runner keeps it in the outbox
    gorbunov_setup_defaults()
    players = [
        Player.objects.create(
            last_name=last, first_name="Иван", last_name_latin=latin, first_name_latin="Ivan", city="Тверь"
        )
        for last, latin in (("Картов", "Kartov"), ("Колодов", "Kolodov"), ("Драфтов", "Draftov"))
    ]
    for player in players:
        player.fill_search_name()
        player.save()
    organiser(username="org")
    federation_staff(username="olga")
    day = timezone.localdate() + datetime.timedelta(days=1)
    mail.outbox.clear()

    # The organiser announces the tournament: the same form that later takes its results.
    _log_in(page, live_server, "org", "/en/admin/tournaments/tournament/add/?discipline=ccg")
    page.get_by_label("Name:").fill("Кубок Твери")
    page.locator("#id_start_date").fill(day.isoformat())
    page.locator("#id_end_date").fill(day.isoformat())
    page.locator("#id_city").fill("Тверь")
    page.locator("#id_venue").fill("Клуб «Берсерк»")
    page.locator("#id_contact").fill("org@example.org")
    page.locator("#id_description").fill("Открытый турнир по конструктиву.")
    page.locator("#id_max_players").fill("8")
    page.get_by_label("Format:").select_option("constructed")
    page.get_by_label("Coefficient K:").fill("2")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    tournament = Tournament.objects.get(name="Кубок Твери")
    _action(page, live_server, tournament, "submit_announcement", "Announcements submitted: 1.")
    tournament.refresh_from_db()
    assert tournament.announcement == AnnouncementStatus.SUBMITTED
    # Not public yet: the calendar, its .ics and its feed do not have it.
    page.goto(f"{live_server.url}/en/calendar/")
    expect(page.locator("body")).not_to_contain_text("Kubok Tveri")
    assert "Кубок Твери" not in _events(page, live_server, "/en/calendar/calendar.ics")
    assert _atom(page, live_server, "/en/calendar/feed/").entries == []

    # Staff approve the announcement: public at once.
    _log_in(page, live_server, "olga", "/en/admin/tournaments/tournament/")
    _action(page, live_server, tournament, "approve_announcement", "Announcements approved: 1.")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/en/calendar/")
    # The English page names it in Latin letters (issue 28); its .ics keeps the name as typed.
    expect(page.locator(f"#calendar-{tournament.pk}")).to_contain_text("Kubok Tveri")
    event = _events(page, live_server, "/en/calendar/calendar.ics")["Кубок Твери"]
    assert event.decoded("dtstart") == day
    assert str(event["status"]) == "CONFIRMED"
    assert "Кубок Твери" in _events(page, live_server, f"/en/calendar/{tournament.pk}.ics")
    assert "Кубок Твери" in _events(page, live_server, "/en/calendar/ccg.ics")
    entries = _atom(page, live_server, "/en/calendar/feed/").entries
    assert [e.title for e in entries] == [f"Кубок Твери — {day.isoformat()}"]

    # Three players register from the tournament's page, each through the link e-mailed to them.
    for n, player in enumerate(players):
        page.goto(f"{live_server.url}/en/calendar/")
        page.locator(f"#calendar-{tournament.pk} a").click()
        page.locator("#calendar-register").click()
        page.locator("#register-q").fill(player.last_name_latin)
        page.get_by_role("button", name="Find").click()
        page.locator(f"#register-player-{player.pk}").check()
        page.get_by_label("E-mail").fill(f"player{n}@example.org")
        page.locator("#register-submit").click()
        expect(page.locator("h1")).to_contain_text("Check your e-mail")
        message = mail.outbox[-1]
        assert message.to == [f"player{n}@example.org"]
        link = urlsplit(LINK.search(message.body).group(0)).path
        page.goto(f"{live_server.url}{link}")
        page.locator("#link-submit").click()
        expect(page.locator("#calendar-message")).to_contain_text("You are registered.")
        assert "You are registered: Кубок Твери" in mail.outbox[-1].subject
    page.goto(f"{live_server.url}/en/calendar/{tournament.pk}/")
    registered = page.locator("#calendar-registered")
    for player in players:
        expect(registered).to_contain_text(f"{player.last_name_latin} Ivan")
    expect(page.locator("body")).not_to_contain_text("player0@example.org")
    page.screenshot(path=_artifact("calendar-detail.png"), full_page=True)
    # On the narrowest phone (320 px) the content fits the screen: the calendar, the announcement, the form.
    page.set_viewport_size({"width": 320, "height": 700})
    for path in ("/en/calendar/", f"/calendar/{tournament.pk}/", f"/en/calendar/{tournament.pk}/register/?q=ov"):
        page.goto(f"{live_server.url}{path}")
        wide = page.evaluate(WIDER_THAN_THE_SCREEN)
        assert not wide, (path, wide)
    page.set_viewport_size({"width": 390, "height": 844})
    assert Registration.objects.filter(tournament=tournament, status="registered").count() == 3

    # The organiser sees the list in the admin and closes registration.
    _log_in(page, live_server, "org", f"/en/admin/tournaments/tournament/{tournament.pk}/change/")
    expect(page.locator(".field-registrations_summary")).to_contain_text("3 registered")
    page.locator("#registrations-link").click()
    expect(page.locator("#result_list")).to_contain_text("player1@example.org")
    _action(page, live_server, tournament, "close_registration", "Registration closed: 1.")
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/en/calendar/{tournament.pk}/")
    expect(page.locator("#calendar-closed")).to_contain_text("Registration is closed.")

    # The tournament is played. A week and more later (the site's clock moved on) the organiser enters the places
    # in the results editor, whose first rows are the registered players; a walk-in is typed as a fourth row.
    real_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: real_now() + datetime.timedelta(days=9))
    _log_in(page, live_server, "org", f"/en/admin/tournaments/tournament/{tournament.pk}/results/")
    rows = page.locator("#results-grid tbody tr")
    for n, player in enumerate(players):
        expect(rows.nth(n).locator(".select2-selection")).to_contain_text(player.last_name)
        rows.nth(n).locator(".results-place").fill(str(n + 1))
    rows.nth(3).locator(".results-place").fill("4")
    rows.nth(3).locator(".results-name").fill("Гость Клуба")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("Saved: 4 added, 0 changed, 0 deleted.")
    assert list(tournament.results.order_by("place").values_list("player_id", flat=True)) == [
        *(p.pk for p in players),
        None,
    ]
    _action(page, live_server, tournament, "submit", "Submitted: 1.")

    # Staff approve the results and publish this week's list.
    _log_in(page, live_server, "olga", "/en/admin/tournaments/tournament/")
    _action(page, live_server, tournament, "approve", "Approved: 1.")
    everything = RatingList.objects.get(slug="gorbunov")
    page.goto(f"{live_server.url}/en/admin/ratings/ratinglist/")
    page.locator(f'input[name="_selected_action"][value="{everything.pk}"]').check()
    page.locator('select[name="action"]').select_option("gorbunov_publish_now")
    page.get_by_role("button", name="Go").click()
    expect(page.locator("#task-outcome")).to_contain_text(re.compile(r"published \d{4}-W\d\d: \d+ players"))
    assert RatingChange.objects.filter(tournament=tournament, rating_list=everything).count() == 3
    assert Result.objects.filter(tournament=tournament).count() == 4
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.APPROVED

    # The calendar now links to the results; the .ics keeps the event; the feeds show the publication and the
    # winner's change.
    page.context.clear_cookies()
    page.goto(f"{live_server.url}/en/calendar/")
    page.locator("#calendar-past").get_by_role("link", name="results").click()
    expect(page.locator("#results")).to_contain_text(
        "Gost Kluba"
    )  # a guest without a profile, in Latin letters on /en/
    assert "Кубок Твери" in _events(page, live_server, "/en/calendar/calendar.ics")
    page.goto(f"{live_server.url}/en/calendar/{tournament.pk}/")
    expect(page.locator("#calendar-results")).to_be_visible()
    publications = _atom(page, live_server, "/en/feeds/lists/gorbunov/")
    assert "Kartov Ivan +" in publications.entries[0].summary
    page.goto(f"{live_server.url}/en/players/{players[0].pk}/")
    feed_link = page.locator('head link[rel="alternate"][type="application/atom+xml"]')
    player_feed = _atom(page, live_server, feed_link.get_attribute("href"))
    assert "Кубок Твери" in player_feed.entries[0].summary


def _artifact(name: str) -> str:
    import os
    from pathlib import Path

    folder = Path(os.environ.get("ARTIFACTS", "/tmp/calendar30-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return str(folder / name)
