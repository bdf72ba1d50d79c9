"""A director on a phone pairs round 1 of a Go tournament, publishes it and enters its results; a player sees them."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import organiser
from tournaments.go import services
from tournaments.go.models import Board

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_pair_a_round_and_enter_its_results(live_server, page):
    import datetime

    from federation.roles import ensure_roles

    ensure_roles()
    user = organiser(username="director")
    go = services.go_tournament_create(
        user=user,
        name="Venue Cup",
        start_date=datetime.date(2026, 3, 7),
        end_date=datetime.date(2026, 3, 7),
        system="fus",
        rounds=3,
        half_stone=True,
        acceleration=True,
    )
    for name, rating in (("Alpha", 2100), ("Bravo", 2000), ("Charlie", 1900), ("Delta", 1800)):
        services.go_registration_add(go=go, name=name, rating=rating)

    page.goto(f"{live_server.url}/en/admin/login/?next=/en/go/{go.pk}/")
    page.get_by_label("Username").fill("director")
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Venue Cup")).to_be_visible()

    page.get_by_role("button", name="Pair next round").click()
    expect(page).to_have_url(re.compile(rf"/en/go/{go.pk}/rounds/1/$"))
    expect(page.get_by_text("draft")).to_be_visible()
    expect(page.locator("#board-1")).to_contain_text("Alpha")
    expect(page.locator("#board-1")).to_contain_text("1 stone, reverse komi 6.5")
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Round 1 is published.")).to_be_visible()

    page.get_by_label("Result of board 1").select_option("black")
    page.locator("#board-1").get_by_role("button", name="Save").click()
    expect(page.locator("#board-1")).to_contain_text("black wins")
    page.get_by_label("Result of board 2").select_option("white")
    page.locator("#board-2").get_by_role("button", name="Save").click()
    expect(page.locator("#board-2")).to_contain_text("white wins")
    expect(page.get_by_text("All results are in.")).to_be_visible()
    assert sorted(Board.objects.values_list("result", flat=True)) == ["black", "white"]

    page.get_by_role("link", name="Standings").first.click()
    expect(page.locator("#standings")).to_contain_text("Bravo")
    rows = page.locator("#standings tbody tr")
    # Alpha lost but stays on 42; Bravo won on black: 40 + 1 = 41.
    expect(rows.nth(0)).to_contain_text("Alpha")
    expect(rows.nth(1)).to_contain_text("Bravo")
    expect(rows.nth(1)).to_contain_text("41")


def test_register_a_member_by_typing_and_correct_a_result(live_server, page):
    import datetime

    from federation.roles import ensure_roles
    from tests.factories import PlayerFactory
    from tournaments.go.models import Registration

    ensure_roles()
    user = organiser(username="director2")
    user.set_password("pass-word-123")
    user.save()
    go = services.go_tournament_create(
        user=user,
        name="Typing Cup",
        start_date=datetime.date(2026, 3, 7),
        end_date=datetime.date(2026, 3, 7),
        system="fus",
        rounds=3,
        half_stone=True,
        acceleration=True,
    )
    for i in range(30):
        PlayerFactory(last_name=f"Смирнов{i:02d}", last_name_latin=f"Smirnov{i:02d}")
    wanted = PlayerFactory(last_name="Ёлкина", first_name="Мария", last_name_latin="Yolkina", first_name_latin="Maria")
    services.go_registration_add(go=go, name="Alpha", rating=2100)

    page.goto(f"{live_server.url}/en/admin/login/?next=/en/go/{go.pk}/")
    page.get_by_label("Username").fill("director2")
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Typing Cup")).to_be_visible()

    search = page.get_by_label("Find a member by name (Cyrillic or Latin)")
    search.press_sequentially("smirnov")
    expect(page.locator("#member-results .form-check")).to_have_count(21)  # "not a member" + the first 20
    expect(page.locator("#member-results")).to_contain_text("Only the first 20 are shown")
    search.fill("")
    search.press_sequentially("ёлк")
    expect(page.locator("#member-results")).to_contain_text("Yolkina Maria")
    page.get_by_label(re.compile("Yolkina Maria")).check()
    page.get_by_label("Rating", exact=True).fill("1900")
    page.get_by_role("button", name="Register").click()
    expect(page.get_by_text("Ёлкина Мария is registered.")).to_be_visible()
    reg = Registration.objects.get(tournament=go, player=wanted)
    assert reg.rating == 1900

    page.get_by_role("button", name="Pair next round").click()
    page.get_by_role("button", name="Publish").click()
    page.get_by_label("Result of board 1").select_option("white")
    page.locator("#board-1").get_by_role("button", name="Save").click()
    expect(page.locator("#board-1")).to_contain_text("white wins")
    page.locator("#board-1 summary").click()
    page.get_by_label("New result of board 1").select_option("black")
    page.locator("#board-1").get_by_role("button", name="Correct").click()
    expect(page.get_by_text("Board 1 corrected: black wins.")).to_be_visible()
    expect(page.locator("#board-1")).to_contain_text("black wins")
    assert Board.objects.get(round__tournament=go).result == "black"


def test_a_name_typed_before_the_search_script_has_loaded_is_searched_when_it_loads(live_server, page):
    """On a slow connection the director may type before go-register.js runs: the script searches what is typed."""
    import datetime

    from federation.roles import ensure_roles
    from tests.factories import PlayerFactory

    ensure_roles()
    user = organiser(username="director3")
    user.set_password("pass-word-123")
    user.save()
    go = services.go_tournament_create(
        user=user, name="Slow Cup", start_date=datetime.date(2026, 3, 7), end_date=datetime.date(2026, 3, 7),
        system="fus", rounds=3, half_stone=True, acceleration=True,
    )  # fmt: skip
    PlayerFactory(last_name="Ёлкина", first_name="Мария", last_name_latin="Yolkina", first_name_latin="Maria")
    page.goto(f"{live_server.url}/en/admin/login/?next=/en/")
    page.get_by_label("Username").fill("director3")
    page.get_by_label("Password").fill("pass-word-123")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/en/")

    held = []
    page.route("**/go-register*.js", lambda route: held.append(route))  # the script waits until the name is typed
    page.goto(f"{live_server.url}/en/go/{go.pk}/", wait_until="commit")  # the page is shown; its script is held
    page.get_by_label("Find a member by name (Cyrillic or Latin)").press_sequentially("ёлк")
    page.wait_for_timeout(300)  # nothing searches yet: no script
    expect(page.locator("#member-results")).not_to_contain_text("Yolkina Maria")
    assert len(held) == 1
    held[0].continue_()
    expect(page.locator("#member-results")).to_contain_text("Yolkina Maria")
