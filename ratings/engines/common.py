"""What every rating engine shares: the one error type for bad data, the bilingual explanation, the rounding.

Engines are pure Python, standard library only: no Django, no ORM (an import-linter contract keeps it so).
"""

from __future__ import annotations

from dataclasses import dataclass


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


def div_round_half_away(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded half away from zero (5/2 -> 3, -5/2 -> -3), exactly, on whole numbers.

    Every rating system rounds a half away from zero, unlike Python's ``round``; working on the exact numerator
    and a positive denominator means no binary float decides a value that lies exactly half-way.
    """
    if numerator >= 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return -((denominator - 2 * numerator) // (2 * denominator))


def shown(numerator: int, denominator: int, places: int) -> float:
    """``numerator / denominator`` with ``places`` decimals, rounded half away from zero from the exact fraction:
    how the pages and the stored details show a number that the engine keeps exact (Rt, base, R)."""
    scale = 10**places
    return div_round_half_away(numerator * scale, denominator) / scale
