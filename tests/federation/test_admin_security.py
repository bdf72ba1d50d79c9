"""The admin's side doors of issue 13: the history form, published records, the fields only staff set."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from ratings.dirs.models import DirsRating
from ratings.models import RatingEntry, RatingList, RatingSnapshot
from ratings.preferans.models import Game, GameServer, Seat
from tests.factories import PlayerFactory, TournamentFactory, federation_staff, organiser
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db


def _draft(owner, **kwargs):
    tournament = TournamentFactory(organiser=owner, status=TournamentStatus.DRAFT, name="Черновик", **kwargs)
    tournament.name = "Черновик v2"
    tournament.save()
    return tournament


def _rename_form(tournament, name):
    return {
        "discipline": tournament.discipline,
        "name": name,
        "start_date": "2026-03-07",
        "end_date": "2026-03-07",
        "city": "Москва",
        "country": "RU",
        "card_format": "constructed",
        "k": "1",
        "results-TOTAL_FORMS": "0",
        "results-INITIAL_FORMS": "0",
        "stages-TOTAL_FORMS": "0",
        "stages-INITIAL_FORMS": "0",
    }


@pytest.mark.parametrize("whose", ["own", "other"])
def test_organiser_cannot_save_through_the_history_form(client, whose):
    me = organiser()
    tournament = _draft(me if whose == "own" else organiser())
    version = tournament.history.earliest("history_date")
    client.force_login(me)
    url = f"/admin/tournaments/tournament/{tournament.pk}/history/{version.history_id}/"
    response = client.post(url, _rename_form(tournament, "Переименован"))
    assert response.status_code in (403, 404)
    tournament.refresh_from_db()
    assert tournament.name == "Черновик v2"


def test_organiser_cannot_rename_a_player_or_make_a_bot_through_the_history_form(client):
    player = PlayerFactory(last_name="Петров")
    player.city = "Тверь"
    player.save()
    version = player.history.earliest("history_date")
    client.force_login(organiser())
    response = client.post(
        f"/admin/federation/player/{player.pk}/history/{version.history_id}/",
        {"last_name": "Бот", "first_name": "Иван", "city": "Казань", "country": "RU", "is_bot": "on"},
    )
    assert response.status_code == 403
    player.refresh_from_db()
    assert (player.last_name, player.city, player.is_bot) == ("Петров", "Тверь", False)


def test_staff_read_history_but_nobody_reverts(client):
    tournament = _draft(organiser())
    version = tournament.history.earliest("history_date")
    client.force_login(federation_staff())
    url = f"/admin/tournaments/tournament/{tournament.pk}/history/{version.history_id}/"
    assert client.get(f"/admin/tournaments/tournament/{tournament.pk}/history/").status_code == 200
    page = client.get(url)
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert client.post(url, _rename_form(tournament, "Переименован")).status_code == 403
    tournament.refresh_from_db()
    assert tournament.name == "Черновик v2"


@pytest.mark.parametrize("whose", ["own", "other"])
def test_organisers_do_not_read_history(client, whose):
    me = organiser()
    tournament = _draft(me if whose == "own" else organiser())
    version = tournament.history.earliest("history_date")
    client.force_login(me)
    base = f"/admin/tournaments/tournament/{tournament.pk}/history/"
    for url in (base, f"{base}{version.history_id}/"):
        response = client.get(url)
        assert response.status_code in (403, 404), url
        assert "Черновик" not in response.content.decode()


def test_snapshots_cannot_be_deleted_or_edited_even_by_a_superuser(client):
    rating_list = RatingList.objects.first()
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=timezone.localdate())
    RatingEntry.objects.create(snapshot=snapshot, player=PlayerFactory(), rank=1, rating=1000)
    root = get_user_model().objects.create_superuser("root", "root@example.org", "pass-word-123")
    client.force_login(root)
    assert client.get(f"/admin/ratings/ratingsnapshot/{snapshot.pk}/delete/").status_code == 403
    assert client.post(f"/admin/ratings/ratingsnapshot/{snapshot.pk}/delete/", {"post": "yes"}).status_code == 403
    response = client.post(
        "/admin/ratings/ratingsnapshot/",
        {"action": "delete_selected", "_selected_action": [snapshot.pk], "post": "yes"},
    )
    assert response.status_code in (200, 302)
    assert RatingSnapshot.objects.filter(pk=snapshot.pk).exists()
    assert client.post(f"/admin/ratings/ratinglist/{rating_list.pk}/delete/", {"post": "yes"}).status_code == 403
    assert RatingSnapshot.objects.filter(pk=snapshot.pk).exists()
    entry = RatingEntry.objects.get(snapshot=snapshot)
    assert client.post(f"/admin/ratings/ratingentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert RatingEntry.objects.filter(pk=entry.pk).exists()


def _game_form(server, finished, seats=()):
    data = {
        "external_id": "g-1",
        "played_at_0": "2026-03-07",
        "played_at_1": "12:00:00",
        "seats-TOTAL_FORMS": str(len(seats)),
        "seats-INITIAL_FORMS": str(len(seats)),
        "deals-TOTAL_FORMS": "0",
        "deals-INITIAL_FORMS": "0",
    }
    for i, seat in enumerate(seats):
        data.update({f"seats-{i}-id": seat.pk, f"seats-{i}-game": seat.game_id, f"seats-{i}-player": seat.player_id})
        data[f"seats-{i}-seat"] = seat.seat
    if server is not None:
        data["server"] = str(server.pk)
    if finished:
        data["finished"] = "on"
    return data


def test_organiser_cannot_reopen_or_move_a_server_game_nor_see_the_servers(client):
    server = GameServer.objects.create(name="Сервер Альфа", token_hash="a" * 64, token_prefix="aaaa")
    other = GameServer.objects.create(name="Сервер Бета", token_hash="b" * 64, token_prefix="bbbb")
    me = organiser()
    mine = Game.objects.create(server=None, external_id="g-0", finished=True, owner=me)
    my_seats = [Seat.objects.create(game=mine, player=PlayerFactory(), seat=n) for n in (1, 2, 3)]
    game = Game.objects.create(server=server, external_id="g-1", finished=True)
    seats = [Seat.objects.create(game=game, player=PlayerFactory(), seat=n) for n in (1, 2, 3)]
    client.force_login(me)
    page = client.get(f"/admin/preferans/game/{mine.pk}/change/").content.decode()
    assert "Сервер Бета" not in page  # no dropdown of every server
    listing = client.get("/admin/preferans/game/").content.decode()
    assert "Сервер Альфа" not in listing
    assert "Сервер Бета" not in listing
    response = client.post(f"/admin/preferans/game/{mine.pk}/change/", _game_form(other, False, my_seats))
    assert response.status_code == 302  # the rest of the form saves; the two fields are not in it
    mine.refresh_from_db()
    assert (mine.server_id, mine.finished) == (None, True)
    # A server's game is the federation's: an organiser does not reach it at all (issue 27).
    response = client.post(f"/admin/preferans/game/{game.pk}/change/", _game_form(other, False, seats))
    assert response.status_code == 302
    assert response["Location"].rstrip("/").endswith("/admin")
    game.refresh_from_db()
    assert (game.server_id, game.finished) == (server.pk, True)


def test_staff_may_set_a_games_server_and_finished_flag(client):
    server = GameServer.objects.create(name="Сервер Альфа", token_hash="a" * 64, token_prefix="aaaa")
    game = Game.objects.create(server=None, external_id="g-1", finished=True)
    seats = [Seat.objects.create(game=game, player=PlayerFactory(), seat=n) for n in (1, 2, 3)]
    client.force_login(federation_staff())
    page = client.get(f"/admin/preferans/game/{game.pk}/change/").content.decode()
    assert "Сервер Альфа" in page
    response = client.post(f"/admin/preferans/game/{game.pk}/change/", _game_form(server, False, seats))
    assert response.status_code == 302, response.content.decode()[-3000:]
    game.refresh_from_db()
    assert (game.server_id, game.finished) == (server.pk, False)


@pytest.mark.parametrize("role", [organiser, federation_staff])
def test_nobody_moves_a_dirs_rating_to_another_player(client, role):
    first, second = PlayerFactory(), PlayerFactory()
    rating = DirsRating.objects.create(player=first, rating=2600, initial_rating=2600, declared_rank="6d")
    client.force_login(role())
    client.post(f"/admin/dirs/dirsrating/{rating.pk}/change/", {"player": second.pk, "declared_rank": "6d"})
    rating.refresh_from_db()
    assert rating.player_id == first.pk


def _mahjong_form(tournament, **flags):
    data = _rename_form(tournament, tournament.name)
    data.update(discipline="mahjong", hanchans="8", participants="16", card_format="", k="")
    data.update({name: "on" for name, value in flags.items() if value})
    return data


def test_organiser_cannot_set_open_or_ema(client):
    me = organiser()
    tournament = TournamentFactory(
        organiser=me, discipline="mahjong", status=TournamentStatus.DRAFT, card_format="", k=None
    )
    client.force_login(me)
    client.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", _mahjong_form(tournament, is_open=True, ema=True)
    )
    tournament.refresh_from_db()
    assert (tournament.is_open, tournament.ema, tournament.open_ema_judged_by) == (False, False, None)


def test_staff_judge_open_and_ema_with_who_and_when(client):
    staff = federation_staff()
    tournament = TournamentFactory(
        organiser=organiser(), discipline="mahjong", status=TournamentStatus.DRAFT, card_format="", k=None
    )
    client.force_login(staff)
    response = client.post(
        f"/admin/tournaments/tournament/{tournament.pk}/change/", _mahjong_form(tournament, is_open=True, ema=True)
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(pk=tournament.pk)
    assert (tournament.is_open, tournament.ema, tournament.open_ema_judged_by) == (True, True, staff)
    assert tournament.open_ema_judged_at is not None


def test_organiser_cannot_add_a_deal_to_a_server_game(client):
    server = GameServer.objects.create(name="Сервер Альфа", token_hash="a" * 64, token_prefix="aaaa")
    game = Game.objects.create(server=server, external_id="g-1")
    seats = [Seat.objects.create(game=game, player=PlayerFactory(), seat=n) for n in (1, 2, 3)]
    client.force_login(organiser())
    data = {f"whists_{seat.player_id}": w for seat, w in zip(seats, (4, -2, -2), strict=True)}
    assert client.post(f"/admin/preferans/game/{game.pk}/deal/", data).status_code in (403, 404)
    assert not game.deals.exists()


def test_organisers_do_not_read_the_admin_log_of_a_game(client):
    game = Game.objects.create(external_id="g-1")
    client.force_login(organiser())
    assert client.get(f"/admin/preferans/game/{game.pk}/history/").status_code == 403
    client.force_login(federation_staff())
    assert client.get(f"/admin/preferans/game/{game.pk}/history/").status_code == 200
