"""The game servers' requests and answers as schemas (django-ninja/pydantic): every request is validated by them
before anything is read from the database, and the OpenAPI document at ``/api/preferans/openapi.json`` is made of
them. The bounds are ``federation.bounds``' "Game-server API" section; the table's own rules (2 to 4 players, whists
summing to zero, the players seated) are the services' checks, which name the field the same way.
"""

from __future__ import annotations

import datetime
import math
from typing import Annotated, Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from ninja import Schema
from pydantic import BeforeValidator, Discriminator, Field, RootModel, StrictBool, Tag, WithJsonSchema
from pydantic_core import PydanticCustomError

from federation.bounds import (
    API_GAME_DATE_AHEAD,
    API_GAME_DATE_MIN,
    API_MAX_BATCH,
    API_MAX_ID,
    API_MAX_ID_CHARS,
    API_MAX_WHISTS,
)
from ratings.preferans.services import MAX_TABLE, MIN_TABLE


def _refuse(message: str) -> PydanticCustomError:
    return PydanticCustomError("value_error", message)


def text_id(value: Any) -> str:
    """A server's own id: a string or a whole number, 1 to 100 printable characters once trimmed."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _refuse(f"{value!r} is not a string or a number"[:200])
    try:
        text = str(value).strip()
    except ValueError:  # an integer of thousands of digits
        raise _refuse("is too long") from None
    if not 1 <= len(text) <= API_MAX_ID_CHARS:
        raise _refuse(f"must have 1 to {API_MAX_ID_CHARS} characters")
    for char in text:
        if char < " " or char == "\x7f" or "\ud800" <= char <= "\udfff":
            raise _refuse(f"holds the character U+{ord(char):04X}, which an id may not hold")
    return text


def whists_value(value: Any) -> int:
    """Whole whists (an integral float such as 3.0 is 3) within the bound, either way."""
    if type(value) is int:
        whole = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        whole = int(value)
    else:
        raise _refuse(f"{value!r} is not a whole number of whists"[:200])
    if abs(whole) > API_MAX_WHISTS:
        raise _refuse(f"{whole} whists: a deal gives from -{API_MAX_WHISTS} to {API_MAX_WHISTS}"[:200])
    return whole


def table(value: Any) -> list[int]:
    """A game's players: 2 to 4 site player ids, each once."""
    if not isinstance(value, list) or not value:
        raise _refuse("is not a list of player ids")
    for item in value:
        if type(item) is not int or not 0 < item <= API_MAX_ID:
            raise _refuse(f"{item!r} is not a player id"[:200])
    if len(set(value)) != len(value):
        raise _refuse("names a player twice")
    if not MIN_TABLE <= len(value) <= MAX_TABLE:
        raise _refuse(f"a table has {MIN_TABLE} to {MAX_TABLE} players, this one has {len(value)}")
    return value


def game_date(value: Any) -> datetime.datetime | None:
    """An ISO date (the game is put at noon) or date and time, from 2000-01-01 to a day ahead of the site's clock."""
    if value is None:
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise _refuse(f"{value!r} is not an ISO date"[:200])
    try:
        moment = parse_datetime(value)
        if moment is None:
            day = parse_date(value)
            if day is None:
                raise _refuse(f'"{value}" is not an ISO date or date and time')
            moment = datetime.datetime.combine(day, datetime.time(12))
    except ValueError as error:  # 2026-02-30, month 13, hour 25: the shape of a date, but no such day or time
        raise _refuse(f'"{value}" is no such date or time: {error}') from None
    try:
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment)
        latest = timezone.now() + API_GAME_DATE_AHEAD
        earliest = timezone.make_aware(datetime.datetime.combine(API_GAME_DATE_MIN, datetime.time()))
        in_range = earliest <= moment <= latest
    except (OverflowError, ValueError):
        in_range = False
    if not in_range:
        raise _refuse(f'"{value}" is outside {API_GAME_DATE_MIN.isoformat()} to a day from now')
    return moment


TextId = Annotated[
    str,
    BeforeValidator(text_id),
    WithJsonSchema(
        {
            "oneOf": [
                {"type": "string", "minLength": 1, "maxLength": API_MAX_ID_CHARS},
                {"type": "integer"},
            ],
            "description": "the server's own id: 1 to 100 printable characters, or a whole number",
        }
    ),
]
Whists = Annotated[
    int,
    BeforeValidator(whists_value),
    WithJsonSchema({"type": "integer", "minimum": -API_MAX_WHISTS, "maximum": API_MAX_WHISTS}),
]
Table = Annotated[
    list[int],
    BeforeValidator(table),
    WithJsonSchema(
        {
            "type": "array",
            "items": {"type": "integer", "minimum": 1},
            "minItems": MIN_TABLE,
            "maxItems": MAX_TABLE,
            "uniqueItems": True,
        }
    ),
]
GameDate = Annotated[
    datetime.datetime | None,
    BeforeValidator(game_date),
    WithJsonSchema(
        {
            "type": "string",
            "description": "ISO date (the game is put at noon) or date and time, from 2000-01-01 to a day from now",
            "example": "2026-03-07T19:00",
        }
    ),
]


class GameIn(Schema):
    """A game: the server's id, its table, and when it was played (now when left out)."""

    id: TextId
    players: Table
    date: GameDate = None


def _game_kind(value: Any) -> str:
    return "object" if isinstance(value, dict) else "ref"


GameRef = Annotated[
    Annotated[TextId, Tag("ref")] | Annotated[GameIn, Tag("object")],
    Discriminator(_game_kind),
]


class DealIn(Schema):
    """One deal: the server's id, the game (the server's id, or the game itself to create it with its first deal;
    left out when posted to the game's address), the whists of each player at the table (2 at least; a player who has
    left the game is left out), and whether it ends the game."""

    id: TextId
    game: GameRef | None = None
    whists: dict[str, Whists] = Field(
        json_schema_extra={"propertyNames": {"pattern": "^[0-9]+$"}, "minProperties": 2, "maxProperties": 4}
    )
    finish: StrictBool = False


class BatchIn(Schema):
    deals: list[DealIn] = Field(min_length=1, max_length=API_MAX_BATCH)


def _body_kind(value: Any) -> str:
    if not isinstance(value, dict):
        return "invalid"
    return "batch" if "deals" in value else "deal"


class DealsBody(RootModel):
    """One deal, or ``{"deals": [...]}``: a batch applied in order, all or nothing."""

    root: Annotated[Annotated[BatchIn, Tag("batch")] | Annotated[DealIn, Tag("deal")], Discriminator(_body_kind)]


class ChangeOut(Schema):
    player: int
    whists: int
    before: float
    after: float
    delta: float


class DealOut(Schema):
    id: str = Field(description="the server's deal id")
    deal: int = Field(description="the site's deal id")
    game: int = Field(description="the site's game id")
    number: int = Field(description="the deal's number in its game, from 1")
    applied: bool = Field(description="false: the deal was stored before (a replay) and is answered as stored")
    changes: list[ChangeOut]


class BatchOut(Schema):
    deals: list[DealOut]


class GameOut(Schema):
    game: int = Field(description="the site's game id")
    id: str = Field(description="the server's game id")
    date: datetime.datetime
    finished: bool
    players: list[int]


class ErrorItem(Schema):
    field: str = Field(description="where: a path into the request (deals[2].whists.15), or a header's name")
    message: str


class ErrorsOut(Schema):
    errors: list[ErrorItem]


class ConflictOut(Schema):
    errors: list[ErrorItem]
    stored: DealOut = Field(description="the deal as it was stored under this id")
