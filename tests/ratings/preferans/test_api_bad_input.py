"""Issue 13's game-server API items: every bad request is a JSON 4xx naming the field, and nothing is written.

The fuzz tests replace one field of a valid request at a time with anything JSON can carry (any type, numbers far
beyond the database's ranges, NaN and Infinity as Python's JSON writes them, text with NUL, control characters and
lone surrogates, long strings, deep nesting) and check the property: a JSON answer, never a 5xx; when refused, the
errors name a field and nothing of the request is stored.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from federation.bounds import API_MAX_BODY_BYTES
from ratings.preferans.models import Deal, DealResult, Game, PreferansRating
from tests.ratings.preferans.conftest import rated

pytestmark = pytest.mark.django_db

GAMES = "/api/preferans/games/"
DEALS = "/api/preferans/deals/"


@pytest.fixture
def table(post, server):
    players = [rated(1000), rated(1800), rated(1800)]
    response = post(GAMES, {"id": "g-1", "players": [p.pk for p in players], "date": "2026-03-07"}, server.token)
    assert response.status_code == 201
    return players


def _state():
    ratings = tuple(PreferansRating.objects.order_by("player_id").values_list("player_id", "rating", "deals"))
    return Game.objects.count(), Deal.objects.count(), DealResult.objects.count(), ratings


def _refused(response, status, field=None):
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    errors = response.json()["errors"]
    assert errors
    assert all(e["message"] for e in errors)
    if field is not None:
        assert errors[0]["field"] == field, errors
    return errors[0]["message"]


def test_deeply_nested_json_is_a_400_naming_the_body(post, server, table):
    before = _state()
    for body in ["[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000]:
        _refused(post(DEALS, body, server.token), 400, "body")
    a, _b, _c = table
    nested = f'{{"id": "d-1", "game": "g-1", "whists": {{"{a.pk}": ' + "[" * 60_000 + "]" * 60_000 + "}}"
    _refused(post(DEALS, nested, server.token), 400)
    assert _state() == before


@pytest.mark.parametrize(
    "date", ["2026-02-30", "2026-13-01", "2026-03-07T25:00", "2026-03-07T19:61", "0001-01-01T00:00", "9999-12-31"]
)
def test_impossible_and_absurd_dates_are_refused(post, server, table, date):
    a, b, _c = table
    before = _state()
    message = _refused(post(GAMES, {"id": "g-2", "players": [a.pk, b.pk], "date": date}, server.token), 400, "date")
    assert date in message
    inline = {"id": "d-1", "game": {"id": "g-3", "players": [a.pk, b.pk], "date": date}, "whists": {}}
    _refused(post(DEALS, inline, server.token), 400, "game.date")
    assert _state() == before


@pytest.mark.parametrize("value", [2**31, 2**63, 10**30, 1e10, -1001, 1001, 1e308, "NaN", "Infinity"])
def test_whists_out_of_bounds_are_refused(post, server, table, value):
    a, b, c = table
    before = _state()
    raw = value if isinstance(value, str) else json.dumps(value)
    body = f'{{"id": "d-1", "game": "g-1", "whists": {{"{a.pk}": {raw}, "{b.pk}": 0, "{c.pk}": 0}}}}'
    _refused(post(DEALS, body, server.token), 400, f"whists.{a.pk}")
    assert _state() == before


def test_the_bound_holds_at_the_edge(post, server, table):
    a, b, c = table
    deal = {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 1000, str(b.pk): -1000, str(c.pk): 0}}
    assert post(DEALS, deal, server.token).status_code == 201


@pytest.mark.parametrize("bad", ["a\x00b", "\ud800", "x\udfff", "tab\there", "\x7f", "", " ", "x" * 101, True, 1.5])
def test_nul_surrogates_and_bad_ids_are_refused(post, server, table, bad):
    a, b, c = table
    before = _state()
    deal = {"id": bad, "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}
    _refused(post(DEALS, deal, server.token), 400, "id")
    _refused(post(DEALS, {**deal, "id": "d-1", "game": bad}, server.token), 400, "game")
    _refused(post(GAMES, {"id": bad, "players": [a.pk, b.pk]}, server.token), 400, "id")
    assert _state() == before


def test_a_game_dated_in_year_one_never_gets_in(post, server, table, client):
    a, b, _c = table
    _refused(post(GAMES, {"id": "g-old", "players": [a.pk, b.pk], "date": "0001-01-01T00:00"}, server.token), 400)
    assert not Game.objects.filter(external_id="g-old").exists()
    assert client.get("/en/preferans/").status_code == 200


def test_huge_ids_in_the_address_and_the_table(post, server, table):
    a, b, c = table
    before = _state()
    deal = {"id": "d-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}
    _refused(post(f"{GAMES}{10**30}/deals/", deal, server.token), 400, "game")
    _refused(post(f"{GAMES}{10**30}/finish/", {}, server.token), 400, "game")
    _refused(post(GAMES, {"id": "g-9", "players": [a.pk, 10**30]}, server.token), 400, "players")
    assert _state() == before


def test_a_replay_with_different_whists_is_a_conflict_showing_what_was_stored(post, server, table):
    a, b, c = table
    deal = {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}
    first = post(DEALS, deal, server.token)
    assert first.status_code == 201
    before = _state()
    changed = {**deal, "whists": {str(a.pk): 5, str(b.pk): -3, str(c.pk): -2}}
    response = post(DEALS, changed, server.token)
    assert "other whists" in _refused(response, 409, "id")
    stored = response.json()["stored"]
    assert stored["applied"] is False
    assert stored["changes"] == first.json()["changes"]
    assert {row["player"]: row["whists"] for row in stored["changes"]} == {a.pk: -5, b.pk: 3, c.pk: 2}
    # At the game's address (the hot path), and in a batch beside a new deal: nothing of the batch is kept.
    game = Game.objects.get(external_id="g-1").pk
    _refused(post(f"{GAMES}{game}/deals/", {k: v for k, v in changed.items() if k != "game"}, server.token), 409, "id")
    new = {"id": "d-2", "game": "g-1", "whists": {str(a.pk): 1, str(b.pk): -1, str(c.pk): 0}}
    _refused(post(DEALS, {"deals": [new, changed]}, server.token), 409, "deals[1].id")
    assert _state() == before
    # The same content again is still a plain replay.
    assert post(DEALS, deal, server.token).json()["applied"] is False


def test_a_body_over_the_limit_is_a_413_in_json(post, server, table, client):
    before = _state()
    big = json.dumps({"deals": [{"id": "x" * 90, "game": "g-1", "whists": {"1": 0}}] * 25_000})
    assert len(big) > API_MAX_BODY_BYTES
    _refused(post(DEALS, big, server.token), 413, "body")
    # Announced larger than it is: refused unread.
    response = client.post(
        DEALS,
        "{}",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {server.token}",
        CONTENT_LENGTH="9" * 12,
    )
    _refused(response, 413, "body")
    assert _state() == before


def test_other_methods_and_addresses_are_answered_in_json(client, server):
    for method in ("get", "put", "delete", "patch"):
        _refused(getattr(client, method)(DEALS), 405, "method")
    response = client.get("/api/preferans/nothing/here/")
    _refused(response, 404)


def test_no_token_is_a_403_before_the_body_is_read(post, table):
    _refused(post(DEALS, "{not json", ""), 403, "Authorization")


# --- fuzzing: one field at a time, anything JSON carries ---------------------------------------------------------

TEXT = st.text(alphabet=st.characters(codec=None), max_size=300) | st.sampled_from(
    ["\x00", "\ud800", "\udfff", "a\x00", "\u202e", "x" * 101, " ", "0", "-1", "1e10", "2026-02-30", "NaN"]
)
NUMBERS = (
    st.integers(min_value=-(2**70), max_value=2**70)
    | st.sampled_from([2**31, -(2**31) - 1, 2**63, 10**30, 1001, -1001])
    | st.floats(allow_nan=True, allow_infinity=True)
)
SCALARS = st.none() | st.booleans() | NUMBERS | TEXT
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _check(response, before):
    assert response.status_code < 500, response.content
    assert response["Content-Type"] == "application/json", response.content
    if response.status_code >= 400:
        errors = response.json()["errors"]
        assert errors
        assert all(isinstance(e["field"], str) and e["message"] for e in errors)
        assert _state() == before


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@given(field=st.sampled_from(["id", "game", "whists", "finish", "deals", "extra"]), value=ANY_JSON)
def test_fuzz_every_field_of_a_deal(post, server, table, field, value):
    a, b, c = table
    deal = {"id": "d-fuzz", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}
    before = _state()
    _check(post(DEALS, {**deal, field: value}, server.token), before)


@FUZZ
@given(key=TEXT, value=ANY_JSON)
def test_fuzz_whists_keys_and_values(post, server, table, key, value):
    a, b, c = table
    whists = {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}
    before = _state()
    _check(post(DEALS, {"id": "d-fz", "game": "g-1", "whists": {**whists, key: value}}, server.token), before)
    before = _state()
    _check(post(DEALS, {"id": "d-fz2", "game": "g-1", "whists": {**whists, str(b.pk): value}}, server.token), before)


@FUZZ
@given(field=st.sampled_from(["id", "players", "date"]), value=ANY_JSON)
def test_fuzz_every_field_of_a_game(post, server, table, field, value):
    a, b, _c = table
    game = {"id": "g-fuzz", "players": [a.pk, b.pk], "date": "2026-03-07T19:00"}
    before = _state()
    _check(post(GAMES, {**game, field: value}, server.token), before)
    before = _state()
    inline = {"id": "d-inline", "game": {**game, "id": "g-in", field: value}, "whists": {str(a.pk): 0, str(b.pk): 0}}
    _check(post(DEALS, inline, server.token), before)


@FUZZ
@given(
    body=st.binary(max_size=2000) | ANY_JSON.map(json.dumps),
    path=st.sampled_from(["deals/", "games/", "games/1/deals/", "games/1/finish/"]),
)
def test_fuzz_whole_bodies(post, server, table, body, path):
    before = _state()
    _check(post(f"/api/preferans/{path}", body, server.token), before)
