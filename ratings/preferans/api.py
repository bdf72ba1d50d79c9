"""The game servers' JSON API (no language prefix), on django-ninja: a token per server, sent as
``Authorization: Bearer <token>``; the OpenAPI document is at ``/api/preferans/openapi.json`` and its pages at
``/api/preferans/docs/``.

    POST /api/preferans/games/                 {"id": "g-42", "players": [12, 15, 17], "date": "2026-03-07T19:00"}
    POST /api/preferans/deals/                 one deal {"id": "d-1", "game": "g-42", "whists": {"12": -5, ...}}
                                               or a batch {"deals": [ ... ]}; "finish": true ends the game after it
    POST /api/preferans/games/<pk>/deals/      the same for the game with the site's id <pk>
    POST /api/preferans/games/<pk>/finish/     the game takes no more deals (left early: the deals played stay)

A deal's "game" may also be an object {"id", "players", "date"}: the game is created with its first deal. Every
request is validated by its schema (``api_schemas``) and then by the rules (the services). Errors are
``{"errors": [{"field": ..., "message": ...}]}``, always JSON: 400 (bad data), 403 (token, or another server's
game), 405 (a method other than POST), 409 (a deal id the server already sent, with other content: the answer adds
``"stored"``, the deal as stored), 413 (a body over ``federation.bounds.API_MAX_BODY_BYTES``); nothing is saved.
A deal whose id the server already sent with the same content is answered again with ``"applied": false``.

**Decision (language):** the messages of this API are written in English whatever the request's
``Accept-Language``: its readers are the game servers' developers, and its messages stay the ones its documentation
and the servers' logs know. (The public API ``/api/v1/`` answers in the language asked, Russian by default.)
"""

from __future__ import annotations

from django.db import transaction
from django.http import JsonResponse
from ninja.security import HttpBearer

from federation.api.common import JsonApi, JsonBodyParser, install_error_handlers
from federation.bounds import API_MAX_ID
from ratings.preferans import selectors
from ratings.preferans.api_schemas import (
    BatchIn,
    BatchOut,
    ConflictOut,
    DealIn,
    DealOut,
    DealsBody,
    ErrorsOut,
    GameIn,
    GameOut,
)
from ratings.preferans.models import Game, GameServer
from ratings.preferans.models import hash_token as _hash
from ratings.preferans.services import (
    AppliedDeal,
    DealInput,
    PreferansError,
    deals_apply,
    game_create,
    game_finish,
)
from ratings.preferans.services.common import DealConflict, ForeignGame

AUTH_MESSAGE = 'send the server\'s token as "Authorization: Bearer <token>"'


class ServerToken(HttpBearer):
    """The token's hash, with no query: the operations check it against the servers (a deal to a game's address
    with the game)."""

    def authenticate(self, request, token: str) -> str | None:
        token = token.strip()
        return _hash(token) if token else None


api = JsonApi(
    title="Game servers' API",
    language_of=lambda request: "en",
    version="1",
    description=__doc__,
    urls_namespace="preferans_api",
    auth=ServerToken(),
    parser=JsonBodyParser(),
    docs_url="/docs/",
    openapi_url="/openapi.json",
)
install_error_handlers(api, auth_message=AUTH_MESSAGE)

ERRORS = {400: ErrorsOut, 403: ErrorsOut, 405: ErrorsOut, 409: ConflictOut, 413: ErrorsOut}


class Forbidden(PreferansError):
    pass


api.add_exception_handler(Forbidden, lambda request, exc: _error(exc.field, exc.message, 403))
api.add_exception_handler(ForeignGame, lambda request, exc: _error(exc.field, exc.message, 403))
api.add_exception_handler(DealConflict, lambda request, exc: _conflict(exc))


def _error(field: str, message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"errors": [{"field": field, "message": message}], **extra}, status=status)


def _server(token_hash: str) -> GameServer:
    server = selectors.game_server_for_token(token_hash=token_hash)
    if server is None:
        raise Forbidden("Authorization", "unknown or disabled token")
    return server


def _game_pk(pk: int) -> int:
    if not 0 < pk <= API_MAX_ID:
        raise PreferansError("game", f"there is no game {pk}")
    return pk


def _own_game(server: GameServer, game: Game, where: str) -> Game:
    if game.server_id != server.pk:
        raise Forbidden(where, "this game belongs to another game server")
    return game


def _game_from_object(server: GameServer, raw: GameIn, where: str) -> Game:
    game, _created = game_create(
        server=server, external_id=raw.id, player_ids=raw.players, played_at=raw.date, where=f"{where}.players"
    )
    return game


def _deal_inputs(server: GameServer, deals: list[DealIn], batch: bool, url_game: Game | None) -> list[DealInput]:
    games: dict[str, Game] = {}
    inputs = []
    for index, raw in enumerate(deals):
        where = f"deals[{index}]" if batch else "deal"
        base = f"{where}." if batch else ""
        if url_game is not None:
            game = url_game
        elif isinstance(raw.game, GameIn):
            game = _game_from_object(server, raw.game, f"{base}game")
        elif raw.game is None:
            raise PreferansError(f"{base}game", "is missing")
        else:
            game = games.get(raw.game) or selectors.server_game(server=server, external_id=raw.game)
            if game is None:
                raise PreferansError(f"{base}game", f'there is no game "{raw.game}" of this server')
        games[game.external_id] = game
        inputs.append(
            DealInput(game=game, whists=raw.whists, external_id=raw.id, finish=raw.finish, where=where if batch else "")
        )
    return inputs


