"""What every write of the preferans rating shares: its error, the size of a table, whole whists."""

from __future__ import annotations

import math

from ratings.engines.common import FieldError

MIN_TABLE = 2
MAX_TABLE = 4


class PreferansError(FieldError):
    """Bad input for a preferans write: ``field`` names where (``deals[2].whists.15``), nothing was saved."""


def whole_whists(value, where: str) -> int:
    """Whists are whole numbers; an integral float (``3.0``, as some JSON writers send it) is taken as 3."""
    if type(value) is int:
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    raise PreferansError(where, f"{value!r} is not a whole number of whists")
