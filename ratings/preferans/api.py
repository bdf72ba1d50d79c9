"""The game servers' JSON API (no language prefix): a token per server, sent as ``Authorization: Bearer <token>``.

    POST /api/preferans/games/                 {"id": "g-42", "players": [12, 15, 17], "date": "2026-03-07T19:00"}
    POST /api/preferans/deals/                 one deal {"id": "d-1", "game": "g-42", "whists": {"12": -5, ...}}
                                               or a batch {"deals": [ ... ]}; "finish": true ends the game after it
    POST /api/preferans/games/<pk>/deals/      the same for the game with the site's id <pk>
    POST /api/preferans/games/<pk>/finish/     the game takes no more deals (left early: the deals played stay)

A deal's "game" may also be an object {"id", "players", "date"}: the game is created with its first deal. Errors are
``{"errors": [{"field": ..., "message": ...}]}`` with status 400 (bad data) or 403 (token, or another server's
game), and nothing is saved. A deal whose "id" the server already sent is answered again with ``"applied": false``.
"""

from __future__ import annotations

import datetime
import json

from django.db import transaction
from django.http import JsonResponse
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from ratings.preferans import selectors
from ratings.preferans.models import Game, GameServer, hash_token
from ratings.preferans.services import (
    AppliedDeal,
    DealInput,
    PreferansError,
    deals_apply,
    game_create,
    game_finish,
    game_lock_for_token,
)

MAX_BATCH = 1000
MAX_BODY = 2 * 1024 * 1024


class Forbidden(PreferansError):
    pass


def _error(field: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"errors": [{"field": field, "message": message}]}, status=status)


def _token(request) -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Forbidden("Authorization", 'send the server\'s token as "Authorization: Bearer <token>"')
    return hash_token(token.strip())


def _server(request) -> GameServer:
    server = selectors.game_server_for_token(token_hash=_token(request))
    if server is None:
        raise Forbidden("Authorization", "unknown or disabled token")
    return server


def _server_and_game(request, pk: int) -> tuple[GameServer, Game]:
    """The token's server and the game ``pk`` it posts to, in one query; the game is locked by ``deals_apply``."""
    found = selectors.token_and_game(token_hash=_token(request), game_id=pk)
    if found is None:
        raise Forbidden("Authorization", "unknown or disabled token")
    if found.game_server_id is None:
        raise PreferansError("game", f"there is no game {pk}")
    game = Game(id=pk, server_id=found.game_server_id or None)
    game._state.adding = False
    return found.server, _own_game(found.server, game, "game")


def _body(request):
    if len(request.body) > MAX_BODY:
        raise PreferansError("body", f"is larger than {MAX_BODY} bytes")
    try:
        return json.loads(request.body or b"null")
    except (ValueError, UnicodeDecodeError) as error:
        raise PreferansError("body", f"is not JSON: {error}") from None


