"""Fuzzing every input boundary this side of the API (issue 13): the list pages' query strings, the calculators, the
results and deals files. The property, for any input hypothesis makes: an answer of the right kind (a page, or JSON
for a calculator; a report or a refusal naming the problem for a file), never a 500, and nothing written.

``FUZZ_EXAMPLES`` below is the number of examples of each test per run (the report counts them); CI runs them on
PostgreSQL, where a NUL or an out-of-range number reaching the database would raise.
"""

import re
from urllib.parse import quote

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.uploads import ImportFileError
from ratings.models import RatingList
from ratings.preferans.importing import deals_parse
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.importing import results_parse

pytestmark = pytest.mark.django_db

#: Examples per test per run: 7 tests below, so 7 x FUZZ_EXAMPLES examples in all.
FUZZ_EXAMPLES = 60
FUZZ = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    database=None,
)
WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE)\b(?!.*django_session)", re.IGNORECASE | re.DOTALL)

#: Text as a person, a careless user or an attacker types it: any character, NUL and the astral planes included.
texts = st.one_of(
    st.text(max_size=30),
    st.sampled_from(["-1", "0", "1e309", "nan", "inf", "-inf", "99999999999999999999", "\x00", "1,5", " ", "%"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if WRITE.match(q["sql"])]


@pytest.fixture
def world(db):
    club = ClubFactory(name="«Дракон»", city="Казань", meeting_place="по средам")
    player = PlayerFactory(city="Москва", club=club)
    TournamentFactory()
    gorbunov = RatingList.objects.filter(engine="gorbunov").first().get_absolute_url()
    return {"gorbunov": gorbunov, "player": player, "club": club}


LIST_KEYS = ["per_page", "page", "sort", "q", "city", "club", "country", "year", "discipline", "week", "date", "list"]


@FUZZ
@given(
    page=st.sampled_from(
        ["/players/", "/en/tournaments/", "/go/dirs/", "/preferans/", "gorbunov", "/ratings/mahjong/", "/en/clubs/"]
    ),
    params=st.dictionaries(st.sampled_from(LIST_KEYS) | st.text(max_size=8), texts, max_size=4),
)
def test_list_pages_answer_any_query_string_with_a_page(client, world, page, params):
    url = world["gorbunov"] if page == "gorbunov" else page
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code in (200, 400), (url, params, response.status_code)
    assert response["Content-Type"].startswith("text/html")
    assert not _writes(queries)


CALCULATORS = {
    "/en/ratings/cards/calculator/api/": ["u", "rt", "k", "rating", "format", "list", "tournament"],
    "/en/ratings/mahjong/calculator.json": ["players", "stages", "place", "hanchans", "list"],
    "/en/preferans/calculator/data/": ["ratings", "tables", "whists"],
    "/en/go/dirs/handicap.json": ["a", "b"],
    "/en/go/calculator.json": ["scale", "a", "b", "half_stone"],
}


@FUZZ
@given(
    url=st.sampled_from(sorted(CALCULATORS)),
    data=st.data(),
)
def test_calculators_answer_any_numbers_with_json(client, world, url, data):
    params = data.draw(st.dictionaries(st.sampled_from(CALCULATORS[url]), texts, max_size=len(CALCULATORS[url])))
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code in (200, 400), (url, params, response.status_code)
    # A NUL anywhere is refused before the view (InputBoundsMiddleware) with the site's 400 page.
    if not any("\x00" in key + value for key, value in params.items()):
        assert response["Content-Type"] == "application/json", (url, params)
    assert not _writes(queries)


@FUZZ
@given(values=st.lists(st.one_of(texts, st.just(""), st.integers(-3, 300).map(str)), min_size=5, max_size=5))
def test_gorbunov_calculator_with_every_field_fuzzed_at_once(client, world, values):
    params = dict(zip(["u", "rt", "k", "rating", "format"], values, strict=True))
    response = client.get("/en/ratings/cards/calculator/api/", params)
    assert response.status_code in (200, 400), params
    if response.status_code == 400 and not any("\x00" in value for value in values):
        assert response.json()["field"] in params


CLUB_KEYS = ["city", "country", "page", "per_page", "sort", "_export", "lang"]


@FUZZ
@given(
    language=st.sampled_from(["", "/en"]),
    club=st.one_of(st.just("own"), st.integers(min_value=-5, max_value=10**30).map(str), texts),
    listed=st.booleans(),
    params=st.dictionaries(st.sampled_from(CLUB_KEYS) | st.text(max_size=8), texts, max_size=4),
)
def test_club_pages_answer_any_address_and_query_string(client, world, language, club, listed, params):
    """The clubs' list (issue 28) with any filter, sort or page, and a club's page at any address: a page or a 404,
    never a 500, nothing written."""
    if club == "own":
        club = str(world["club"].pk)
    url = f"{language}/clubs/" if listed else f"{language}/clubs/{quote(club, safe='')}/"
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, params)
    assert response.status_code in (200, 400, 404), (url, params, response.status_code)
    if response.status_code == 200 and "_export" not in params:
        assert response["Content-Type"].startswith("text/html")
    assert not _writes(queries)


cells = st.one_of(texts, st.just(""), st.integers(-5, 40).map(str), st.sampled_from(["Иванов", "Ivanov Ivan"]))
csv_rows = st.lists(st.lists(cells, max_size=6), max_size=12)


def _csv(header, rows, delimiter) -> bytes:
    lines = [delimiter.join(header)] + [delimiter.join(r) for r in rows]
    return "\n".join(lines).encode("utf-8", "surrogatepass")


@FUZZ
@given(
    header=st.lists(
        st.sampled_from(["place", "player_id", "surname", "name", "participant", "место", "x"]), max_size=5
    ),
    rows=csv_rows,
    delimiter=st.sampled_from([";", ",", "\t"]),
    raw=st.binary(max_size=200),
    use_raw=st.booleans(),
)
def test_results_files_are_read_or_refused_with_a_reason(world, header, rows, delimiter, raw, use_raw):
    tournament = TournamentFactory.build(pk=10**9)
    content = raw if use_raw else _csv(header, rows, delimiter)
    with CaptureQueriesContext(connection) as queries:
        try:
            report = results_parse(tournament=tournament, content=content, filename="results.csv")
        except ImportFileError as error:
            assert error.message  # noqa: PT017 (the property: a refusal says why)
        else:
            assert all(problem.message for problem in report.problems)
    assert not _writes(queries)


@FUZZ
@given(content=st.binary(max_size=400), name=st.sampled_from(["results.xlsx", "results.csv", "results.txt", ""]))
def test_any_bytes_as_a_results_file_are_refused_with_a_reason(world, content, name):
    tournament = TournamentFactory.build(pk=10**9)
    try:
        results_parse(tournament=tournament, content=content, filename=name)
    except ImportFileError as error:
        assert error.message  # noqa: PT017 (the property: a refusal says why)


@FUZZ
@given(rows=csv_rows, header=st.booleans(), raw=st.binary(max_size=200), use_raw=st.booleans())
def test_deals_files_are_parsed_or_refused_with_the_row_and_field(world, rows, header, raw, use_raw):
    head = ["game;date;deal;player_id;whists"] if header else []
    content = raw if use_raw else "\n".join(head + [";".join(r) for r in rows]).encode("utf-8", "surrogatepass")
    with CaptureQueriesContext(connection) as queries:
        try:
            parsed = deals_parse(content)
        except ImportFileError as error:
            assert error.message  # noqa: PT017 (the property: a refusal says why)
        else:
            assert all(e.row >= 2 and e.field and e.message for e in parsed.errors)
    assert not _writes(queries)
