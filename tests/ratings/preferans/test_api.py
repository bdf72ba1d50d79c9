import pytest

from ratings.preferans.models import Deal, DealResult, Game, PreferansRating, Seat
from ratings.preferans.services import game_server_create
from tests.factories import PlayerFactory
from tests.ratings.preferans.conftest import rated

pytestmark = pytest.mark.django_db

GAMES = "/api/preferans/games/"
DEALS = "/api/preferans/deals/"


def _game(post, server, players, external_id="g-1"):
    response = post(GAMES, {"id": external_id, "players": [p.pk for p in players], "date": "2026-03-07"}, server.token)
    assert response.status_code == 201, response.content
    return response.json()["game"]


def _rating(player):
    return PreferansRating.objects.get(player=player).rating


def test_two_player_examples_of_the_rules(post, server):
    """`rules/preferans.md`, worked examples: 1000 vs 1800 with -5 and +10; 2000 vs 1500 with +4 and +10."""
    for rs, rt, vs, expected in [
        (1000, 1800, -5, 1.8597),
        (1000, 1800, 10, 4.3782),
        (2000, 1500, 4, 0.8045),
        (2000, 1500, 10, 2.8702),
    ]:
        me, other = rated(rs), rated(rt)
        game = _game(post, server, [me, other], external_id=f"g-{rs}-{vs}")
        response = post(
            DEALS,
            {"id": f"d-{rs}-{vs}", "game": f"g-{rs}-{vs}", "whists": {str(me.pk): vs, str(other.pk): -vs}},
            server.token,
        )
        assert response.status_code == 201, response.content
        body = response.json()
        assert body["applied"] is True
        assert body["game"] == game
        mine = next(c for c in body["changes"] if c["player"] == me.pk)
        assert mine["delta"] == pytest.approx(expected, abs=5e-5)
        assert _rating(me) == pytest.approx(rs + expected, abs=5e-5)


def test_three_player_table_of_the_rules(post, server):
    a, b, c = rated(1000), rated(1800), rated(1800)
    _game(post, server, [a, b, c])
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}, server.token
    )
    assert response.status_code == 201, response.content
    assert _rating(a) == pytest.approx(1001.8597, abs=5e-5)
    assert _rating(b) == pytest.approx(1800.8546, abs=5e-5)
    assert _rating(c) == pytest.approx(1799.0491, abs=5e-5)
    result = DealResult.objects.get(player=a)
    assert result.rating_before == 1000
    assert result.whists == -5


def test_a_replayed_deal_is_not_applied_twice(post, server):
    a, b, c = rated(1000), rated(1800), rated(1800)
    _game(post, server, [a, b, c])
    deal = {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}
    first = post(DEALS, deal, server.token)
    again = post(DEALS, deal, server.token)
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["applied"] is False
    assert again.json()["changes"] == first.json()["changes"]
    assert Deal.objects.count() == 1
    assert _rating(a) == pytest.approx(1001.8597, abs=5e-5)
    # In a batch too, beside a new deal.
    batch = {"deals": [deal, {"id": "d-2", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}]}
    response = post(DEALS, batch, server.token)
    assert response.status_code == 201
    assert [d["applied"] for d in response.json()["deals"]] == [False, True]
    assert Deal.objects.count() == 2
    assert PreferansRating.objects.get(player=a).deals == 2


def test_a_batch_with_an_inline_game_and_finish(post, server):
    a, b, c, d = (PlayerFactory() for _ in range(4))
    whists = {str(a.pk): 10, str(b.pk): -4, str(c.pk): -4, str(d.pk): -2}
    game = {"id": "g-9", "players": [a.pk, b.pk, c.pk, d.pk], "date": "2026-03-08T19:30:00"}
    batch = {"deals": [{"id": f"d-{n}", "game": game, "whists": whists, "finish": n == 1} for n in range(3)]}
    response = post(DEALS, batch, server.token)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "deals[2].game"
    assert not Game.objects.exists()
    assert not PreferansRating.objects.exists()
    batch["deals"] = batch["deals"][:2]
    response = post(DEALS, batch, server.token)
    assert response.status_code == 201, response.content
    assert [d["number"] for d in response.json()["deals"]] == [1, 2]
    assert Game.objects.get().finished is True
    assert _rating(a) > 1000 > _rating(b)
    history = DealResult.objects.filter(player=a).order_by("deal__number")
    assert history[1].rating_before == history[0].rating_after


