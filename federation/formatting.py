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
from functools import lru_cache, partial

from django.conf import settings
from django.utils import formats
from django.utils.translation import get_language

Number = int | float | Decimal

#: Below this a number is written without grouping: four-digit ratings read better unbroken.
GROUP_FROM = 10_000


#: ``Decimal(1).scaleb(-places)`` for the usual numbers of places.
_QUANTA = {places: Decimal(1).scaleb(-places) for places in range(7)}


def _number(value, places: int, separator: str | None = None) -> str:
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
        return text.replace(".", separator or _decimal_separator(get_language())) if places > 0 else text
    return formats.number_format(number, places, use_l10n=True, force_grouping=abs(number) >= GROUP_FROM)


@lru_cache(maxsize=16)
def _decimal_separator(language: str | None) -> str:
    """``DECIMAL_SEPARATOR`` of a language (its formats module does not change while the process runs)."""
    return formats.get_format("DECIMAL_SEPARATOR", lang=language, use_l10n=True)


def rating(value: Number | None, places: int = 0) -> str:
    """A rating with ``places`` decimals: 1081 / 1081,02 / 837.14."""
    return _number(value, places)


def rating_writer(places: int) -> Callable[[Number | None], str]:
    """``rating(value, places)`` for the many numbers of one page: the same text, with the active language's decimal
    separator looked up once (``get_language`` was half of a number's cost in a player's mahjong breakdowns)."""
    return partial(_number, places=places, separator=_decimal_separator(get_language()))


def number_html(places: int, language: str, *, signed: bool = False) -> Callable[[object], str]:
    """``escape(rating(value, places))`` (``escape(delta(value, places))`` when ``signed``) for the many numbers of
    one page in ``language`` (the active language): the separator and the settings read once, not for every number
    (``get_language`` and the settings' lookups were half of a number's cost; a player's page writes some three
    hundred, issue 16). An int, a ``Decimal`` or a float below ``GROUP_FROM`` is written here: digits, a sign and the
    separator, nothing to escape; anything else (an empty value, a text, a grouped number) goes to ``rating`` or
    ``delta`` themselves, then through ``escape``."""
    from html import escape

    general = partial(delta if signed else rating, places=places)
    separator = _decimal_separator(language)
    if settings.USE_THOUSAND_SEPARATOR or escape(separator) != separator:
        return lambda value: escape(general(value))
    quantum = _QUANTA.get(places) or Decimal(1).scaleb(-places)

    def write(value) -> str:
        kind = type(value)
        if kind is int and places == 0 and -GROUP_FROM < value < GROUP_FROM:
            return f"+{value}" if signed and value > 0 else str(value)
        if kind is Decimal:
            number = value
        elif kind is int or kind is float:
            number = Decimal(str(value))
        else:
            return escape(general(value))
        if not number.is_finite():
            return ""
        number = number.quantize(quantum)
        if number == 0:
            number = abs(number)  # no "-0,00"
        elif not -GROUP_FROM < number < GROUP_FROM:
            return escape(general(value))
        text = format(number, "f")
        if places > 0:
            text = text.replace(".", separator)
        return f"+{text}" if signed and number > 0 else text

    return write


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


#: ``DateFormat``'s letters ``day_writer`` writes itself: numbers as ``str.format`` fields of the date, month names as
#: the second argument (``{1}``), each as Django writes it (``django.utils.dateformat``).
_DAY_FIELDS = {
    "d": "{0.day:02d}",
    "j": "{0.day}",
    "m": "{0.month:02d}",
    "n": "{0.month}",
    "y": "{2:02d}",
    "Y": "{0.year:04d}",
    "b": "{1[b]}",
    "M": "{1[M]}",
    "F": "{1[F]}",
    "E": "{1[E]}",
}


@lru_cache(maxsize=8)
def day_writer(language: str) -> Callable[[dt.date | dt.datetime | str | None], str]:
    """``day`` for the many dates of a page in ``language`` (the active language): the language's
    ``SHORT_DATE_FORMAT`` is read and its month names translated once per process, then a date is one ``str.format``
    (``formats.date_format`` looks the format up and parses it again for every date: a millisecond for a player's 40
    changes, issue 16). Anything but a ``date`` or a format with another letter goes to ``day`` itself."""
    from django.utils.dateformat import re_escaped, re_formatchars
    from django.utils.dates import MONTHS, MONTHS_3, MONTHS_ALT
    from django.utils.translation import override

    with override(language):
        form = formats.get_format("SHORT_DATE_FORMAT", lang=language, use_l10n=True)
        names = {
            month: {
                "b": str(MONTHS_3[month]),
                "M": str(MONTHS_3[month]).title(),
                "F": str(MONTHS[month]),
                "E": str(MONTHS_ALT[month]),
            }
            for month in range(1, 13)
        }
    template = []
    for index, piece in enumerate(re_formatchars.split(form)):
        if index % 2 and piece not in _DAY_FIELDS:
            return day
        template.append(
            _DAY_FIELDS[piece] if index % 2 else re_escaped.sub(r"\1", piece).replace("{", "{{").replace("}", "}}")
        )
    text = "".join(template)

    def write(value) -> str:
        if type(value) is not dt.date:
            return day(value)
        return text.format(value, names[value.month], value.year % 100)

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


def plain_explanation(text: str, language: str | None = None) -> str:
    """An engine's explanation as a player reads it: arrows and rounding signs instead of code (``->``,
    ``ceil(…)``, ``//``), and words instead of variable names (``base``, ``Pro``, ``MAXK``). Numbers stay as the engine
    wrote them, so the sum can be checked by hand.

    A rule runs only when its literal is in the text: a word-boundary pattern scans the whole text even when it has
    nothing to replace, and twenty preferans explanations took a millisecond that way on the player's page (issue 16).
    """
    if not text:
        return ""
    russian = (language or get_language() or "ru").startswith("ru")
    for pattern, replacement, needed in (*_PLAIN, *_WORDS["ru" if russian else "en"]):
        if needed in text:
            text = pattern.sub(replacement, text)
    return text
