"""The public API /api/v1/ on a demo federation: the same lists as the pages for every system, players, tournaments,
calculators, conditional requests, the anonymous rate limit, CORS and the OpenAPI document."""

import datetime
import time

import pytest
from django.test import override_settings
from django.utils import timezone
from django.utils.http import parse_http_date
from openapi_spec_validator import validate

from federation.models import Player
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
from tournaments.models import Discipline, Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def _ok(client, url, **extra):
    response = client.get(url, **extra)
    assert response.status_code == 200, (url, response.content[:500])
    assert response["Content-Type"].startswith("application/json")
    return response.json()


def _refused(response, status, field):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["errors"][0]["field"] == field, response.json()
    return response.json()["errors"][0]["message"]


def test_the_openapi_documents_validate(client):
    document = _ok(client, f"{V1}/openapi.json")
    validate(document)
    assert {"/api/v1/lists/", "/api/v1/lists/{slug}/", "/api/v1/players/{id}/history/"} <= set(document["paths"])
    validate(_ok(client, "/api/preferans/openapi.json"))


def test_the_docs_page_is_served_from_the_site_itself(client):
    response = client.get(f"{V1}/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert "://" not in html.split("<body", 1)[1].split("</body>", 1)[0].replace('"//', "")


# --- lists: the same as the pages --------------------------------------------------------------------------------


def _page_rows(client, url):
    """(player id, rating) of the first page of a list page's table, in its order."""
    response = client.get(url)
    assert response.status_code == 200, url
    table = response.context["table"]
    return [(row.record.player_id, round(float(row.record.rating), 4)) for row in table.page.object_list]


def _api_rows(client, slug, query=""):
    body = _ok(client, f"{V1}/lists/{slug}/?per_page=50{query}")
    return body, [(e["player"]["id"], round(e["rating"], 4)) for e in body["entries"]]


def test_every_systems_list_equals_its_page(client, demo):
    """For every active list of every system, the API's first page is the page's first page: the same players in the
    same order with the same ratings; for dated lists also as of an older publication."""
    lists = list(RatingList.objects.filter(is_active=True))
    assert {item.engine for item in lists} >= {Engine.GORBUNOV, Engine.MAHJONG_RR, Engine.PREFERANS, Engine.DIRS}
    compared = 0
    for item in lists:
        page = item.get_absolute_url()
        if item.engine == Engine.PREFERANS:
            for league in ("amateur", "pro"):
                body, rows = _api_rows(client, item.slug, f"&league={league}")
                assert rows == _page_rows(client, f"{page}?league={league}")
                compared += len(rows)
            continue
        body, rows = _api_rows(client, item.slug)
        assert rows == _page_rows(client, page), item.slug
        compared += len(rows)
        dates = list(RatingSnapshot.objects.filter(rating_list=item).order_by("as_of").values_list("as_of", flat=True))
        if len(dates) > 2:
            older = dates[len(dates) // 2]
            body, rows = _api_rows(client, item.slug, f"&date={older}")
            assert body["as_of"] == older.isoformat()
            assert rows == _page_rows(client, f"{page}?date={older}"), (item.slug, older)
            if item.engine == Engine.GORBUNOV:
                year, week, _ = older.isocalendar()
                by_week, week_rows = _api_rows(client, item.slug, f"&week={year}-W{week:02d}")
                assert week_rows == rows
                assert by_week["week"] == f"{year}-W{week:02d}"
    assert compared > 50


def test_a_list_carries_rank_parts_and_tournaments_and_pages(client, demo):
    mahjong = RatingList.objects.filter(engine=Engine.MAHJONG_RR, is_active=True).first()
    body = _ok(client, f"{V1}/lists/{mahjong.slug}/?per_page=5&page=2")
    assert body["paging"]["page"] == 2
    assert [e["rank"] for e in body["entries"]] == sorted(e["rank"] for e in body["entries"])
    first = body["entries"][0]
    assert set(first["parts"]) == {"part_a", "part_b"}
    assert first["tournaments"] >= 1
    dates = _ok(client, f"{V1}/lists/{mahjong.slug}/dates/")
    assert dates["dates"][0]["date"] == body["as_of"]


def test_dates_before_the_first_list_and_bad_dates(client, demo):
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).first()
    body = _ok(client, f"{V1}/lists/{gorbunov.slug}/?date=1999-01-01&lang=en")
    # The pages' one rule (issue 16): before the first list, the first list (the nearest), saying so.
    assert body["entries"]
    assert "There was no list yet on 1 Jan 1999: the first one" in body["message"]
    _refused(client.get(f"{V1}/lists/{gorbunov.slug}/?date=2026-02-30"), 400, "date")
    _refused(client.get(f"{V1}/lists/{gorbunov.slug}/?week=2026-W60"), 400, "week")
    _refused(client.get(f"{V1}/lists/{gorbunov.slug}/?per_page=1000"), 400, "per_page")
    _refused(client.get(f"{V1}/lists/{gorbunov.slug}/?per_page=-1"), 400, "per_page")
    _refused(client.get(f"{V1}/lists/nope/"), 404, "slug")


def test_list_index_names_every_system(client, demo):
    body = _ok(client, f"{V1}/lists/?lang=en")
    systems = {item["system"] for item in body["lists"]}
    assert {"gorbunov", "mahjong-rr", "preferans", "dirs"} <= systems
    assert all(item["url"].startswith("/en/") for item in body["lists"])


# --- players ---------------------------------------------------------------------------------------------------------


def test_player_search_folds_like_the_site(client, db):
    from tests.factories import PlayerFactory

    PlayerFactory(last_name="Ёлкин", first_name="Пётр", last_name_latin="Yolkin", first_name_latin="Petr")
    for query in ("елкин", "ЁЛК", "yolkin петр"):
        body = _ok(client, f"{V1}/players/?search={query}")
        assert [p["name"] for p in body["players"]] == ["Ёлкин Пётр"], query
    english = _ok(client, f"{V1}/players/?search=elkin&lang=en")
    assert english["paging"]["count"] in (0, 1)
    _refused(client.get(f"{V1}/players/?search=a%00b"), 400, "search")


def test_a_player_with_ratings_history_and_tournaments(client, demo):
    from ratings.models import RatingChange

    change = RatingChange.objects.filter(rating_list__engine=Engine.GORBUNOV).select_related("player").first()
    player = change.player
    body = _ok(client, f"{V1}/players/{player.pk}/")
    assert any(r["system"] == "gorbunov" for r in body["ratings"])
    ru = _ok(client, f"{V1}/players/{player.pk}/history/?system=gorbunov&lang=ru")
    en = _ok(client, f"{V1}/players/{player.pk}/history/?system=gorbunov&lang=en")
    assert ru["paging"]["count"] == en["paging"]["count"] >= 1
    assert ru["history"][0]["explanation"]
    assert en["history"][0]["explanation"]
    assert ru["history"][0]["explanation"] != en["history"][0]["explanation"]
    all_systems = _ok(client, f"{V1}/players/{player.pk}/history/?per_page=100")
    dates = [item["date"] for item in all_systems["history"]]
    assert dates == sorted(dates, reverse=True)
    tournaments = _ok(client, f"{V1}/players/{player.pk}/tournaments/")
    assert tournaments["paging"]["count"] >= 1
    _refused(client.get(f"{V1}/players/{10**30}/"), 400, "id")  # beyond the ids' bound stated in the schema
    _refused(client.get(f"{V1}/players/abc/"), 400, "id")


def test_every_system_shows_in_some_players_history(client, demo):
    from ratings.dirs.models import DirsGame
    from ratings.preferans.models import DealResult

    preferans = DealResult.objects.filter(player__is_bot=False).first().player_id
    body = _ok(client, f"{V1}/players/{preferans}/history/?system=preferans&lang=en")
    assert "Rd" in body["history"][0]["explanation"]
    dirs = DirsGame.objects.filter(rated=True).first().white_id
    assert _ok(client, f"{V1}/players/{dirs}/history/?system=dirs")["history"]
    mahjong = RatingSnapshot.objects.filter(rating_list__engine=Engine.MAHJONG_RR).first().entries.first().player_id
    items = _ok(client, f"{V1}/players/{mahjong}/history/?system=mahjong&lang=en")["history"]
    assert items
    assert items[0]["explanation"]


def test_bots_have_no_public_record(client, demo):
    bot = Player.objects.filter(is_bot=True).first()
    _refused(client.get(f"{V1}/players/{bot.pk}/"), 404, "id")


# --- tournaments -----------------------------------------------------------------------------------------------------


def test_tournaments_by_discipline_date_and_status(client, demo):
    body = _ok(client, f"{V1}/tournaments/?discipline=mahjong&per_page=100")
    assert body["tournaments"]
    assert {t["discipline"] for t in body["tournaments"]} == {"mahjong"}
    public = set(Tournament.objects.filter(status=TournamentStatus.APPROVED).values_list("pk", flat=True))
    assert {t["id"] for t in body["tournaments"]} <= public
    day = datetime.date.fromisoformat(body["tournaments"][-1]["end_date"])
    since = _ok(client, f"{V1}/tournaments/?date_from={day}&per_page=100")
    assert all(t["end_date"] >= day.isoformat() for t in since["tournaments"])
    finished = _ok(client, f"{V1}/tournaments/?status=finished&per_page=5")
    assert all(t["end_date"] < timezone.localdate().isoformat() for t in finished["tournaments"])
    _refused(client.get(f"{V1}/tournaments/?discipline=chess"), 400, "discipline")


def test_a_tournament_with_results_and_why_it_counts(client, demo):
    card = Tournament.objects.filter(discipline=Discipline.CARD_GAMES, status=TournamentStatus.APPROVED).first()
    body = _ok(client, f"{V1}/tournaments/{card.pk}/?lang=en")
    assert [r["place"] for r in body["results"]] == sorted(r["place"] for r in body["results"])
    assert body["lists"]
    for status in body["lists"]:
        assert status["counts"] or status["reasons"]
    draft = Tournament.objects.filter(status=TournamentStatus.DRAFT).first()
    if draft is not None:
        _refused(client.get(f"{V1}/tournaments/{draft.pk}/"), 404, "id")


def test_a_go_tournament_has_rounds_pairings_and_standings(client, demo):
    from tournaments.go.models import GoTournament

    go = GoTournament.objects.filter(rounds__completed=True, tournament__status=TournamentStatus.APPROVED).first()
    body = _ok(client, f"{V1}/tournaments/{go.tournament_id}/")
    assert body["go_rounds"]
    assert body["go_rounds"][0]["pairings"]
    assert body["go_standings"]
    assert [row["place"] for row in body["go_standings"]] == sorted(row["place"] for row in body["go_standings"])


# --- calculators -----------------------------------------------------------------------------------------------------


def test_calculators_answer_and_name_a_bad_parameter(client, db):
    grid = _ok(client, f"{V1}/calculators/preferans/?ratings=1000&tables=1800&whists=-5")
    assert grid["cells"][0][0] == pytest.approx(1.8597, abs=5e-4)
    _refused(client.get(f"{V1}/calculators/preferans/?ratings=nan&tables=1800&whists=1"), 400, "ratings")
    _refused(client.get(f"{V1}/calculators/preferans/?ratings=1000&tables=1800&whists=1e10"), 400, "whists")
    _refused(client.get(f"{V1}/calculators/preferans/?ratings=1000&tables=1800"), 400, "whists")
    _ok(client, f"{V1}/calculators/gorbunov/?u=8&rt=1500&k=2&rating=1500")
    _refused(client.get(f"{V1}/calculators/gorbunov/?u=8&rt=inf&k=2"), 400, "rt")
    _refused(client.get(f"{V1}/calculators/gorbunov/?u=1&rt=1500&k=2"), 400, "u")
    _ok(client, f"{V1}/calculators/mahjong/?players=40&hanchans=8")
    _refused(client.get(f"{V1}/calculators/mahjong/?players=40&hanchans=8&stages=5/30"), 400, "stages[0]")
    _ok(client, f"{V1}/calculators/go-handicap/?a=2000&b=1500")
    dirs = _ok(client, f"{V1}/calculators/go-handicap/?a=2000&b=1500&scale=dirs&lang=en")
    assert (dirs["rank_a"], dirs["stones"], dirs["note"]) == (
        "9d",
        0,
        "The DIRS scale ends at 300 (9 dan): a rating above it is read as 300.",
    )


# --- HTTP: conditional requests, the rate limit, CORS, methods -------------------------------------------------------


def test_conditional_requests_get_304(client, demo):
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).first()
    url = f"{V1}/lists/{gorbunov.slug}/"
    first = client.get(url)
    etag, modified = first["ETag"], first["Last-Modified"]
    assert parse_http_date(modified) <= time.time()  # when what the answer shows last changed (its versions)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again["ETag"] == etag
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304
    assert client.get(url + "?page=2", HTTP_IF_NONE_MATCH=etag).status_code == 200
    # Every other answer has an ETag of its body.
    players = client.get(f"{V1}/players/")
    assert players["ETag"]
    assert client.get(f"{V1}/players/", HTTP_IF_NONE_MATCH=players["ETag"]).status_code == 304