def test_a_game_left_early_keeps_its_deals(post, server):
    a, b, c = rated(1000), rated(1800), rated(1800)
    game = _game(post, server, [a, b, c])
    post(DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}, server.token)
    response = post(f"/api/preferans/games/{game}/finish/", {}, server.token)
    assert response.status_code == 200
    assert response.json()["finished"] is True
    assert _rating(a) == pytest.approx(1001.8597, abs=5e-5)
    refused = post(
        f"/api/preferans/games/{game}/deals/",
        {"id": "d-2", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}},
        server.token,
    )
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "game"


def test_pro_league_for_good_and_peak(post, server):
    a, b = rated(1799.5), rated(1799.5)
    _game(post, server, [a, b])
    post(DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 20, str(b.pk): -20}}, server.token)
    row = PreferansRating.objects.get(player=a)
    assert row.league == "pro"
    peak = row.max_rating
    post(DEALS, {"id": "d-2", "game": "g-1", "whists": {str(a.pk): -30, str(b.pk): 30}}, server.token)
    row.refresh_from_db()
    assert row.rating < 1800
    assert row.league == "pro"
    assert row.max_rating == peak


def test_bots_start_at_and_stay_under_their_level(post, server):
    from federation.models import BotLevel

    level = BotLevel.objects.create(name="normal", max_rating=1800)
    bot = PlayerFactory(is_bot=True, bot_level=level)
    human = rated(1700)
    _game(post, server, [human, bot])
    post(DEALS, {"id": "d-1", "game": "g-1", "whists": {str(human.pk): -10, str(bot.pk): 10}}, server.token)
    assert _rating(bot) == 1800
    assert _rating(human) < 1700


# --- bad input: a clear JSON error naming the field, 400 or 403, nothing applied ---------------------------------


@pytest.fixture
def table(post, server):
    players = [rated(1000), rated(1800), rated(1800)]
    _game(post, server, players)
    return players


def _nothing_applied(players):
    assert not Deal.objects.exists()
    assert not DealResult.objects.exists()
    assert [_rating(p) for p in players] == [1000, 1800, 1800]


def _refused(response, status, field):
    assert response.status_code == status, response.content
    error = response.json()["errors"][0]
    assert error["field"] == field
    assert error["message"]
    return error["message"]


def test_a_player_not_at_the_table(post, server, table):
    a, b, _c = table
    stranger = rated(1000)
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(stranger.pk): 2}}, server.token
    )
    assert "not at the table" in _refused(response, 400, f"whists.{stranger.pk}")
    _nothing_applied(table)


def test_a_player_who_left_is_missing_from_the_later_deals(post, server, table):
    """RATE_CLI.md: a later deal may lack a player who left; they keep what the deals they played gave, and the
    deals after are rated between those still at the table (the rules' table of three, then two at 1001.8597 and
    1800.8546)."""
    a, b, c = table
    first = {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}
    assert post(DEALS, first, server.token).status_code == 201
    response = post(DEALS, {"id": "d-2", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 5}}, server.token)
    assert response.status_code == 201, response.content
    assert [change["player"] for change in response.json()["changes"]] == [a.pk, b.pk]
    assert _rating(c) == pytest.approx(1799.0491, abs=5e-5)
    assert DealResult.objects.filter(player=c).count() == 1
    # Rs = 1001.8597 against Rt = 1800.8546, -5 whists: Vf = -8.2954, Kd = 1.0237, Rd = +1.8583.
    assert _rating(a) == pytest.approx(1001.8597 + 1.8583, abs=2e-4)
    alone = post(DEALS, {"id": "d-3", "game": "g-1", "whists": {str(a.pk): 0}}, server.token)
    assert "2 to 4 players" in _refused(alone, 400, "whists")
    assert Deal.objects.count() == 2


