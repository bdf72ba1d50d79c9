"""Reading a CSV of deals for the admin import: one row per player per deal, checked row by row.

    game;date;deal;player_id;whists
    club-2026-03-07-1;2026-03-07;1;12;-5
    club-2026-03-07-1;2026-03-07;1;15;3
    club-2026-03-07-1;2026-03-07;1;17;2

Rows with the same game and deal form one deal, in the order of the file. A game not yet stored is created with the
players of its first deal as its table; ``date`` (ISO) is read from a game's first row and may be empty.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from federation.uploads import ImportFileError
from ratings.preferans.models import Deal, Game

COLUMNS = ("game", "date", "deal", "player_id", "whists")
#: The longest game and deal ids the database keeps.
GAME_ID_LENGTH = Game._meta.get_field("external_id").max_length
DEAL_ID_LENGTH = Deal._meta.get_field("external_id").max_length


@dataclass
class ParsedDeal:
    game: str
    deal: str
    date: datetime.date | None
    rows: list[int] = field(default_factory=list)
    whists: dict[int, int] = field(default_factory=dict)


@dataclass
class RowError:
    row: int
    field: str
    message: str


@dataclass
class ParsedFile:
    deals: list[ParsedDeal]
    errors: list[RowError]

    @property
    def is_clean(self) -> bool:
        return not self.errors


def _rows(reader):
    """The rows after the header, numbered from 2; a row the csv module cannot read stops the file by its number."""
    line = 1
    try:
        for line, values in enumerate(reader, start=2):
            yield line, values
    except csv.Error as error:
        raise ImportFileError(
            _("Row %(row)s cannot be read as CSV (%(reason)s).") % {"row": line + 1, "reason": error}
        ) from None


def deals_parse(content: bytes) -> ParsedFile:
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFileError(_("The file is not UTF-8 text.")) from None
    if not text.strip():
        raise ImportFileError(_("The file is empty."))
    end = text.find("\n")
    first = text if end < 0 else text[:end]  # the first line only: a long history has millions
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    # newline="": the csv module splits the lines itself (\r\n, \n or a lone \r, as old spreadsheets write them)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [name.strip().lower() for name in next(reader)]
    except csv.Error as error:
        raise ImportFileError(_("Row 1 cannot be read as CSV (%(reason)s).") % {"reason": error}) from None
    missing = [name for name in COLUMNS if name not in header]
    if missing:
        raise ImportFileError(_("Missing columns: %(columns)s.") % {"columns": ", ".join(missing)})
    game_at, date_at, deal_at, player_at, whists_at = (header.index(name) for name in COLUMNS)
    width = max(game_at, date_at, deal_at, player_at, whists_at) + 1
    deals: dict[tuple[str, str], ParsedDeal] = {}
    errors: list[RowError] = []
    days: dict[str, datetime.date | None] = {"": None}
    for line, values in _rows(reader):
        if len(values) < width:
            if not "".join(values).strip():
                continue
            values = values + [""] * (width - len(values))
        game, day_text, deal_key = values[game_at].strip(), values[date_at].strip(), values[deal_at].strip()
        if not game:
            if not "".join(values).strip():
                continue
            errors.append(RowError(line, "game", _("The game is empty.")))
            continue
        if not deal_key:
            errors.append(RowError(line, "deal", _("The deal is empty.")))
            continue
        if len(game) > GAME_ID_LENGTH or len(deal_key) > DEAL_ID_LENGTH:
            column, limit = ("game", GAME_ID_LENGTH) if len(game) > GAME_ID_LENGTH else ("deal", DEAL_ID_LENGTH)
            errors.append(RowError(line, column, _("Longer than %(limit)s characters.") % {"limit": limit}))
            continue
        day = days.get(day_text, False)
        if day is False:
            try:
                day = days[day_text] = datetime.date.fromisoformat(day_text)
            except ValueError:
                errors.append(
                    RowError(line, "date", _("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": day_text})
                )
                continue
        try:
            player_id = int(values[player_at])
            if player_id <= 0:
                raise ValueError
        except ValueError:
            value = values[player_at].strip()
            errors.append(RowError(line, "player_id", _("“%(value)s” is not a player id.") % {"value": value}))
            continue
        try:
            whists = int(values[whists_at])
        except ValueError:
            value = values[whists_at].strip()
            errors.append(
                RowError(line, "whists", _("“%(value)s” is not a whole number of whists.") % {"value": value})
            )
            continue
        key = (game, deal_key)
        deal = deals.get(key)
        if deal is None:
            deal = deals[key] = ParsedDeal(game=game, deal=deal_key, date=day)
        if player_id in deal.whists:
            errors.append(RowError(line, "player_id", _("Player %(id)s is twice in this deal.") % {"id": player_id}))
            continue
        deal.rows.append(line)
        deal.whists[player_id] = whists
    return ParsedFile(deals=list(deals.values()), errors=errors)