def test_a_list_or_history_asked_again_reads_no_table(client, demo, django_assert_num_queries):
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).first()
    player = RatingEntry.objects.filter(snapshot__rating_list=gorbunov).values_list("player_id", flat=True).first()
    for url in (f"{V1}/lists/{gorbunov.slug}/?per_page=20", f"{V1}/players/{player}/history/"):
        first = client.get(url)
        assert first.status_code == 200
        with django_assert_num_queries(0):
            again = client.get(url)
        assert again.content == first.content
    assert client.get(f"{V1}/lists/no-such-list/").status_code == 404
    assert client.get(f"{V1}/players/999999999/history/").status_code == 404


def test_anonymous_clients_are_rate_limited_with_retry_after(client, db):
    with override_settings(API_ANON_RATE="3/60"):
        for _ in range(3):
            assert client.get(f"{V1}/lists/").status_code == 200
        response = client.get(f"{V1}/lists/")
        assert response.status_code == 429
        assert response["Content-Type"].startswith("application/json")
        assert 1 <= int(response["Retry-After"]) <= 60
        other = client.get(f"{V1}/lists/", REMOTE_ADDR="10.0.0.2")
        assert other.status_code == 200
        # A client cannot pass for another by sending X-Forwarded-For itself.
        assert client.get(f"{V1}/lists/", HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429
    with override_settings(API_ANON_RATE="3/60", NINJA_NUM_PROXIES=1):
        # Behind our proxy, the address it appended is the client's.
        for _ in range(3):
            assert client.get(f"{V1}/lists/", HTTP_X_FORWARDED_FOR="1.1.1.1, 10.0.0.7").status_code == 200
        assert client.get(f"{V1}/lists/", HTTP_X_FORWARDED_FOR="1.1.1.1, 10.0.0.7").status_code == 429
        assert client.get(f"{V1}/lists/", HTTP_X_FORWARDED_FOR="10.0.0.8").status_code == 200


def test_cors_lets_other_sites_read_but_not_write(client, db):
    response = client.get(f"{V1}/lists/", HTTP_ORIGIN="https://club.example")
    assert response["Access-Control-Allow-Origin"] == "*"
    assert "ETag" in response["Access-Control-Expose-Headers"]
    preflight = client.options(
        f"{V1}/lists/", HTTP_ORIGIN="https://club.example", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert preflight.status_code == 200
    assert "POST" not in preflight["Access-Control-Allow-Methods"]
    game_server = client.post("/api/preferans/deals/", "{}", content_type="application/json", HTTP_ORIGIN="https://x")
    assert "Access-Control-Allow-Origin" not in game_server


def test_head_is_answered_like_get_without_the_body(client, db):
    response = client.head(f"{V1}/lists/")
    assert response.status_code == 200
    assert response["ETag"] == client.get(f"{V1}/lists/")["ETag"]
    assert response.content == b""


def test_writes_and_unknown_addresses_are_json(client, db):
    _refused(client.post(f"{V1}/lists/"), 405, "method")
    assert client.get(f"{V1}/nothing/").status_code == 404
    assert client.get(f"{V1}/nothing/")["Content-Type"] == "application/json"


# --- bounded queries whatever the page size ----------------------------------------------------------------------


def test_answers_read_a_bounded_number_of_queries(client, demo, django_assert_max_num_queries):
    """A page of 100 rows costs the same queries as a page of 5: no query per row."""
    for item in RatingList.objects.filter(is_active=True):
        with django_assert_max_num_queries(8):
            _ok(client, f"{V1}/lists/{item.slug}/?per_page=100")
    player = Player.objects.filter(is_bot=False, preferans_games__isnull=False).first()
    with django_assert_max_num_queries(12):
        _ok(client, f"{V1}/players/{player.pk}/history/?per_page=100")
    with django_assert_max_num_queries(20):
        _ok(client, f"{V1}/players/{player.pk}/")
    with django_assert_max_num_queries(5):
        _ok(client, f"{V1}/players/?per_page=100")
    with django_assert_max_num_queries(5):
        _ok(client, f"{V1}/tournaments/?per_page=100")
    for tournament in Tournament.objects.filter(status=TournamentStatus.APPROVED).order_by("discipline", "pk")[::7]:
        with django_assert_max_num_queries(20):
            _ok(client, f"{V1}/tournaments/{tournament.pk}/")


def test_a_new_publication_is_shown_at_once(client, demo, django_capture_on_commit_callbacks):
    """Which publication a list shows is kept in the cache; publishing one forgets it when the publication commits."""
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).first()
    url = f"{V1}/lists/{gorbunov.slug}/"
    before = _ok(client, url)
    assert _ok(client, url) == before
    newest = datetime.date.fromisoformat(before["as_of"])
    with django_capture_on_commit_callbacks(execute=True):
        RatingSnapshot.objects.create(rating_list=gorbunov, as_of=newest + datetime.timedelta(days=7))
    after = _ok(client, url)
    assert after["as_of"] == (newest + datetime.timedelta(days=7)).isoformat()
    assert after["entries"] == []


def test_a_renamed_player_is_shown_at_the_next_request(client, demo, django_capture_on_commit_callbacks):
    """Lists and histories are answered from the cache under the version of what they show, read at every request:
    a player's new name (an edit in the admin) is in the very next answer, with a new ETag."""
    gorbunov = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).first()
    url = f"{V1}/lists/{gorbunov.slug}/?per_page=5"
    first = client.get(url)
    assert _ok(client, url) == first.json()
    player = Player.objects.get(pk=first.json()["entries"][0]["player"]["id"])
    history = f"{V1}/players/{player.pk}/history/"
    assert _ok(client, history)["player"]["name"] == player.full_name
    player.last_name = "Переименованный"
    with django_capture_on_commit_callbacks(execute=True):  # the admin's save, committed
        player.save()
    after = client.get(url)
    assert after.json()["entries"][0]["player"]["name"] == f"Переименованный {player.first_name}".strip()
    assert after["ETag"] != first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200
    assert _ok(client, history)["player"]["name"] == f"Переименованный {player.first_name}".strip()