@pytest.mark.parametrize("count", [1, 5])
def test_a_table_of_one_or_five(post, server, count):
    players = [rated(1000) for _ in range(count)]
    response = post(GAMES, {"id": "g-x", "players": [p.pk for p in players]}, server.token)
    assert "2 to 4" in _refused(response, 400, "players")
    whists = {str(p.pk): 0 for p in players}
    response = post(
        DEALS, {"id": "d-1", "game": {"id": "g-y", "players": [p.pk for p in players]}, "whists": whists}, server.token
    )
    _refused(response, 400, "game.players")
    assert not Game.objects.exists()


@pytest.mark.parametrize("value", [2.5, "3", None, True])
def test_whists_that_are_not_whole_numbers(post, server, table, value):
    a, b, c = table
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -3, str(b.pk): value, str(c.pk): 0}}, server.token
    )
    assert "whole number" in _refused(response, 400, f"whists.{b.pk}")
    _nothing_applied(table)


def test_whists_that_do_not_sum_to_zero(post, server, table):
    a, b, c = table
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -3, str(b.pk): 1, str(c.pk): 1}}, server.token
    )
    assert "sum to -1" in _refused(response, 400, "whists")
    _nothing_applied(table)


def test_a_deal_for_a_finished_game(post, server, table):
    Game.objects.update(finished=True)
    a, b, c = table
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}, server.token
    )
    assert "finished" in _refused(response, 400, "game")
    _nothing_applied(table)


@pytest.mark.parametrize("token", ["not-a-token", ""])
def test_an_unknown_token(post, server, table, token):
    a, b, c = table
    response = post(DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}, token)
    _refused(response, 403, "Authorization")
    _nothing_applied(table)


def test_a_disabled_server(post, server, table):
    server.is_active = False
    server.save()
    a, b, c = table
    response = post(
        DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}, server.token
    )
    _refused(response, 403, "Authorization")


def test_a_token_used_for_another_servers_game(post, server, table):
    _other, other_token = game_server_create(name="Other")
    game = Game.objects.get()
    a, b, c = table
    deal = {"id": "d-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}
    _refused(post(f"/api/preferans/games/{game.pk}/deals/", deal, other_token), 403, "game")
    _refused(post(f"/api/preferans/games/{game.pk}/finish/", {}, other_token), 403, "game")
    # By the server's own game id, the other server simply has no such game.
    _refused(post(DEALS, {**deal, "game": "g-1"}, other_token), 400, "game")
    _nothing_applied(table)
    assert Game.objects.get().finished is False


def test_a_bad_deal_in_a_batch_applies_nothing(post, server, table):
    a, b, c = table
    good = {"id": "d-1", "game": "g-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}
    bad = {"id": "d-2", "game": "g-1", "whists": {str(a.pk): 1.5, str(b.pk): 0, str(c.pk): 0}}
    response = post(DEALS, {"deals": [good, bad]}, server.token)
    _refused(response, 400, f"deals[1].whists.{a.pk}")
    _nothing_applied(table)


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ("{not json", "body"),
        ([1, 2], "body"),
        ({"game": "g-1", "whists": {}}, "id"),
        ({"id": "d-1", "game": "nope", "whists": {}}, "game"),
        ({"id": "d-1", "game": "g-1"}, "whists"),
        ({"id": "d-1", "game": "g-1", "whists": [1, 2]}, "whists"),
        ({"deals": []}, "deals"),
        ({"id": "d-1", "game": "g-1", "whists": {"x": 0, "y": 0}}, "whists.x"),
    ],
)
def test_malformed_requests(post, server, table, payload, field):
    _refused(post(DEALS, payload, server.token), 400, field)
    _nothing_applied(table)