def _change_rows(rows) -> list[dict]:
    return [
        {
            "player": row.player_id,
            "whists": row.whists,
            "before": row.rating_before,
            "after": row.rating_after,
            "delta": row.delta,
        }
        for row in rows
    ]


def _deal_json(deal, applied: bool, rows) -> dict:
    return {
        "id": deal.external_id,
        "deal": deal.pk,
        "game": deal.game_id,
        "number": deal.number,
        "applied": applied,
        "changes": _change_rows(rows),
    }


def _answers(applied: list[AppliedDeal], inputs: list[DealInput]) -> list[dict]:
    """The answer of each deal; a replay is answered as stored, and one whose whists differ from the stored ones is
    a conflict (409, raised inside the request's transaction: nothing of the request is kept)."""
    stored = selectors.stored_results(deal_ids=[item.deal.pk for item in applied if not item.applied])
    items = []
    for item, sent in zip(applied, inputs, strict=True):
        if item.applied:
            items.append(_deal_json(item.deal, True, item.results))
            continue
        rows = stored.get(item.deal.pk, [])
        was = {row.player_id: row.whists for row in rows}
        now = {int(key): int(value) for key, value in sent.whists.items()}
        if was != now:
            raise DealConflict(
                f"{sent.where}.id" if sent.where else "id",
                f'deal "{item.deal.external_id}" was stored with other whists; a deal id is sent once',
                stored=item.deal,
            )
        items.append(_deal_json(item.deal, False, rows))
    return items


def _conflict(exc: DealConflict) -> JsonResponse:
    rows = selectors.stored_results(deal_ids=[exc.stored.pk]).get(exc.stored.pk, [])
    return _error(exc.field, exc.message, 409, stored=_deal_json(exc.stored, False, rows))


def _fix_field(error: PreferansError) -> PreferansError:
    """A single deal's errors name its fields plainly ("whists.12"), not "deal.whists.12"."""
    if isinstance(error, DealConflict):
        field = error.field.removeprefix("deal.").removeprefix(".")
        return DealConflict(field, error.message, stored=error.stored)
    if error.field.startswith("deal."):
        return type(error)(error.field.removeprefix("deal."), error.message)
    if error.field.startswith("."):
        return type(error)(error.field[1:], error.message)
    return error


def _post_deals(request, payload: DealsBody, pk: int | None) -> JsonResponse:
    body = payload.root
    batch = isinstance(body, BatchIn)
    deals = body.deals if batch else [body]
    token_hash = request.auth
    with transaction.atomic():
        # A game's address: the game, its server and its table are checked and locked by ``deals_apply``.
        game = None if pk is None else Game(pk=_game_pk(pk))
        server = _server(token_hash)
        inputs = _deal_inputs(server, deals, batch, game)
        try:
            applied = deals_apply(deals=inputs, server=server)
            items = _answers(applied, inputs)
        except PreferansError as error:
            raise _fix_field(error) from None
    status = 201 if any(item.applied for item in applied) else 200
    return JsonResponse({"deals": items} if batch else items[0], status=status)


DEALS_RESPONSES = {200: DealOut | BatchOut, 201: DealOut | BatchOut, **ERRORS}


@api.post("/deals/", response=DEALS_RESPONSES, url_name="deals", summary="Post a deal or a batch of deals")
def deals_post(request, payload: DealsBody):
    """Deals of games named by the server's game id (or created with their first deal). 201 when a deal was applied,
    200 when every deal was a replay answered as stored."""
    return _post_deals(request, payload, None)


@api.post(
    "/games/{pk}/deals/", response=DEALS_RESPONSES, url_name="game_deals", summary="Post deals to a game's address"
)
def game_deals_post(request, pk: int, payload: DealsBody):
    """The game server's usual request: one deal of the game with the site's id ``pk``."""
    return _post_deals(request, payload, pk)


@api.post("/games/", response={200: GameOut, 201: GameOut, **ERRORS}, url_name="games", summary="Create a game")
def game_post(request, payload: GameIn):
    """Create a game with its table; the same id again returns the stored game (200), if its table is the same."""
    with transaction.atomic():
        server = _server(request.auth)
        game, created = game_create(
            server=server, external_id=payload.id, player_ids=payload.players, played_at=payload.date
        )
        return JsonResponse(_game_json(game), status=201 if created else 200)


@api.post("/games/{pk}/finish/", response={200: GameOut, **ERRORS}, url_name="game_finish", summary="Finish a game")
def game_finish_post(request, pk: int):
    """The game takes no more deals; a game left early keeps the deals played."""
    with transaction.atomic():
        server = _server(request.auth)
        game = Game.objects.filter(pk=_game_pk(pk)).first()
        if game is None:
            raise PreferansError("game", f"there is no game {pk}")
        _own_game(server, game, "game")
        return JsonResponse(_game_json(game_finish(game=game)))


def _game_json(game: Game) -> dict:
    return {
        "game": game.pk,
        "id": game.external_id,
        "date": game.played_at.isoformat(),
        "finished": game.finished,
        "players": selectors.game_table(game=game),
    }
