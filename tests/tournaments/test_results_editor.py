"""A tournament of any size in the admin: the change page without results, the paged results editor, the player
picker, the paste, the lock after submission, the K and judge rules, where and when the tournament counts."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from federation.models import Club, Player
from tests.factories import PlayerFactory, ResultFactory, TournamentFactory, federation_staff, organiser
from tournaments.models import Result, TournamentStatus

pytestmark = pytest.mark.django_db


def _tournament_with(n, **kwargs):
    """A card tournament with ``n`` results, written in bulk (players with a club and a city)."""
    club, _created = Club.objects.get_or_create(name="Берсерк-клуб", city="Тверь")
    players = [
        Player(
            last_name=f"Игроков{i:04d}", first_name="Иван", city="Тверь", club=club, last_name_latin=f"Igrokov{i:04d}"
        )
        for i in range(n)
    ]
    for player in players:
        player.fill_search_name()
    players = Player.objects.bulk_create(players)
    kwargs.setdefault("status", TournamentStatus.DRAFT)
    tournament = TournamentFactory(**kwargs)
    Result.objects.bulk_create([Result(tournament=tournament, player=p, place=i + 1) for i, p in enumerate(players)])
    return tournament


def _editor(tournament):
    return f"/admin/tournaments/tournament/{tournament.pk}/results/"


def _change(tournament):
    return f"/admin/tournaments/tournament/{tournament.pk}/change/"


def _queries(client, url):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content.decode()[:2000]
    return len(queries), response.content.decode()


def test_change_page_and_editor_cost_the_same_queries_with_10_and_500_results(client, django_assert_num_queries):
    staff = federation_staff()
    small, big = _tournament_with(10, k=4), _tournament_with(500, k=4)
    client.force_login(staff)
    client.get(_change(small))  # warm the session and the content types
    change_small, text = _queries(client, _change(small))
    assert "10 результатов" in text
    with django_assert_num_queries(change_small):
        response = client.get(_change(big))
    text = response.content.decode()
    assert "500 результатов" in text
    assert text.count("<input") < 200  # no inline of results: far from Django's 1,000 fields
    client.get(_editor(small))
    editor_small, _unused = _queries(client, _editor(small))
    with django_assert_num_queries(editor_small):
        response = client.get(_editor(big) + "?page=10")
    text = response.content.decode()
    assert "Игроков0499 Иван — Тверь, «Берсерк-клуб», №" in text
    assert len(re.findall(r'name="form-\d+-place"', text)) == 50 + 10  # the last page ends with empty rows


def test_staff_change_k_of_a_500_player_championship(client):
    tournament = _tournament_with(500, k=4)
    client.force_login(federation_staff())
    data = {
        "discipline": "ccg",
        "name": tournament.name,
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "city": "Тверь",
        "country": "RU",
        "card_format": "constructed",
        "k": "8",
    }
    response = client.post(_change(tournament), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert tournament.k == 8
    assert tournament.results.count() == 500


def test_correcting_one_result_on_page_3_of_500_writes_that_row_only(client):
    user = organiser()
    tournament = _tournament_with(500, organiser=user)
    client.force_login(user)
    page = client.get(_editor(tournament) + "?page=3").content.decode()
    rows = Result.objects.filter(tournament=tournament).order_by("place")[100:150]
    data = {"form-TOTAL_FORMS": "50", "form-INITIAL_FORMS": "50"}
    for i, row in enumerate(rows):
        data.update({f"form-{i}-id": row.pk, f"form-{i}-place": row.place, f"form-{i}-player": row.player_id})
        data[f"form-{i}-participant_name"] = ""
    assert f'value="{rows[0].pk}"' in page
    swapped = rows[1].player_id
    newcomer = PlayerFactory(last_name="Новичков")
    data["form-1-player"] = newcomer.pk
    response = client.post(_editor(tournament) + "?page=3", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert response["Location"].endswith("?page=3")
    assert Result.objects.get(pk=rows[1].pk).player == newcomer
    assert not Result.objects.filter(tournament=tournament, player_id=swapped).exists()
    assert Result.history.filter(history_type="~").count() == 1
    assert tournament.results.count() == 500


def test_a_player_already_on_another_page_is_refused_with_the_row(client):
    user = organiser()
    tournament = _tournament_with(60, organiser=user)
    first = Result.objects.get(tournament=tournament, place=1)
    client.force_login(user)
    data = {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "0",
        "form-0-id": "",
        "form-0-place": "61",
        "form-0-player": first.player_id,
        "form-0-participant_name": "",
    }
    with translation.override("en"):
        response = client.post("/en" + _editor(tournament) + "?page=2", data)
    text = response.content.decode()
    assert response.status_code == 200
    assert "Row 61:" in text
    assert "is already at place 1 on another page" in text
    assert tournament.results.count() == 60


def test_unknown_player_and_two_people_in_a_row_are_named(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    player = PlayerFactory()
    client.force_login(user)
    data = {
        "form-TOTAL_FORMS": "3",
        "form-INITIAL_FORMS": "0",
        "form-0-place": "1",
        "form-0-player": "999999",
        "form-1-place": "2",
        "form-1-player": player.pk,
        "form-1-participant_name": "Гость",
        "form-2-place": "",
        "form-2-player": "",
        "form-2-participant_name": "Ещё гость",
    }
    text = client.post("/en" + _editor(tournament), data).content.decode()
    assert "Row 1: there is no player №999999." in text
    assert "Row 2 names two people" in text
    assert "the place is empty" in text
    assert not Result.objects.exists()


def test_paste_from_a_spreadsheet_replaces_the_results_after_the_checks(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    a = PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin", first_name_latin="Petr")
    b = PlayerFactory(last_name="Смирнова", first_name="Анна")
    client.force_login(user)
    table = f"1\t{b.pk}\n2\tЕлкин Петр\n3\t\tГость Турнира\n"
    response = client.post(_editor(tournament), {"action": "paste", "table": table})
    assert response.status_code == 302, response.content.decode()[:3000]
    assert list(tournament.results.order_by("place").values_list("player_id", "participant_name")) == [
        (b.pk, ""),
        (a.pk, ""),
        (None, "Гость Турнира"),
    ]
    # With results in, a paste must say it replaces them; a bad row is named and nothing changes.
    response = client.post(_editor(tournament), {"action": "paste", "table": "1\tНиктов Никто\n"})
    assert "заменить" in response.content.decode().lower()
    response = client.post(
        "/en" + _editor(tournament), {"action": "paste", "table": "1\tНиктов Никто\n", "replace": "on"}
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "Row 1, player" in text  # the paste's own line, not the CSV's (issue 27: the added header was counted)
    assert tournament.results.count() == 3


def test_paste_errors_name_the_lines_as_pasted_and_stand_above_the_grid(client):
    """Issue 27: the rows were numbered one too high (the header the editor adds was counted) and the errors stood
    below an empty grid, out of view. Now each error names the line of the paste, empty lines counted as the
    organiser sees them, and the errors with the paste's form come first on the page."""
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    a = PlayerFactory()
    client.force_login(user)
    table = f"1\t{a.pk}\n\n2\tНиктов Никто\n0\t\tГость\n"
    response = client.post("/en" + _editor(tournament), {"action": "paste", "table": table})
    text = response.content.decode()
    assert response.status_code == 200
    assert "Row 3, player" in text
    assert "Row 4, place" in text
    assert "Row 2," not in text
    assert "Row 5," not in text
    errors, grid = text.index('id="results-paste-errors"'), text.index('id="results-grid"')
    assert errors < text.index('id="results-paste-form"') < grid
    assert text.count('id="results-paste-form"') == 1
    assert not Result.objects.exists()


