"""The one way a page writes a rating, a change, a percentage and a date, in the reader's language.

Everything goes through Django's localisation (``django.utils.formats``): a decimal comma and a non-breaking space
for thousands on the Russian pages, a point and a comma on the English ones; dates by ``SHORT_DATE_FORMAT`` of
``federation/formats/<lang>/formats.py`` (28.11.2026 / 28 Nov 2026). Templates use the same functions through the
``fmt`` template library (``{% load fmt %}``: ``|rating:2``, ``|delta:2``, ``|percent:1``, ``|day``,
``|country``).

Decisions where the rules are silent: ratings below 10,000 are written without a thousands separator (1081,02, not
1 081,02), larger numbers are grouped; a change always carries its sign (+3, -4,67, 0); an absent value is "".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from django.conf import settings
from django.utils import formats
from django.utils.translation import get_language

Number = int | float | Decimal

#: Below this a number is written without grouping: four-digit ratings read better unbroken.
GROUP_FROM = 10_000


#: ``Decimal(1).scaleb(-places)`` for the usual numbers of places.
_QUANTA = {places: Decimal(1).scaleb(-places) for places in range(7)}


def _number(value, places: int) -> str:
    if value is None or value == "":
        return ""
    if type(value) is int and places == 0 and -GROUP_FROM < value < GROUP_FROM and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)  # what the Decimal path below writes for a whole number: its digits (a list's ranks, changes)
    try:
        number = value if type(value) is Decimal else Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    if not number.is_finite():
        return ""
    quantum = _QUANTA.get(places) or Decimal(1).scaleb(-places)
    number = number.quantize(quantum)
    if number == 0:
        number = abs(number)  # no "-0,00"
    if abs(number) < GROUP_FROM and not settings.USE_THOUSAND_SEPARATOR:
        # What number_format writes without grouping, without its per-call lookups (a list page writes hundreds).
        text = format(number, "f")
        return text.replace(".", _decimal_separator(get_language())) if places > 0 else text
    return formats.number_format(number, places, use_l10n=True, force_grouping=abs(number) >= GROUP_FROM)


@lru_cache(maxsize=16)
def _decimal_separator(language: str | None) -> str:
    """``DECIMAL_SEPARATOR`` of a language (its formats module does not change while the process runs)."""
    return formats.get_format("DECIMAL_SEPARATOR", lang=language, use_l10n=True)


def rating(value: Number | None, places: int = 0) -> str:
    """A rating with ``places`` decimals: 1081 / 1081,02 / 837.14."""
    return _number(value, places)


def delta(value: Number | None, places: int = 0) -> str:
    """A change with its sign: +12, -4,67, 0."""
    text = _number(value, places)
    if not text or text.startswith("-"):
        return text
    if type(value) is int:
        return text if value == 0 else "+" + text
    return text if Decimal(str(value)).quantize(Decimal(1).scaleb(-places)) == 0 else "+" + text


def percent(value: Number | None, places: int = 1) -> str:
    """A percentage of 100 (``value`` is already in per cent): 62,5 %."""
    text = _number(value, places)
    if not text:
        return ""
    return f"{text}\xa0%"


def day(value: dt.date | dt.datetime | str | None) -> str:
    """A date: 28.11.2026 in Russian, 28 Nov 2026 in English. Accepts an ISO string too (from stored JSON)."""
    if value in (None, ""):
        return ""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value[:10])
        except ValueError:
            return value
    if isinstance(value, dt.datetime):
        value = value.date()
    return _short_date(get_language())(value)


@lru_cache(maxsize=16)
def _short_date(language: str | None) -> Callable[[dt.date], str]:
    """``formats.date_format(value, "SHORT_DATE_FORMAT", use_l10n=True)`` in a language, the format read and split
    once (its formats module does not change while the process runs), not at every date: a page writes dozens."""
    from django.utils.dateformat import DateFormat, re_escaped, re_formatchars

    parts = []
    for number, piece in enumerate(re_formatchars.split(str(formats.get_format("SHORT_DATE_FORMAT", lang=language)))):
        if number % 2:
            parts.append(getattr(DateFormat, piece))  # a letter of the format: DateFormat's method of that name
        elif piece:
            parts.append(re_escaped.sub(r"\1", piece))

    def write(value: dt.date) -> str:
        formatter = DateFormat(value)
        return "".join(part if type(part) is str else str(part(formatter)) for part in parts)

    return write


def long_day(value: dt.date | None) -> str:
    """A date in prose: 28 ноября 2026 г. / 28 November 2026."""
    if value is None:
        return ""
    return formats.date_format(value, "DATE_FORMAT", use_l10n=True)


def country(code: str) -> str:
    """A country by its name in the reader's language (RU → Россия / Russia); an unknown code stays as it is."""
    from federation.countries import country_name

    return country_name(code, get_language() or "ru")


_PLAIN = [
    (re.compile(r"\s*->\s*"), " → "),
    (re.compile(r"ceil\(((?:[^()]|\([^()]*\))*)\)"), r"⌈\1⌉"),
    (re.compile(r"floor\(((?:[^()]|\([^()]*\))*)\)"), r"⌊\1⌋"),
    (re.compile(r"\s//\s"), " ÷ "),
]
_WORDS = {
    "ru": [
        (re.compile(r"\bbase\b"), "основа"),
        (re.compile(r"\bPro\b"), "Профи"),
        (re.compile(r"\bПро-лиг"), "лиг"),  # "в Про-лигу" -> "в лигу профи" below
        (re.compile(r"MAXK1 \+ … \+ MAXK(\d+)"), r"\1 наибольших W·A всех учтённых турниров"),
        (re.compile(r"\bMAXK\d*"), "наибольшее W·A"),
    ],
    "en": [
        (re.compile(r"\bbase\b"), "basis"),
        (re.compile(r"\bPro\b"), "Professional"),
        (re.compile(r"MAXK1 \+ … \+ MAXK(\d+)"), r"the \1 largest W·A of all tournaments counted"),
        (re.compile(r"\bMAXK\d*"), "largest W·A"),
    ],
}
_RU_LEAGUE = re.compile(r"переход в лигу навсегда")


def plain_explanation(text: str, language: str | None = None) -> str:
    """An engine's explanation as a player reads it: arrows and rounding signs instead of code (``->``,
    ``ceil(…)``, ``//``), and words instead of variable names (``base``, ``Pro``, ``MAXK``). Numbers stay as the engine
    wrote them, so the sum can be checked by hand."""
    if not text:
        return ""
    for pattern, replacement in _PLAIN:
        text = pattern.sub(replacement, text)
    russian = (language or get_language() or "ru").startswith("ru")
    for pattern, replacement in _WORDS["ru" if russian else "en"]:
        text = pattern.sub(replacement, text)
    if russian:
        text = _RU_LEAGUE.sub("переход в лигу профи навсегда", text)
    return text
