"""Reading the engines' input: one check and one wording for each kind of mistake, whatever the rating system.

``manage.py rate`` hands each engine a parsed JSON document; the engines' own dataclasses are checked with the same
tests. Every helper takes the field's path as the caller spells it (``tournaments[3].results[7].place``) and raises
:class:`EngineError` naming it, so a person can find the mistake in their file from the one line printed. The
``parse_*`` helpers return the value they accept, which lets a caller read and check in one expression.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Collection
from typing import Any, TypeVar

from ratings.engines.common import EngineError

T = TypeVar("T")

#: `RATE_CLI.md`: dates are ISO ``YYYY-MM-DD``, nothing looser (no week dates, no ``20250601``).
_ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_number(value: Any) -> bool:
    """A finite int or float; ``True`` is not a number here, although Python counts it as 1."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def is_whole(value: Any) -> bool:
    """An int that is not a bool (``3.0`` is not whole: callers that accept it call :func:`integral` first)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_date(value: Any) -> bool:
    """A calendar date; a datetime is refused, since comparing it with a date raises."""
    return isinstance(value, dt.date) and not isinstance(value, dt.datetime)


def integral(value: Any) -> Any:
    """``3.0`` as ``3``, for fields where a JSON writer may put a whole number as a float; anything else unchanged."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def at(path: str, key: str) -> str:
    """The path of ``key`` inside ``path`` (the document's top level has the empty path)."""
    return f"{path}.{key}" if path else key


def require(obj: dict[str, Any], key: str, path: str = "", *, hint: str = "") -> Any:
    """``obj[key]``, or an error naming the missing key; ``hint`` says what belongs there."""
    if key not in obj:
        raise EngineError(at(path, key), f"missing{hint}")
    return obj[key]


def check_keys(obj: dict[str, Any], allowed: Collection[str], path: str = "") -> None:
    """Refuse a key the reader does not know, so that a misspelt option is not silently ignored."""
    for key in obj:
        if key not in allowed:
            raise EngineError(at(path, str(key)), f"unknown key (expected one of {', '.join(sorted(allowed))})")


def parse_object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise EngineError(path, "is not an object")
    return value


def parse_list(value: Any, path: str, *, what: str = "a list") -> list[Any]:
    if not isinstance(value, list):
        raise EngineError(path, f"is not {what}")
    return value


def parse_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise EngineError(path, f"{value!r} is not true or false")
    return value


def parse_str(value: Any, path: str) -> str:
    """A non-empty string: ids and country codes, where an empty one would match nothing."""
    if not isinstance(value, str) or not value:
        raise EngineError(path, f"{value!r} is not a non-empty string")
    return value


def parse_int(value: Any, path: str, *, minimum: int | None = None) -> int:
    if not is_whole(value):
        raise EngineError(path, f"{value!r} is not a whole number")
    if minimum is not None and value < minimum:
        raise EngineError(path, f"{value} is smaller than {minimum}")
    return value


def parse_number(value: Any, path: str) -> float:
    if not is_number(value):
        raise EngineError(path, f"{value!r} is not a number")
    return value


def parse_date(value: Any, path: str) -> dt.date:
    """An ISO ``YYYY-MM-DD`` string (or a date, from callers that already hold one)."""
    if is_date(value):
        return value
    if isinstance(value, str) and _ISO_DATE.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise EngineError(path, f"{value!r} is not a date (YYYY-MM-DD)")


def parse_map(value: Any, path: str, parse_value: Callable[[Any, str], T], *, what: str = "number") -> dict[str, T]:
    """An object of player: value (ratings, bots' maxima, accelerations), each value read by ``parse_value``."""
    if not isinstance(value, dict):
        raise EngineError(path, f"is not an object of player: {what}")
    return {name: parse_value(item, f"{path}.{name}") for name, item in value.items()}