def test_a_pasted_table_with_its_own_header_is_numbered_as_pasted(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT)
    client.force_login(user)
    table = "место\tигрок\n1\tНиктов Никто\n"
    text = client.post("/en" + _editor(tournament), {"action": "paste", "table": table}).content.decode()
    assert "Row 2, player" in text


def test_submitted_is_locked_for_its_organiser_until_staff_return_it(client):
    user = organiser()
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, k=2)
    for place in range(1, 5):
        ResultFactory(tournament=tournament, place=place)
    client.force_login(user)
    client.post("/admin/tournaments/tournament/", {"action": "submit", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED
    first = tournament.results.get(place=1)
    data = {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "1",
        "form-0-id": first.pk,
        "form-0-place": "1",
        "form-0-player": "",
        "form-0-participant_name": "Подмена",
    }
    response = client.post("/en" + _editor(tournament), data, follow=True)
    assert "submitted to federation staff" in response.content.decode()
    assert tournament.results.get(place=1).player_id == first.player_id
    text = client.get("/en" + _change(tournament)).content.decode()
    assert 'name="name"' not in text  # read-only
    response = client.post("/en" + _change(tournament), {"name": "Другое"})
    tournament.refresh_from_db()
    assert tournament.name != "Другое"
    assert "Import results" not in client.get("/en" + _change(tournament)).content.decode()
    staff = federation_staff()
    client.force_login(staff)
    client.post("/admin/tournaments/tournament/", {"action": "return_to_draft", "_selected_action": [tournament.pk]})
    client.force_login(user)
    assert client.post(_editor(tournament), data).status_code == 302
    assert tournament.results.get(place=1).participant_name == "Подмена"


def test_player_picker_tells_namesakes_apart_and_folds_spellings(client):
    club = Club.objects.create(name="Дракон", city="Казань")
    one = PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin", city="Казань", club=club)
    two = PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin", city="Омск")
    client.force_login(organiser())
    url = "/admin/tournaments/tournament/players/"
    for term in ("Елкин", "ёлкин", "елкин петр", "Yolkin", "elkin", "ЕЛКИН"):
        results = client.get(url, {"term": term}).json()["results"]
        assert {r["id"] for r in results} == {str(one.pk), str(two.pk)}, term
    labels = {r["id"]: r["text"] for r in client.get(url, {"term": "Елкин"}).json()["results"]}
    assert labels[str(one.pk)] == f"Ёлкин Пётр — Казань, «Дракон», №{one.pk}"
    assert labels[str(two.pk)] == f"Ёлкин Пётр — Омск, №{two.pk}"
    assert client.get(url, {"term": ""}).json()["results"] == []


def test_player_admin_search_finds_lowercase_cyrillic_and_yo(client):
    PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin")
    client.force_login(federation_staff())
    for term in ("елкин", "Петр", "yolkin"):
        assert "Ёлкин" in client.get("/admin/federation/player/", {"q": term}).content.decode(), term


def test_a_likely_duplicate_is_shown_before_a_new_player_is_created(client):
    existing = PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Elkin", city="Казань")
    client.force_login(federation_staff())
    data = {"last_name": "Елкин", "first_name": "Петр", "country": "RU", "city": "Казань"}
    response = client.post("/en/admin/federation/player/add/", data)
    text = response.content.decode()
    assert response.status_code == 200
    assert "Possible duplicates" in text
    assert f"№{existing.pk}" in text
    assert Player.objects.count() == 1
    response = client.post("/en/admin/federation/player/add/", {**data, "not_a_duplicate": "on"})
    assert response.status_code == 302
    assert Player.objects.count() == 2


def test_k_refusal_is_in_an_open_section(client):
    client.force_login(organiser())
    data = {
        "discipline": "ccg",
        "name": "Чемпионат",
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "country": "RU",
        "card_format": "constructed",
        "k": "4",
    }
    text = client.post("/en/admin/tournaments/tournament/add/", data).content.decode()
    assert "Only federation staff may set K above 2" in text
    fieldset = re.search(r'<fieldset class="([^"]*)"[^>]*>(?:(?!</fieldset>).)*name="k"', text, re.S)
    assert fieldset is not None
    assert "collapse" not in fieldset.group(1)


def test_card_tournament_without_a_format_is_refused(client):
    user = organiser()
    client.force_login(user)
    data = {
        "discipline": "ccg",
        "name": "Без формата",
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "country": "RU",
        "card_format": "",
        "k": "1",
    }
    text = client.post("/en/admin/tournaments/tournament/add/", data).content.decode()
    assert "Choose the format" in text
    tournament = TournamentFactory(organiser=user, status=TournamentStatus.DRAFT, card_format="")
    for place in range(1, 5):
        ResultFactory(tournament=tournament, place=place)
    response = client.post(
        "/en/admin/tournaments/tournament/", {"action": "submit", "_selected_action": [tournament.pk]}, follow=True
    )
    assert "The format is not set" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.DRAFT


def test_no_judge_among_the_players_at_k_4(client):
    staff = federation_staff()
    tournament = TournamentFactory(status=TournamentStatus.SUBMITTED, k=4, organiser=organiser())
    results = [ResultFactory(tournament=tournament, place=place) for place in range(1, 5)]
    judge = results[2].player
    tournament.judges.add(judge)
    client.force_login(staff)
    response = client.post(
        "/en/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]}, follow=True
    )
    assert f"{judge.full_name} is a judge and is in the results (place 3): at K 4 judges may not play." in (
        response.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.SUBMITTED
    # K 2: a judge may play.
    tournament.k = 2
    tournament.save()
    client.post("/en/admin/tournaments/tournament/", {"action": "approve", "_selected_action": [tournament.pk]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.APPROVED


def test_the_form_refuses_a_playing_judge_at_k_8(client):
    tournament = _tournament_with(5, k=2)
    player = tournament.results.get(place=2).player
    client.force_login(federation_staff())
    data = {
        "discipline": "ccg",
        "name": tournament.name,
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "country": "RU",
        "card_format": "constructed",
        "k": "8",
        "judges": [player.pk],
    }
    text = client.post("/en" + _change(tournament), data).content.decode()
    assert "is a judge and is in the results (place 2): at K 8" in text
    tournament.refresh_from_db()
    assert tournament.k == 2


def test_draft_has_no_link_to_a_404_and_says_when_and_where_it_counts(client):
    user = organiser()
    tournament = TournamentFactory(
        organiser=user, status=TournamentStatus.DRAFT, start_date=datetime.date(2026, 11, 28), card_format="sealed"
    )
    client.force_login(user)
    text = client.get("/en" + _change(tournament)).content.decode()
    assert "viewsitelink" not in text
    assert "Not on the public site until federation staff approve it." in text
    assert "once approved, rated in the weekly publication of Monday" in text
    tournament.status = TournamentStatus.APPROVED
    tournament.save()
    client.force_login(federation_staff())
    text = client.get("/en" + _change(tournament)).content.decode()
    assert "viewsitelink" in text
    assert client.get(tournament.get_absolute_url()).status_code == 200


def test_two_players_swapped_between_rows_are_saved(client):
    user = organiser()
    tournament = _tournament_with(4, organiser=user)
    rows = list(tournament.results.order_by("place"))
    client.force_login(user)
    data = {"form-TOTAL_FORMS": "4", "form-INITIAL_FORMS": "4"}
    for i, row in enumerate(rows):
        data.update({f"form-{i}-id": row.pk, f"form-{i}-place": row.place, f"form-{i}-player": row.player_id})
        data[f"form-{i}-participant_name"] = ""
    data["form-0-player"], data["form-1-player"] = rows[1].player_id, rows[0].player_id
    response = client.post(_editor(tournament), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert list(tournament.results.order_by("place").values_list("player_id", flat=True)[:2]) == [
        rows[1].player_id,
        rows[0].player_id,
    ]
    assert not tournament.results.filter(participant_name="…").exists()


def test_judges_are_picked_with_city_club_and_id_in_constant_queries(client, django_assert_num_queries):
    tournament = _tournament_with(6, k=2)
    players = [r.player for r in tournament.results.order_by("place")]
    client.force_login(federation_staff())
    tournament.judges.add(players[0])
    client.get(_change(tournament))
    one, text = _queries(client, _change(tournament))
    assert f"Игроков0000 Иван — Тверь, «Берсерк-клуб», №{players[0].pk}" in text
    tournament.judges.add(*players[1:5])
    with django_assert_num_queries(one):
        client.get(_change(tournament))


def test_a_judge_entered_as_a_player_at_k_4_is_warned_at_once(client):
    tournament = _tournament_with(4, k=4)
    judge = PlayerFactory(last_name="Судейкин")
    tournament.judges.add(judge)
    client.force_login(federation_staff())
    data = {
        "form-TOTAL_FORMS": "1",
        "form-INITIAL_FORMS": "0",
        "form-0-place": "5",
        "form-0-player": judge.pk,
        "form-0-participant_name": "",
    }
    response = client.post("/en" + _editor(tournament) + "?page=1", data, follow=True)
    assert "Судейкин Иван is a judge and is in the results (place 5): at K 4 judges may not play." in (
        response.content.decode()
    )
