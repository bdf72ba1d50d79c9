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
from decimal import Decimal, InvalidOperation

from django.utils import formats, numberformat
from django.utils.translation import get_language

Number = int | float | Decimal

#: Below this a number is written without grouping: four-digit ratings read better unbroken.
GROUP_FROM = 10_000


def _number(value, places: int) -> str:
    if value is None or value == "":
        return ""
    try:
        number = Decimal(str(value))
    except (InvalidOperation, ValueError):
        return str(value)
    if not number.is_finite():
        return ""
    number = number.quantize(Decimal(1).scaleb(-places))  # number_format cuts the digits off; a rating rounds
    if number == 0:
        number = abs(number)  # no "-0,00"
    return formats.number_format(number, places, use_l10n=True, force_grouping=abs(number) >= GROUP_FROM)


def rating(value: Number | None, places: int = 0) -> str:
    """A rating with ``places`` decimals: 1081 / 1081,02 / 837.14."""
    return _number(value, places)


def number(value: Number | None) -> str:
    """A number with the decimals it has, no more (komi 6,5 / 7 / 0,5 in Russian; 6.5 in English)."""
    if value is None or value == "":
        return ""
    try:
        exact = Decimal(str(value)).normalize()
    except (InvalidOperation, ValueError):
        return str(value)
    if not exact.is_finite():
        return ""
    return _number(exact, max(0, -exact.as_tuple().exponent))


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
    return formats.date_format(value, "SHORT_DATE_FORMAT", use_l10n=True)


def long_day(value: dt.date | None) -> str:
    """A date in prose: 28 ноября 2026 г. / 28 November 2026."""
    if value is None:
        return ""
    return formats.date_format(value, "DATE_FORMAT", use_l10n=True)


def country(code: str) -> str:
    """A country by its name in the reader's language (RU → Россия / Russia); an unknown code stays as it is."""
    from federation.countries import country_name

    return country_name(code, get_language() or "ru")


#: (pattern, replacement, a text every match of the pattern contains): a rule whose text is absent cannot match and
#: is skipped (a page of changes ran a dozen regular expressions over each explanation, issue 16).
_PLAIN = [
    (re.compile(r"\s*->\s*"), " → ", "->"),
    (re.compile(r"ceil\(((?:[^()]|\([^()]*\))*)\)"), r"⌈\1⌉", "ceil("),
    (re.compile(r"floor\(((?:[^()]|\([^()]*\))*)\)"), r"⌊\1⌋", "floor("),
    (re.compile(r"\s//\s"), " ÷ ", "//"),
]
_WORDS = {
    "ru": [
        (re.compile(r"\bbase\b"), "основа", "base"),
        (re.compile(r"\bPro\b"), "Профи", "Pro"),
        (re.compile(r"\bПро-лиг"), "лиг", "Про-лиг"),  # "в Про-лигу" -> "в лигу профи" below
        (re.compile(r"MAXK1 \+ … \+ MAXK(\d+)"), r"\1 наибольших W·A всех учтённых турниров", "MAXK"),
        (re.compile(r"\bMAXK\d*"), "наибольшее W·A", "MAXK"),
        (re.compile(r"переход в лигу навсегда"), "переход в лигу профи навсегда", "переход в лигу навсегда"),
    ],
    "en": [
        (re.compile(r"\bbase\b"), "basis", "base"),
        (re.compile(r"\bPro\b"), "Professional", "Pro"),
        (re.compile(r"MAXK1 \+ … \+ MAXK(\d+)"), r"the \1 largest W·A of all tournaments counted", "MAXK"),
        (re.compile(r"\bMAXK\d*"), "largest W·A", "MAXK"),
    ],
}


