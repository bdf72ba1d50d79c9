"""What every write of the preferans rating shares: its error, the size of a table, whole whists."""

from __future__ import annotations

import math

from federation.bounds import API_MAX_WHISTS
from ratings.engines.common import FieldError

MIN_TABLE = 2
MAX_TABLE = 4


class PreferansError(FieldError):
    """Bad input for a preferans write: ``field`` names where (``deals[2].whists.15``), nothing was saved."""


def whole_whists(value, where: str) -> int:
    """Whists are whole numbers; an integral float (``3.0``, as some JSON writers send it) is taken as 3.

    Every door (the game servers' API, the admin, the CSV and bulk imports) holds them within
    ``federation.bounds.API_MAX_WHISTS`` either way: the rules give no bound, and one deal of 2,000,000,000 whists
    would move a rating by some 90,000 points.
    """
    if type(value) is int:
        whole = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        whole = int(value)
    else:
        raise PreferansError(where, f"{value!r} is not a whole number of whists")
    if abs(whole) > API_MAX_WHISTS:
        raise PreferansError(where, f"{whole} whists: a deal gives from -{API_MAX_WHISTS} to {API_MAX_WHISTS}")
    return whole


class DealConflict(PreferansError):
    """A deal id the server already sent, now with other content (another game, other whists): nothing is written,
    and the answer shows ``stored``, the deal as it was stored."""

    def __init__(self, field: str, message: str, *, stored):
        super().__init__(field, message)
        self.stored = stored


class ForeignGame(PreferansError):
    """A deal for a game of another game server (the API answers 403)."""