def test_the_same_deal_id_for_another_game(post, server, table):
    a, b, c = table
    post(DEALS, {"id": "d-1", "game": "g-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}, server.token)
    _game(post, server, [a, b], external_id="g-2")
    response = post(DEALS, {"id": "d-1", "game": "g-2", "whists": {str(a.pk): 1, str(b.pk): -1}}, server.token)
    _refused(response, 409, "id")
    assert response.json()["stored"]["game"] == Game.objects.get(external_id="g-1").pk
    assert Deal.objects.count() == 1


def test_get_is_not_allowed_and_answered_in_json(client, server):
    for url in (DEALS, GAMES, f"{GAMES}1/deals/", f"{GAMES}1/finish/"):
        response = client.get(url)
        assert response.status_code == 405
        assert response["Content-Type"] == "application/json"
        assert response.json()["errors"][0]["field"] == "method"
        assert "POST" in response["Allow"]


# --- the game server's usual request: one deal posted to its game's address ---------------------------------------


def test_a_deal_to_the_games_address_is_checked_locked_and_written_in_a_few_statements(post, server):
    """The three-player example of the rules through ``/games/<pk>/deals/``: the token, the game, its table and its
    players' ratings checked and locked, the deal numbered and written in a few statements, as many at a table of two
    as of three (none a player). A replay, a deal id of another game and the replay of a game's finishing deal are
    answered as everywhere else."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    a, b, c = rated(1000), rated(1800), rated(1800)
    game = _game(post, server, [a, b, c])
    pair = _game(post, server, [rated(1000), rated(1000)], external_id="pair")
    deal = {"id": "d-1", "whists": {str(a.pk): -5, str(b.pk): 3, str(c.pk): 2}}
    with CaptureQueriesContext(connection) as queries:
        response = post(f"{GAMES}{game}/deals/", deal, server.token)
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) <= 8, "\n".join(s[:90] for s in statements)
    if connection.vendor == "postgresql":
        assert "FOR UPDATE" in statements[1]
    x, y = Seat.objects.filter(game_id=pair).values_list("player_id", flat=True)
    with CaptureQueriesContext(connection) as two:
        post(f"{GAMES}{pair}/deals/", {"id": "p-1", "whists": {str(x): 1, str(y): -1}}, server.token)
    assert len([q for q in two if "SAVEPOINT" not in q["sql"]]) == len(statements)
    assert response.status_code == 201, response.content
    assert response.json()["number"] == 1
    assert _rating(a) == pytest.approx(1001.8597, abs=5e-5)
    assert _rating(b) == pytest.approx(1800.8546, abs=5e-5)
    assert _rating(c) == pytest.approx(1799.0491, abs=5e-5)
    again = post(f"{GAMES}{game}/deals/", deal, server.token)
    assert again.status_code == 200
    assert again.json()["applied"] is False
    assert again.json()["changes"] == response.json()["changes"]
    assert _rating(a) == pytest.approx(1001.8597, abs=5e-5)

    other = _game(post, server, [a, b, c], external_id="g-2")
    _refused(post(f"{GAMES}{other}/deals/", deal, server.token), 409, "id")

    last = {"id": "d-2", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}, "finish": True}
    finishing = post(f"{GAMES}{game}/deals/", last, server.token)
    assert finishing.status_code == 201
    assert finishing.json()["number"] == 2
    replay = post(f"{GAMES}{game}/deals/", last, server.token)
    assert replay.status_code == 200
    assert replay.json()["applied"] is False
    assert Deal.objects.filter(game_id=game).count() == 2
    assert Game.objects.get(pk=game).finished is True


@pytest.mark.parametrize("case", ["unknown token", "disabled server", "no such game", "no header"])
def test_the_games_address_refuses_bad_tokens_and_games(post, server, table, case):
    a, b, c = table
    game = Game.objects.get()
    deal = {"id": "d-1", "whists": {str(a.pk): 0, str(b.pk): 0, str(c.pk): 0}}
    token, url = server.token, f"{GAMES}{game.pk}/deals/"
    if case == "unknown token":
        token = "not-a-token"
    elif case == "disabled server":
        server.is_active = False
        server.save()
    elif case == "no such game":
        url = f"{GAMES}{game.pk + 1000}/deals/"
    else:
        token = ""
    if case == "no such game":
        _refused(post(url, deal, token), 400, "game")
    else:
        _refused(post(url, deal, token), 403, "Authorization")
    _nothing_applied(table)
