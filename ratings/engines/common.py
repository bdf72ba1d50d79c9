"""What every rating engine shares: the one error type for bad data, the bilingual explanation, rounding.

Engines are pure Python, standard library only: no Django, no ORM (an import-linter contract keeps it so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal


class FieldError(ValueError):
    """Bad input, named by where it is: the one error base of the site (engines, services, imports, calculators).

    ``field`` is a path into the input as the caller gave it (``tournaments[3].results[7].place``, a form field, a
    file's row and column), ``message`` says what is wrong with the value in plain words. ``str(error)`` is the one
    line ``manage.py rate`` prints. It lives here, on the ground floor, because the pure engines may import nothing
    else; every other error of the site that names a field derives from it.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message


class EngineError(FieldError):
    """Bad input data for an engine: the only exception an engine raises on purpose."""


@dataclass(frozen=True)
class Explanation:
    """The formula with this player's numbers filled in, once in English and once in Russian."""

    en: str
    ru: str

    def as_dict(self) -> dict[str, str]:
        return {"en": self.en, "ru": self.ru}

    def in_language(self, language: str) -> str:
        return self.ru if language.startswith("ru") else self.en


def round_half_away(value: float, ndigits: int = 0) -> float:
    """Round half away from zero (2.5 -> 3, -2.5 -> -3), as the federations round, unlike Python's ``round``.

    Goes through ``Decimal(repr(value))`` so that 0.125 rounds to 0.13 as a person writing it down expects.
    """
    quantum = Decimal(1).scaleb(-ndigits)
    rounded = Decimal(repr(value)).quantize(quantum, rounding=ROUND_HALF_UP)
    return float(rounded)


def round_int(value: float) -> int:
    """Round half away from zero to a whole number."""
    return int(math.copysign(math.floor(abs(value) + 0.5), value))
