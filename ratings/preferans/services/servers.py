"""Game servers: the programs that post games and deals over the JSON API, each with a token of its own.

A token is shown once, when it is issued, and only its hash is kept (``GameServer.set_new_token``): the admin issues
tokens only through these services.
"""

from __future__ import annotations

from django.db import transaction

from ratings.preferans.models import GameServer


@transaction.atomic
def game_server_create(*, name: str, is_active: bool = True) -> tuple[GameServer, str]:
    """A new game server and its first token (to be shown once)."""
    server = GameServer(name=name, is_active=is_active)
    token = server.set_new_token()
    server.full_clean()
    server.save()
    return server, token


@transaction.atomic
def game_server_token_rotate(*, server: GameServer) -> str:
    """A new token for the server (to be shown once); the old one stops working at once."""
    token = server.set_new_token()
    server.save(update_fields=["token_hash", "token_prefix"])
    return token
