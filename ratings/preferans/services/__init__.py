"""Writes of the preferans rating (`rules/preferans.md`), one module per concern:

- ``rating_list``: the preferans ``RatingList`` and the engine's settings read from it;
- ``servers``: game servers and their tokens;
- ``games``: games, their tables, the players' rating rows;
- ``deals``: deals applied once and in order (the API, the admin, the admin's CSV import);
- ``bulk_import``: long histories, batch by batch, through ``ratings.bulk``'s ``COPY``.

Callers import from here.
"""

from ratings.preferans.services.bulk_import import (
    BulkDeal,
    BulkGame,
    BulkReport,
    analyze_after_import,
    deals_import_bulk,
)
from ratings.preferans.services.common import MAX_TABLE, MIN_TABLE, PreferansError
from ratings.preferans.services.deals import AppliedDeal, DealInput, ImportOutcome, deals_apply, deals_import_rows
from ratings.preferans.services.games import (
    STAFF_PERMISSION,
    game_create,
    game_finish,
    game_owned,
    games_owned,
    ratings_ensure,
    starting_state,
)
from ratings.preferans.services.rating_list import preferans_setup_defaults, rating_settings
from ratings.preferans.services.servers import game_server_create, game_server_token_rotate

__all__ = [
    "MAX_TABLE",
    "MIN_TABLE",
    "STAFF_PERMISSION",
    "AppliedDeal",
    "BulkDeal",
    "BulkGame",
    "BulkReport",
    "DealInput",
    "ImportOutcome",
    "PreferansError",
    "analyze_after_import",
    "deals_apply",
    "deals_import_bulk",
    "deals_import_rows",
    "game_create",
    "game_finish",
    "game_owned",
    "game_server_create",
    "game_server_token_rotate",
    "games_owned",
    "preferans_setup_defaults",
    "rating_settings",
    "ratings_ensure",
    "starting_state",
]
