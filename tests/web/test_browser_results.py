"""Organisers and staff at full speed, in Chromium: a 500-player championship entered (a table pasted from a
spreadsheet), corrected in the results editor from the keyboard, submitted, approved and published through the admin's
pages alone; the K refusal in sight; the results editor's grid by the keyboard."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from federation.celery import app
from federation.models import Club, Player
from ratings.gorbunov.services import gorbunov_setup_defaults
from ratings.models import JobRun, RatingChange, RatingList
from tests.factories import federation_staff, organiser
from tests.web.browser import log_in
from tournaments.models import Result, Tournament, TournamentStatus

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZE = 500


@pytest.fixture
def eager():
    """The embedded default: jobs run in the web process (the live server's thread), as with no broker."""
    old = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = old


def _registry(n):
    club = Club.objects.create(name="Берсерк", city="Тверь")
    players = []
    for i in range(n):
        player = Player(
            last_name=f"Картов{i:03d}",
            first_name="Иван",
            last_name_latin=f"Kartov{i:03d}",
            first_name_latin="Ivan",
            city="Тверь",
            club=club if i % 2 else None,
        )
        player.fill_search_name()
        players.append(player)
    return Player.objects.bulk_create(players)


def _pick_player(page, row, term, label):
    """Choose a player in a row of the results editor: open the picker, type, choose with Enter."""
    row.locator(".select2-selection").click()
    search = page.locator(".select2-container--open .select2-search__field")
    search.fill(term)
    expect(page.locator(".select2-results__option--highlighted")).to_contain_text(label)
    search.press("Enter")


def test_a_500_player_championship_through_the_pages(page, live_server, eager):
    gorbunov_setup_defaults()
    players = _registry(SIZE + 1)
    reserve = players[SIZE]
    organiser(username="org")
    federation_staff(username="olga")
    played = timezone.localdate() - datetime.timedelta(days=7)

    # The organiser creates the championship.
    log_in(page, live_server, "org", "/en/admin/tournaments/tournament/add/?discipline=ccg")
    page.get_by_label("Name:").fill("Чемпионат Твери")
    page.locator("#id_start_date").fill(played.isoformat())
    page.locator("#id_end_date").fill(played.isoformat())
    page.get_by_label("Format:").select_option("constructed")
    page.get_by_label("Coefficient K:").fill("2")
    page.get_by_role("button", name="Save and continue editing").click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    tournament = Tournament.objects.get(name="Чемпионат Твери")

    # ... pastes the 500 results from a spreadsheet (ids in one column, names in the other halves).
    page.get_by_role("link", name="open the results editor").click()
    lines = [
        f"{place}\t{p.pk}" if place % 2 else f"{place}\t{p.last_name} {p.first_name}"
        for place, p in enumerate(players[:SIZE], start=1)
    ]
    page.locator("#id_table").fill("\n".join(lines))
    page.get_by_role("button", name="Check and save the pasted table").click()
    expect(page.locator(".messagelist")).to_contain_text("500 results saved from the pasted table.")
    expect(page.locator("#results-editor")).to_contain_text("500 results entered.")

    # ... corrects place 123 on page 3: the reserve played there, chosen by typing his surname.
    page.locator("#results-pages").get_by_role("link", name="3", exact=True).click()
    row = page.locator("#results-grid tbody tr").filter(has=page.locator('input[value="123"]'))
    _pick_player(page, row, "kartov500", "Картов500 Иван — Тверь, №")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("Saved: 0 added, 1 changed, 0 deleted.")
    assert Result.objects.get(tournament=tournament, place=123).player == reserve

    # ... submits it: from now on it is locked for the organiser.
    page.goto(f"{live_server.url}/en/admin/tournaments/tournament/")
    page.locator(f'input[name="_selected_action"][value="{tournament.pk}"]').check()
    page.locator('select[name="action"]').select_option("submit")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text("Submitted: 1.")
    page.goto(f"{live_server.url}/en/admin/tournaments/tournament/{tournament.pk}/results/")
    expect(page.locator("#results-locked")).to_contain_text("submitted to federation staff")

    # Staff approve it and publish this week's list.
    page.context.clear_cookies()
    log_in(page, live_server, "olga", "/en/admin/tournaments/tournament/")
    page.locator(f'input[name="_selected_action"][value="{tournament.pk}"]').check()
    page.locator('select[name="action"]').select_option("approve")
    page.get_by_role("button", name="Go").click()
    expect(page.locator(".messagelist")).to_contain_text("Approved: 1.")
    page.goto(f"{live_server.url}/en/admin/tournaments/tournament/{tournament.pk}/change/")
    expect(page.locator(".field-counting")).to_contain_text("will be rated in the weekly publication of Monday")
    page.goto(f"{live_server.url}/en/admin/ratings/ratinglist/")
    everything = RatingList.objects.get(slug="gorbunov")
    page.locator(f'input[name="_selected_action"][value="{everything.pk}"]').check()
    page.locator('select[name="action"]').select_option("gorbunov_publish_now")
    page.get_by_role("button", name="Go").click()
    expect(page.locator("#task-outcome")).to_contain_text(re.compile(r"published \d{4}-W\d\d: \d+ players"))
    assert RatingChange.objects.filter(tournament=tournament, rating_list=everything).count() == SIZE
    assert JobRun.objects.get(kind="gorbunov_publish").started_by.username == "olga"
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.APPROVED

    # The public pages show it: the reserve's page lists the championship (in Latin letters on the English page).
    page.goto(f"{live_server.url}/en/players/{reserve.pk}/")
    expect(page.locator("body")).to_contain_text("Chempionat Tveri")


def test_the_k_refusal_is_in_sight(page, live_server):
    organiser(username="org")
    log_in(page, live_server, "org", "/en/admin/tournaments/tournament/add/?discipline=ccg")
    page.get_by_label("Name:").fill("Региональный")
    page.locator("#id_start_date").fill("2026-03-07")
    page.locator("#id_end_date").fill("2026-03-07")
    page.get_by_label("Format:").select_option("sealed")
    page.get_by_label("Coefficient K:").fill("4")
    page.get_by_role("button", name="Save", exact=True).click()
    message = page.get_by_text("Only federation staff may set K above 2")
    expect(message).to_be_visible()
    message.scroll_into_view_if_needed()
    expect(message).to_be_in_viewport()
    assert not Tournament.objects.exists()


def test_the_results_grid_from_the_keyboard(page, live_server):
    user = organiser(username="org")
    players = _registry(3)
    tournament = Tournament.objects.create(
        discipline="ccg",
        name="Клубный",
        start_date=datetime.date(2026, 3, 7),
        end_date=datetime.date(2026, 3, 7),
        card_format="draft",
        k=1,
        organiser=user,
    )
    log_in(page, live_server, "org", f"/en/admin/tournaments/tournament/{tournament.pk}/results/")
    rows = page.locator("#results-grid tbody tr")
    first = rows.nth(0).locator(".results-place")
    first.fill("1")
    first.press("Enter")  # down the column, the next place filled in
    expect(rows.nth(1).locator(".results-place")).to_be_focused()
    expect(rows.nth(1).locator(".results-place")).to_have_value("2")
    rows.nth(1).locator(".results-place").press("Enter")
    expect(rows.nth(2).locator(".results-place")).to_have_value("3")
    _pick_player(page, rows.nth(0), "картов000", "Картов000 Иван — Тверь")
    _pick_player(page, rows.nth(1), "Kartov001", "Картов001 Иван — Тверь, «Берсерк»")
    rows.nth(2).locator(".results-name").fill("Гость Клуба")
    rows.nth(2).locator(".results-name").press("Control+Enter")
    expect(page.locator(".messagelist")).to_contain_text("Saved: 3 added, 0 changed, 0 deleted.")
    assert list(tournament.results.order_by("place").values_list("player_id", "participant_name")) == [
        (players[0].pk, ""),
        (players[1].pk, ""),
        (None, "Гость Клуба"),
    ]
    # A mistake is refused in place, naming the row, and nothing is saved.
    rows = page.locator("#results-grid tbody tr")
    _pick_player(page, rows.nth(2), "Kartov000", "Картов000 Иван")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#results-errors")).to_contain_text("Row 3 names two people")
    assert tournament.results.get(place=3).player is None


def test_a_bad_paste_is_answered_at_the_top_with_the_lines_as_pasted(page, live_server):
    """Issue 27: the paste's errors stood below an empty grid (out of view on a phone) and named each line one too
    far down. After a bad paste the organiser sees the errors at once, beside the table they pasted."""
    user = organiser(username="org")
    tournament = Tournament.objects.create(
        name="Кубок",
        discipline="ccg",
        start_date=datetime.date(2026, 3, 7),
        end_date=datetime.date(2026, 3, 7),
        card_format="constructed",
        k=1,
        organiser=user,
        status=TournamentStatus.DRAFT,
    )
    url = f"/en/admin/tournaments/tournament/{tournament.pk}/results/"
    log_in(page, live_server, "org", url)
    page.locator("textarea.results-paste").fill("1\tНиктов Никто\n2\tНектов Некто\n")
    page.locator("#results-paste-save").click()
    errors = page.locator("#results-paste-errors")
    expect(errors).to_be_in_viewport()
    expect(errors).to_contain_text("Row 1, player")
    expect(errors).to_contain_text("Row 2, player")
    expect(page.locator("textarea.results-paste")).to_have_value("1\tНиктов Никто\n2\tНектов Некто\n")
    assert not Result.objects.filter(tournament=tournament).exists()
