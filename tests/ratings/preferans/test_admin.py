import pytest

from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat, hash_token
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db


def test_game_server_token_is_shown_once_and_stored_hashed(admin_client):
    response = admin_client.post("/en/admin/preferans/gameserver/add/", {"name": "Srv", "is_active": "on"}, follow=True)
    assert response.status_code == 200
    messages = [str(m) for m in response.context["messages"]]
    token = messages[0].split("<code>")[1].split("</code>")[0]
    server = GameServer.objects.get()
    assert server.token_hash == hash_token(token)
    assert token not in admin_client.get(f"/en/admin/preferans/gameserver/{server.pk}/change/").content.decode()


def _token_of(response):
    messages = [str(m) for m in response.context["messages"]]
    return messages[0].split("<code>")[1].split("</code>")[0]


def test_tokens_issued_in_the_admin_are_the_services_and_open_the_api(admin_client, post):
    """The admin issues tokens through ``game_server_create`` and ``game_server_token_rotate``: the token shown
    once is the one the API accepts, and after a new one is issued the old one is refused."""
    response = admin_client.post("/en/admin/preferans/gameserver/add/", {"name": "Srv", "is_active": "on"}, follow=True)
    first = _token_of(response)
    server = GameServer.objects.get()
    assert server.token_prefix == first[:8]
    a, b = PlayerFactory(), PlayerFactory()
    game = {"id": "g-1", "players": [a.pk, b.pk]}
    assert post("/api/preferans/games/", game, first).status_code == 201

    response = admin_client.post(
        "/en/admin/preferans/gameserver/",
        {"action": "issue_new_token", "_selected_action": [server.pk]},
        follow=True,
    )
    second = _token_of(response)
    assert second != first
    assert post("/api/preferans/games/", game, first).status_code == 403
    assert post("/api/preferans/games/", game, second).status_code == 200
    server.refresh_from_db()
    assert server.token_hash == hash_token(second)


def test_a_server_added_inactive_has_a_token_the_api_refuses(admin_client, post):
    response = admin_client.post("/en/admin/preferans/gameserver/add/", {"name": "Off"}, follow=True)
    token = _token_of(response)
    assert GameServer.objects.get().is_active is False
    assert post("/api/preferans/games/", {"id": "g", "players": [1, 2]}, token).status_code == 403


def test_admin_pages_open(admin_client):
    for url in [
        "/en/admin/preferans/game/",
        "/en/admin/preferans/game/add/",
        "/en/admin/preferans/gameserver/",
        "/en/admin/preferans/preferansrating/",
        "/en/admin/preferans/game/import/",
    ]:
        assert admin_client.get(url).status_code == 200, url


def test_enter_a_game_and_a_deal_by_hand(admin_client):
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    data = {
        "external_id": "club-1",
        "played_at_0": "2026-03-07",
        "played_at_1": "19:00:00",
        "seats-TOTAL_FORMS": "3",
        "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "4",
        "seats-0-player": a.pk,
        "seats-0-seat": 1,
        "seats-1-player": b.pk,
        "seats-1-seat": 2,
        "seats-2-player": c.pk,
        "seats-2-seat": 3,
        "deals-TOTAL_FORMS": "0",
        "deals-INITIAL_FORMS": "0",
        "deals-MIN_NUM_FORMS": "0",
        "deals-MAX_NUM_FORMS": "1000",
    }
    response = admin_client.post("/en/admin/preferans/game/add/", data)
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert Seat.objects.filter(game=game).count() == 3
    url = f"/en/admin/preferans/game/{game.pk}/deal/"
    bad = admin_client.post(url, {f"whists_{a.pk}": 1, f"whists_{b.pk}": 1, f"whists_{c.pk}": 1})
    assert "sum to 3" in bad.content.decode()
    assert not Deal.objects.exists()
    ok = admin_client.post(url, {f"whists_{a.pk}": 6, f"whists_{b.pk}": -3, f"whists_{c.pk}": -3, "finish": "on"})
    assert ok.status_code == 302
    assert PreferansRating.objects.get(player=a).rating > 1000
    game.refresh_from_db()
    assert game.finished
    page = admin_client.get(f"/en/admin/preferans/game/{game.pk}/change/").content.decode()
    assert "+6" in page


def test_a_table_of_one_is_refused_in_the_admin(admin_client):
    a = PlayerFactory()
    data = {
        "external_id": "club-2",
        "played_at_0": "2026-03-07",
        "played_at_1": "19:00:00",
        "seats-TOTAL_FORMS": "1",
        "seats-INITIAL_FORMS": "0",
        "seats-MIN_NUM_FORMS": "0",
        "seats-MAX_NUM_FORMS": "4",
        "seats-0-player": a.pk,
        "seats-0-seat": 1,
        "deals-TOTAL_FORMS": "0",
        "deals-INITIAL_FORMS": "0",
        "deals-MIN_NUM_FORMS": "0",
        "deals-MAX_NUM_FORMS": "1000",
    }
    response = admin_client.post("/en/admin/preferans/game/add/", data)
    assert response.status_code == 200
    assert "2 to 4 players" in response.content.decode()
    assert not Game.objects.exists()


def _upload(admin_client, text):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return admin_client.post(
        "/en/admin/preferans/game/import/", {"file": SimpleUploadedFile("deals.csv", text.encode())}
    )


