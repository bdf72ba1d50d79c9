"""Fuzzing the calendar's input boundaries: its filter's query string, the registration form, the e-mail links and
the API's parameters. For any input: an answer of the right kind (a page; JSON for the API), never a 500; a
registration only from a valid form, never an e-mail address on a public page."""

import re
from urllib.parse import quote

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import PlayerFactory
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b(?!.*django_session)", re.IGNORECASE | re.DOTALL)
texts = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["-1", "0", "99999999999999999999", "\x00", " ", "%", "go", "ccg", "Тверь", "a@b.c", "x@y"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
)


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if WRITE.match(q["sql"])]


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(["discipline", "city", "page", "q"]) | st.text(max_size=8), texts, max_size=3
    )
)
def test_the_calendar_answers_any_query_string_with_a_page(client, announced, params):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/en/calendar/", params)
    assert response.status_code in (200, 400)
    assert response["Content-Type"].startswith("text/html")
    assert not _writes(queries)


@FUZZ
@given(
    data=st.dictionaries(st.sampled_from(["player", "name", "city", "email"]), texts, max_size=4),
    search=texts,
)
def test_the_registration_form_takes_only_valid_registrations(client, announced, data, search):
    mail.outbox.clear()
    before = Registration.objects.count()
    page = client.get(f"/en/calendar/{announced.pk}/register/", {"q": search})
    assert page.status_code in (200, 400)
    response = client.post(f"/en/calendar/{announced.pk}/register/", data)
    assert response.status_code in (200, 302, 400, 429), response.status_code
    created = Registration.objects.count() - before
    if response.status_code == 302:
        assert created == 1
        assert len(mail.outbox) == 1
        registration = Registration.objects.latest("pk")
        assert registration.email == data["email"].strip().lower()
        assert registration.player_id or registration.name.strip()
        public = client.get(f"/en/calendar/{announced.pk}/").content.decode()
        assert registration.email not in public
        registration.delete()
    else:
        assert created == 0
        assert not mail.outbox


@FUZZ
@given(token=texts)
def test_a_link_of_any_text_is_refused_plainly(client, announced, token):
    PlayerFactory()
    for action in ("confirm", "cancel"):
        path = f"/en/calendar/{action}/{quote(token, safe='')}/"
        response = client.post(path)
        assert response.status_code in (400, 403, 404), (path, response.status_code)


@FUZZ
@given(
    params=st.dictionaries(
        st.sampled_from(["discipline", "city", "when", "page", "per_page", "lang"]), texts, max_size=4
    )
)
def test_the_calendar_api_answers_json(client, announced, params):
    response = client.get("/api/v1/calendar/", params)
    assert response.status_code in (200, 400), response.status_code
    assert response["Content-Type"].startswith("application/json")
