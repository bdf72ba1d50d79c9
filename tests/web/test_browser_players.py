"""A visitor on a phone: Russian by default, switches to English, finds a player in the list and opens them."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import PlayerFactory, ResultFactory, TournamentFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switch_language_and_open_a_player_from_the_list(live_server, page):
    tournament = TournamentFactory(name="Кубок Москвы")
    shchukin = PlayerFactory(last_name="Щукин", first_name="Пётр", last_name_latin="Shchukin", first_name_latin="Petr")
    ResultFactory(tournament=tournament, player=shchukin, place=1)
    ResultFactory(tournament=tournament, place=2)

    page.goto(f"{live_server.url}/players/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("heading", name="Игроки")).to_be_visible()

    page.locator("#language-switch").get_by_text("English").click()
    expect(page).to_have_url(f"{live_server.url}/en/players/")
    expect(page.get_by_role("heading", name="Players")).to_be_visible()

    page.get_by_label("Name").fill("shchuk")
    page.get_by_role("button", name="Show").click()
    page.get_by_role("link", name="Shchukin Petr").click()

    expect(page).to_have_url(re.compile(rf"/en/players/{shchukin.pk}/$"))
    # The English page in Latin letters only (issue 28): the name staff typed, the tournament transliterated.
    expect(page.get_by_role("heading", name="Shchukin Petr")).to_be_visible()
    expect(page.get_by_text("Щукин")).to_have_count(0)
    page.get_by_text("1 tournament, newest first").click()  # the results are folded (issue 28)
    expect(page.get_by_role("link", name="Kubok Moskvy")).to_be_visible()

    page.locator("#language-switch").get_by_text("Русский").click()
    expect(page).to_have_url(re.compile(rf"/players/{shchukin.pk}/$"))
    expect(page.get_by_text("Турниры и места")).to_be_visible()