def _text_id(value, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise PreferansError(where, f"{value!r} is not a string or a number")
    text = str(value).strip()
    if not text or len(text) > 100:
        raise PreferansError(where, "must have 1 to 100 characters")
    return text


def _when(value, where: str) -> datetime.datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise PreferansError(where, f"{value!r} is not an ISO date")
    moment = parse_datetime(value)
    if moment is None:
        day = parse_date(value)
        if day is None:
            raise PreferansError(where, f'"{value}" is not an ISO date or date and time')
        moment = datetime.datetime.combine(day, datetime.time(12))
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return moment


def _game_from_object(server: GameServer, raw: dict, where: str) -> Game:
    external_id = _text_id(raw.get("id"), f"{where}.id")
    game, _created = game_create(
        server=server,
        external_id=external_id,
        player_ids=raw.get("players"),
        played_at=_when(raw.get("date"), f"{where}.date"),
        where=f"{where}.players",
    )
    return game


def _own_game(server: GameServer, game: Game, where: str) -> Game:
    if game.server_id != server.pk:
        raise Forbidden(where, "this game belongs to another game server")
    return game


def _deal_inputs(server: GameServer, payload, url_game: Game | None) -> list[DealInput]:
    if isinstance(payload, dict) and "deals" in payload:
        raw_deals, prefix = payload["deals"], "deals"
        if not isinstance(raw_deals, list) or not raw_deals:
            raise PreferansError("deals", "is not a non-empty list")
        if len(raw_deals) > MAX_BATCH:
            raise PreferansError("deals", f"a batch holds at most {MAX_BATCH} deals")
    elif isinstance(payload, dict):
        raw_deals, prefix = [payload], None
    else:
        raise PreferansError("body", 'is not a deal object or {"deals": [...]}')
    games: dict[str, Game] = {}
    inputs = []
    for index, raw in enumerate(raw_deals):
        where = f"{prefix}[{index}]" if prefix else "deal"
        base = f"{where}." if prefix else ""
        if not isinstance(raw, dict):
            raise PreferansError(where, "is not an object")
        external_id = _text_id(raw.get("id"), f"{base}id")
        if "whists" not in raw:
            raise PreferansError(f"{base}whists", "is missing")
        finish = raw.get("finish", False)
        if not isinstance(finish, bool):
            raise PreferansError(f"{base}finish", f"{finish!r} is not true or false")
        if url_game is not None:
            game = url_game
        else:
            ref = raw.get("game")
            if isinstance(ref, dict):
                game = _game_from_object(server, ref, f"{base}game")
            else:
                key = _text_id(ref, f"{base}game")
                game = games.get(key) or selectors.server_game(server=server, external_id=key)
                if game is None:
                    raise PreferansError(f"{base}game", f'there is no game "{key}" of this server')
            games[game.external_id] = game
        inputs.append(
            DealInput(
                game=game,
                whists=raw["whists"],
                external_id=external_id,
                finish=finish,
                where=where if prefix else "",
            )
        )
    return inputs


def _changes(applied: list[AppliedDeal]) -> dict[int, list[dict]]:
    stored = selectors.stored_results(deal_ids=[item.deal.pk for item in applied if not item.applied])
    out = {}
    for item in applied:
        rows = item.results if item.applied else stored.get(item.deal.pk, [])
        out[item.deal.pk] = [
            {
                "player": row.player_id,
                "whists": row.whists,
                "before": row.rating_before,
                "after": row.rating_after,
                "delta": row.delta,
            }
            for row in rows
        ]
    return out


def _deals_response(applied: list[AppliedDeal], batch: bool) -> JsonResponse:
    changes = _changes(applied)
    items = [
        {
            "id": item.deal.external_id,
            "deal": item.deal.pk,
            "game": item.deal.game_id,
            "number": item.deal.number,
            "applied": item.applied,
            "changes": changes[item.deal.pk],
        }
        for item in applied
    ]
    status = 201 if any(item.applied for item in applied) else 200
    return JsonResponse({"deals": items} if batch else items[0], status=status)


def _handle(request, work):
    try:
        with transaction.atomic():
            return work()
    except Forbidden as error:
        return _error(error.field, error.message, 403)
    except PreferansError as error:
        return _error(error.field, error.message, 400)


def _fix_field(error: PreferansError) -> PreferansError:
    """A single deal's errors name its fields plainly ("whists.12"), not "deal.whists.12"."""
    if error.field.startswith("deal."):
        return type(error)(error.field.removeprefix("deal."), error.message)
    if error.field.startswith("."):
        return type(error)(error.field[1:], error.message)
    return error


@csrf_exempt
@require_POST
def deals_post(request, pk: int | None = None):
    def work():
        locked = None
        if pk is None:
            server, game = _server(request), None
        else:
            # The usual request: the token, the game, its table and its players' ratings checked and locked in one
            # statement; when something is off, the separate checks below say what.
            locked = game_lock_for_token(token_hash=_token(request), game_id=pk)
            if locked is not None:
                server, game = locked.server, locked.game
            else:
                server, game = _server_and_game(request, pk)
        payload = _body(request)
        inputs = _deal_inputs(server, payload, game)
        try:
            applied = deals_apply(deals=inputs, server=server, locked=locked)
        except PreferansError as error:
            raise _fix_field(error) from None
        return _deals_response(applied, batch=isinstance(payload, dict) and "deals" in payload)

    return _handle(request, work)


@csrf_exempt
@require_POST
def game_post(request):
    def work():
        server = _server(request)
        payload = _body(request)
        if not isinstance(payload, dict):
            raise PreferansError("body", "is not a game object")
        external_id = _text_id(payload.get("id"), "id")
        game, created = game_create(
            server=server,
            external_id=external_id,
            player_ids=payload.get("players"),
            played_at=_when(payload.get("date"), "date"),
        )
        return JsonResponse(_game_json(game), status=201 if created else 200)

    return _handle(request, work)


@csrf_exempt
@require_POST
def game_finish_post(request, pk: int):
    def work():
        server = _server(request)
        game = Game.objects.filter(pk=pk).first()
        if game is None:
            raise PreferansError("game", f"there is no game {pk}")
        _own_game(server, game, "game")
        return JsonResponse(_game_json(game_finish(game=game)))

    return _handle(request, work)


def _game_json(game: Game) -> dict:
    return {
        "game": game.pk,
        "id": game.external_id,
        "date": game.played_at.isoformat(),
        "finished": game.finished,
        "players": selectors.game_table(game=game),
    }