#: A decimal number as the engines write it: a point before the decimals, thousands perhaps grouped by spaces
#: (``40.8``, ``1 959.26``, ``-0.5``); not a part of a word, an ISO date or a version (``log10``, ``2026-11-28``).
_DECIMAL = re.compile(r"(?<![\w.,])(\d{1,3}(?:[ \xa0\u202f]\d{3})+|\d+)\.(\d+)(?![\w.])")
#: An ISO date in an engine's text (``restricted by rank before 2026-03-01``).
_ISO_DAY = re.compile(r"(?<![\w-])(\d{4})-(\d{2})-(\d{2})(?![\w-])")
#: min(…, …) and max(…, …) with a decimal comma inside read better with a semicolon between the arguments.
#: A range the engines write as [0.5, 2] (the preferans Kd's limits): [0,5; 2] on a Russian page.
_RANGE = re.compile(r"\[[^\[\]]*\]")
_CALL = re.compile(r"\b(min|max)\(([^()]*(?:\([^()]*\)[^()]*)*)\)")


def _decimal(match: re.Match, language: str) -> str:
    whole = re.sub(r"\D", "", match[1])
    number = Decimal(f"{whole}.{match[2]}")
    return numberformat.format(
        number,
        formats.get_format("DECIMAL_SEPARATOR", language, use_l10n=True),
        len(match[2]),
        formats.get_format("NUMBER_GROUPING", language, use_l10n=True),
        formats.get_format("THOUSAND_SEPARATOR", language, use_l10n=True),
        force_grouping=number >= GROUP_FROM,
        use_l10n=True,
    )


def _iso_day(match: re.Match, language: str) -> str:
    try:
        value = dt.date(int(match[1]), int(match[2]), int(match[3]))
    except ValueError:
        return match[0]
    return formats.date_format(value, formats.get_format("SHORT_DATE_FORMAT", language, use_l10n=True))


def _semicolons(match: re.Match) -> str:
    return f"{match[1]}({match[2].replace(', ', '; ')})"


def localized_numbers(text: str, language: str | None = None) -> str:
    """The decimal numbers and ISO dates of an engine's text written the reader's way, as every other number on the
    page (``formatting.rating``): 40,8 and 1959,26 on a Russian page, 40.8 and 1959.26 on an English one, the
    decimals as the engine wrote them; a date as ``day`` writes it. Whole numbers are left as written (they read the
    same in both languages). On a Russian page the arguments of ``min``/``max`` are separated by semicolons, so that
    a decimal comma cannot be misread.
    """
    if not text:
        return text
    russian = (language or get_language() or "ru").startswith("ru")
    if "-" in text and _ISO_DAY.search(text):
        text = _ISO_DAY.sub(lambda match: _iso_day(match, "ru" if russian else "en"), text)
    if "." not in text:
        return text
    if russian and ("min(" in text or "max(" in text):
        text = _CALL.sub(_semicolons, text)
    if russian and "[" in text:
        text = _RANGE.sub(lambda match: match[0].replace(", ", "; "), text)
    language = "ru" if russian else "en"
    return _DECIMAL.sub(lambda match: _decimal(match, language), text)


def plain_explanation(text: str, language: str | None = None) -> str:
    """An engine's explanation as a player reads it: arrows and rounding signs instead of code (``->``,
    ``ceil(…)``, ``//``), words instead of variable names (``base``, ``Pro``, ``MAXK``), and decimal numbers in the
    reader's form (``localized_numbers``: 40,8 on a Russian page). The numbers keep every decimal the engine wrote,
    so the sum can be checked by hand.

    A rule runs only when its literal is in the text: a word-boundary pattern scans the whole text even when it has
    nothing to replace, and twenty preferans explanations took a millisecond that way on the player's page (issue 16).
    """
    if not text:
        return ""
    russian = (language or get_language() or "ru").startswith("ru")
    for pattern, replacement, needed in (*_PLAIN, *_WORDS["ru" if russian else "en"]):
        if needed in text:
            text = pattern.sub(replacement, text)
    return localized_numbers(text, "ru" if russian else "en")
