"""Each preferans game has an owner (issue 27): an organiser changes and rates deals into their own games only, by
every door of the admin (the deal page, the game's page, the list, the CSV import), and staff into any."""

import importlib

import pytest
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.contenttypes.models import ContentType
from django.core.files.uploadedfile import SimpleUploadedFile

from ratings.preferans.models import Deal, DealResult, Game, PreferansRating, Seat
from ratings.preferans.services import DealInput, deals_apply, game_create
from tests.factories import PlayerFactory, federation_staff, organiser

pytestmark = pytest.mark.django_db


def _game(owner, key="club-1"):
    players = [PlayerFactory() for _ in range(3)]
    game, _ = game_create(server=None, external_id=key, player_ids=[p.pk for p in players])
    Game.objects.filter(pk=game.pk).update(owner=owner)
    game.refresh_from_db()
    return game, players


def _whists(players, values=(-10, 5, 5)):
    return {f"whists_{p.pk}": w for p, w in zip(players, values, strict=True)}


def test_an_organiser_cannot_rate_a_deal_into_another_organisers_game(client):
    """The finding: a second organiser's game answered 200 at /deal/ and a POST of −10/5/5 was stored and rated."""
    theirs, players = _game(organiser(username="them"))
    client.force_login(organiser(username="me"))
    url = f"/admin/preferans/game/{theirs.pk}/deal/"
    assert client.get(url).status_code == 404
    assert client.post(url, _whists(players)).status_code == 404
    assert not Deal.objects.exists()
    assert not DealResult.objects.exists()
    assert set(PreferansRating.objects.values_list("rating", flat=True)) == {1000.0}
    # Nor through its page, the list or its history.
    assert client.get(f"/admin/preferans/game/{theirs.pk}/change/")["Location"].rstrip("/").endswith("/admin")
    assert "club-1" not in client.get("/admin/preferans/game/").content.decode()
    assert client.get(f"/admin/preferans/game/{theirs.pk}/history/").status_code == 403


def test_the_owner_and_staff_rate_deals_into_the_game(client):
    me = organiser()
    mine, players = _game(me)
    client.force_login(me)
    assert client.post(f"/admin/preferans/game/{mine.pk}/deal/", _whists(players)).status_code == 302
    client.force_login(federation_staff())
    assert client.post(f"/admin/preferans/game/{mine.pk}/deal/", _whists(players, (2, -1, -1))).status_code == 302
    assert mine.deals.count() == 2


def test_a_game_entered_by_hand_is_its_organisers_with_its_table(client):
    """An organiser enters a game with its table (the seats were refused to organisers before, so a game by hand
    took no deal) and owns it; another organiser does not see it."""
    me = organiser()
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    data = {
        "external_id": "club-7",
        "played_at_0": "2026-03-07",
        "played_at_1": "19:00:00",
        "seats-TOTAL_FORMS": "3",
        "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "4",
        **{f"seats-{n}-player": p.pk for n, p in enumerate((a, b, c))},
        **{f"seats-{n}-seat": n + 1 for n in range(3)},
        "deals-TOTAL_FORMS": "0",
        "deals-INITIAL_FORMS": "0",
    }
    client.force_login(me)
    response = client.post("/admin/preferans/game/add/", data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    game = Game.objects.get()
    assert game.owner == me
    assert Seat.objects.filter(game=game).count() == 3
    assert client.post(f"/admin/preferans/game/{game.pk}/deal/", _whists((a, b, c))).status_code == 302
    client.force_login(organiser(username="other"))
    assert client.get(f"/admin/preferans/game/{game.pk}/deal/").status_code == 404


def _upload(client, text):
    return client.post("/en/admin/preferans/game/import/", {"file": SimpleUploadedFile("deals.csv", text.encode())})


def test_the_import_adds_no_deal_to_another_organisers_game(client):
    _theirs, players = _game(organiser(username="them"))
    client.force_login(organiser(username="me"))
    text = "game;date;deal;player_id;whists\n" + "".join(
        f"club-1;2026-03-07;1;{p.pk};{w}\n" for p, w in zip(players, (-10, 5, 5), strict=True)
    )
    page = _upload(client, text).content.decode()
    assert "Row 2.game" in page or "row 2.game" in page
    assert "was entered by someone else" in page
    assert "sha256" not in page.split("</form>")[-1]  # no confirmation offered
    assert not Deal.objects.exists()


def test_games_created_by_an_import_are_the_importers(client):
    me = organiser()
    players = [PlayerFactory() for _ in range(3)]
    text = "game;date;deal;player_id;whists\n" + "".join(
        f"new-1;2026-03-07;1;{p.pk};{w}\n" for p, w in zip(players, (-10, 5, 5), strict=True)
    )
    client.force_login(me)
    preview = _upload(client, text)
    done = client.post("/admin/preferans/game/import/", {"confirm": "1", "sha256": preview.context["sha256"]})
    assert done.status_code == 302
    assert Game.objects.get(external_id="new-1").owner == me
    # ...and a second file adds deals to it: it is the importer's own game.
    second = text.replace(";1;", ";2;")
    preview = _upload(client, second)
    assert client.post("/admin/preferans/game/import/", {"confirm": "1", "sha256": preview.context["sha256"]})
    assert Deal.objects.count() == 2


def test_games_of_a_server_have_no_owner_and_stay_staffs(client):
    from ratings.preferans.models import GameServer

    server = GameServer.objects.create(name="Srv", token_hash="c" * 64, token_prefix="cccc")
    game, _ = game_create(server=server, external_id="s-1", player_ids=[PlayerFactory().pk, PlayerFactory().pk])
    assert game.owner is None
    deals_apply(
        deals=[
            DealInput(
                game=game,
                whists={pid: w for pid, w in zip(game.seats.values_list("player_id", flat=True), (1, -1), strict=True)},
            )
        ],
        server=server,
    )
    client.force_login(organiser())
    assert client.get(f"/admin/preferans/game/{game.pk}/deal/").status_code == 404
    client.force_login(federation_staff())
    assert client.get(f"/admin/preferans/game/{game.pk}/change/").status_code == 200


def test_existing_games_go_to_whoever_added_them_in_the_admin():
    """Migration 0004's decision: a game whose addition the admin's log records is that user's; the rest (imported,
    a server's) stay without an owner, which is staff's alone."""
    migration = importlib.import_module("ratings.preferans.migrations.0004_game_owner")
    adder = organiser()
    logged, _ = _game(None, "logged")
    imported, _ = _game(None, "imported")
    LogEntry.objects.create(
        user=adder,
        content_type=ContentType.objects.get_for_model(Game),
        object_id=str(logged.pk),
        object_repr="logged",
        action_flag=ADDITION,
    )
    migration.owners_from_the_admin_log(apps, None)
    logged.refresh_from_db()
    imported.refresh_from_db()
    assert logged.owner == adder
    assert imported.owner is None
