"""Names in Latin letters: the passport transliteration of Russian, plain ASCII for files such as EGD's, and the
key two spellings of one name share.

One copy for the whole site: every name the English pages show (``display``: a player's, a city's, a club's, a
tournament's, a rating list's, the federation's own), the demo federation's Latin names, the EGD results table
(`rules/go.md`, part 3: names, clubs and cities transliterated to Latin letters) and the import of players from EGD
and CSV files.
"""

from __future__ import annotations

import re
import unicodedata

# Passport transliteration (ICAO Doc 9303, used in Russian passports since 2014; the same as GOST R 52535.1-2006
# except ц -> ts and ъ -> ie): Щукин -> Shchukin, Ёлкин -> Elkin, Юлия -> Iuliia. Ukrainian and Belarusian letters
# a Russian federation meets (і, ї, є, ґ, ў) take their own passport spellings.
_TRANSLIT = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "zh", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "ie", "ы": "y", "ь": "",
    "э": "e", "ю": "iu", "я": "ia", "і": "i", "ї": "i", "є": "ie", "ґ": "g", "ў": "u",
}  # fmt: skip


def transliterate(text: str) -> str:
    """Cyrillic to Latin as in a Russian passport; other characters pass through."""
    out = []
    for char in text:
        latin = _TRANSLIT.get(char.lower())
        if latin is None:
            out.append(char)
        elif char.isupper():
            out.append(latin.capitalize())
        else:
            out.append(latin)
    return "".join(out)


def display(text: str | None, english: str | None = "", *, language: str) -> str:
    """A name as a page in ``language`` shows it: on the Russian pages as typed; on the English pages the English
    name staff typed, else the passport transliteration of the Russian one (a Latin name passes through as it is).

    The one rule behind every model's ``display_name`` and the ``name`` template filter (``federation.templatetags``).
    """
    if not language.startswith("en"):
        return text or ""
    return english or transliterate(text or "")


def name_of(thing, language: str) -> str:
    """A name as a page shows it: an object's own ``display_name`` (a player, club, tournament, rating list, Go
    registration, the federation), or a plain text such as a city, a bot level or a name a view already chose
    (``display``). What the ``name`` template filter and the tables' downloads write."""
    if thing is None or thing == "":
        return ""
    if isinstance(thing, str):
        return display(thing, language=language)
    return thing.display_name(language)


def to_ascii(text: str) -> str:
    """Plain ASCII: Cyrillic transliterated, accents dropped (Müller -> Muller), anything else left out."""
    decomposed = unicodedata.normalize("NFKD", transliterate(text))
    return "".join(c for c in decomposed if c.isascii() and (c.isprintable() or c == " "))


# Spellings that differ between transliteration schemes (passport, BGN, EGD's own habits) and mean one sound.
_VARIANTS = (
    ("shch", "sc"),
    ("sch", "sc"),
    ("kh", "h"),
    ("ts", "c"),
    ("tz", "c"),
    ("zh", "j"),
    ("yu", "u"),
    ("iu", "u"),
    ("ju", "u"),
    ("ya", "a"),
    ("ia", "a"),
    ("ja", "a"),
    ("yo", "e"),
    ("jo", "e"),
    ("ye", "e"),
    ("ie", "e"),
    ("iy", "i"),
    ("yi", "i"),
    ("ii", "i"),
    ("y", "i"),
    ("w", "v"),
    ("x", "ks"),
)


def latin_key(text: str) -> str:
    """What two spellings of one name share: "Кондратьев Даниил", "Kondratev Daniil" and "Kondratyev Daniil" give
    one key. Letters only, lower case, with the spellings that differ between schemes folded together."""
    key = re.sub(r"[^a-z ]", "", to_ascii(text).lower())
    for spelling, common in _VARIANTS:
        key = key.replace(spelling, common)
    return " ".join(key.split())
