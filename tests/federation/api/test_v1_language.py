"""The public API answers in the language asked: ``?lang=`` first, else ``Accept-Language``, else Russian as the
site; error messages too, while the fields they name stay as they are. The game servers' API keeps English."""

import pytest

from federation.api.v1.schemas import HistoryOut
from ratings.models import RatingChange, RatingList
from tests.ratings.history import test_gorbunov
from tests.ratings.history.conftest import import_doc  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db

V1 = "/api/v1"


def _error(response, status):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    [error] = response.json()["errors"]
    return error["field"], error["message"]


@pytest.fixture
def slug():
    return RatingList.objects.filter(is_active=True, engine="gorbunov").values_list("slug", flat=True).first()


def test_errors_are_russian_by_default_and_follow_accept_language_and_lang(client, slug):
    url = f"{V1}/lists/{slug}/?per_page=1000"
    assert _error(client.get(url), 400) == ("per_page", "должно быть не больше 100")
    assert _error(client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8"), 400) == ("per_page", "must be at most 100")
    assert _error(client.get(url + "&lang=ru", HTTP_ACCEPT_LANGUAGE="en"), 400) == (
        "per_page",
        "должно быть не больше 100",
    )
    assert _error(client.get(url + "&lang=en"), 400) == ("per_page", "must be at most 100")
    assert _error(client.get(f"{V1}/lists/{slug}/?date=2026-02-30"), 400) == ("date", "не дата (ГГГГ-ММ-ДД)")
    assert _error(client.get(f"{V1}/lists/{slug}/?date=2026-02-30&lang=en"), 400) == (
        "date",
        "is not a date (YYYY-MM-DD)",
    )
    assert _error(client.get(f"{V1}/lists/nope/"), 404) == ("slug", "рейтинг-листа «nope» нет")
    assert _error(client.get(f"{V1}/lists/nope/", HTTP_ACCEPT_LANGUAGE="en"), 404) == (
        "slug",
        "there is no rating list “nope”",
    )
    assert _error(client.get(f"{V1}/players/abc/"), 400) == ("id", "не целое число")
    assert _error(client.get(f"{V1}/players/5/?lang=de"), 400)[0] == "lang"
    assert _error(client.get(f"{V1}/nothing/"), 404) == ("", "по этому адресу API ничего нет")
    assert _error(client.post(f"{V1}/lists/", HTTP_ACCEPT_LANGUAGE="en"), 405) == (
        "method",
        "POST is not allowed here; allowed: GET",
    )


def test_explanations_and_messages_follow_the_language_asked(client, import_doc, slug):  # noqa: F811
    import_doc(test_gorbunov.generated_history())
    player = RatingChange.objects.filter(rating_list__slug=slug).order_by("pk").values_list("player_id", flat=True)[0]
    url = f"{V1}/players/{player}/history/?system=gorbunov"
    russian = client.get(url).json()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
    assert (russian["language"], english["language"]) == ("ru", "en")
    HistoryOut.model_validate(english)  # the answer, written without the schema, has the documented shape
    change = RatingChange.objects.filter(player_id=player).order_by("-event_date", "-pk").first()
    assert russian["history"][0]["explanation"] == change.explanation("ru")
    assert english["history"][0]["explanation"] == change.explanation("en")
    assert change.explanation("ru") != change.explanation("en") != ""
    assert client.get(url + "&lang=ru", HTTP_ACCEPT_LANGUAGE="en").json() == russian
    # The list's message (no list yet on that date: the first one is shown) is the page's, in the same language.
    dated = f"{V1}/lists/{slug}/?date=2018-01-01"
    assert client.get(dated).json()["message"] == "На 01.01.2018 списка ещё не было: показан первый, от 14.01.2019."
    english_message = client.get(dated, HTTP_ACCEPT_LANGUAGE="en").json()["message"]
    assert english_message == "There was no list yet on 1 Jan 2018: the first one, of 14 Jan 2019, is shown."


def test_the_game_servers_api_keeps_english(client):
    response = client.get("/api/preferans/deals/", HTTP_ACCEPT_LANGUAGE="ru")
    assert _error(response, 405) == ("method", "GET is not allowed here; allowed: POST")