def test_csv_import_preview_then_confirm(admin_client):
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    text = "game;date;deal;player_id;whists\n" + "".join(
        f"club-1;2026-03-07;{n};{p.pk};{w}\n" for n in (1, 2) for p, w in ((a, -5), (b, 3), (c, 2))
    )
    preview = _upload(admin_client, text)
    body = preview.content.decode()
    assert "Preview" in body
    assert not Deal.objects.exists()
    assert not Game.objects.exists()
    sha = preview.context["sha256"]
    done = admin_client.post("/en/admin/preferans/game/import/", {"confirm": "1", "sha256": sha})
    assert done.status_code == 302
    assert Deal.objects.count() == 2
    assert Game.objects.get().external_id == "club-1"


def test_csv_import_names_the_row_and_field(admin_client):
    a, b = PlayerFactory(), PlayerFactory()
    text = f"game;date;deal;player_id;whists\nclub-1;2026-03-07;1;{a.pk};2.5\nclub-1;2026-03-07;1;{b.pk};x\n"
    body = _upload(admin_client, text).content.decode()
    assert "Row 2, whists" in body
    assert "Row 3, whists" in body
    text = f"game;date;deal;player_id;whists\nclub-1;2026-03-07;1;{a.pk};2\nclub-1;2026-03-07;1;{b.pk};-1\n"
    body = _upload(admin_client, text).content.decode()
    assert "row 2.whists" in body
    assert "sum to 1" in body
    body = _upload(admin_client, "who;what\n1;2\n").content.decode()
    assert "Missing columns" in body
    long_game = "g" * 101
    text = f"game;date;deal;player_id;whists\n{long_game};;1;{a.pk};1\nclub-1;;{'9' * 101};{b.pk};-1\n"
    response = _upload(admin_client, text)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Row 2, game: Longer than 100 characters." in body
    assert "Row 3, deal: Longer than 100 characters." in body
    assert not Game.objects.exists()


def test_csv_import_confirms_only_the_stored_file_as_previewed(admin_client):
    """The deals import is the site's one upload flow: the posted hash must be the stored file's, and the stored
    bytes must still have that hash; otherwise nothing is imported."""
    import base64

    a, b = PlayerFactory(), PlayerFactory()
    text = f"game;date;deal;player_id;whists\nclub-1;2026-03-07;1;{a.pk};2\nclub-1;2026-03-07;1;{b.pk};-2\n"
    sha = _upload(admin_client, text).context["sha256"]
    refused = admin_client.post("/en/admin/preferans/game/import/", {"confirm": "1", "sha256": "0" * 64}, follow=True)
    assert "not the one last uploaded" in refused.content.decode()

    session = admin_client.session
    stored = session["preferans_import"]
    stored["content"] = base64.b64encode(text.replace(";2\n", ";5\n").replace(";-2\n", ";-5\n").encode()).decode()
    session["preferans_import"] = stored
    session.save()
    lost = admin_client.post("/en/admin/preferans/game/import/", {"confirm": "1", "sha256": sha}, follow=True)
    assert "The uploaded file was lost" in lost.content.decode()
    assert not Deal.objects.exists()
    assert "preferans_import" not in admin_client.session

    sha = _upload(admin_client, text).context["sha256"]
    done = admin_client.post("/en/admin/preferans/game/import/", {"confirm": "1", "sha256": sha}, follow=True)
    assert "1 deal imported and rated." in done.content.decode()
    assert Deal.objects.count() == 1


def test_a_player_who_left_is_left_out_of_a_deal_by_hand_and_in_the_csv_import(admin_client):
    """RATE_CLI.md: a later deal of a game may lack a player who left; both of the admin's doors accept it."""
    from ratings.preferans.services import game_create

    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    game, _created = game_create(server=None, external_id="club-9", player_ids=[a.pk, b.pk, c.pk])
    url = f"/en/admin/preferans/game/{game.pk}/deal/"
    ok = admin_client.post(url, {f"whists_{a.pk}": 4, f"whists_{b.pk}": -4, f"whists_{c.pk}": ""})
    assert ok.status_code == 302
    assert list(DealResult.objects.order_by("id").values_list("player_id", "whists")) == [(a.pk, 4), (b.pk, -4)]
    assert PreferansRating.objects.get(player=c).rating == 1000
    lonely = admin_client.post(url, {f"whists_{a.pk}": 0, f"whists_{b.pk}": "", f"whists_{c.pk}": ""})
    assert "2 to 4 players, this deal has 1" in lonely.content.decode()

    text = "game;date;deal;player_id;whists\n" + "".join(
        f"club-10;2026-03-07;{n};{p.pk};{w}\n"
        for n, rows in ((1, ((a, -5), (b, 3), (c, 2))), (2, ((a, 1), (c, -1))))
        for p, w in rows
    )
    sha = _upload(admin_client, text).context["sha256"]
    done = admin_client.post("/en/admin/preferans/game/import/", {"confirm": "1", "sha256": sha}, follow=True)
    assert "2 deals imported and rated." in done.content.decode()
    second = Deal.objects.get(game__external_id="club-10", number=2)
    assert sorted(second.results.values_list("player_id", flat=True)) == sorted([a.pk, c.pk])
    stranger = PlayerFactory()
    text = f"game;date;deal;player_id;whists\nclub-10;2026-03-07;3;{a.pk};1\nclub-10;2026-03-07;3;{stranger.pk};-1\n"
    body = _upload(admin_client, text).content.decode()
    assert f"player {stranger.pk} is not at the table of this game" in body
