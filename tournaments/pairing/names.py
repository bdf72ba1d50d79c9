"""How names are put in order: as a reader of the name's alphabet orders them (one rule for every Go page and
sheet, and for the standings' players who share a place).

Lower case, single spaces and ``ё`` read as ``е`` (Russian dictionaries file Ё with Е: "Ёлкин" comes between
"Елисеев" and "Жуков", not before "Андреева", where the code point of Ё would put it). Within either alphabet the
letters' code points follow the alphabet (Cyrillic А..Я, Latin a..z); names in Latin letters come before Cyrillic
ones, as the site's players list orders them (``federation.tables.order_by_name``). Which name is read, the
Cyrillic or the Latin, is the page's choice: a Russian page orders by the name it shows, an English page by the
Latin name it shows.
"""

from __future__ import annotations


def alphabetical(name: str) -> str:
    """The sort key of a name as its alphabet orders it (see the module)."""
    return " ".join(name.lower().replace("ё", "е").split())
