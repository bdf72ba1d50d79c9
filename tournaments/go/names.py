"""A registration's name in parts and in order.

Surname and given name are kept apart (EGD's two fields, `rules/go.md`, part 3); where only one string is known (a
name typed in one field by older pages, a document's ``name``), :func:`split_name` finds the surname: the first word
with any lower-case particles before it (``van der Berg Jan``, ``Ван дер Берг Ян``: particles written in capitals
at the start of a line are particles too, so ``Van der Berg`` stays whole), the rest being the given name.

Names are put in order by :func:`tournaments.pairing.names.alphabetical`, the one rule of every Go page and sheet;
:func:`name_key` reads the name the page shows (Latin on the English pages, as the player sees it).
"""

from __future__ import annotations

from tournaments.pairing.names import alphabetical

#: Words that belong to the surname that follows them (Dutch, German, French, Italian, Spanish, Portuguese), in
#: Latin letters and as Russian writes them.
PARTICLES = frozenset((
    "van", "der", "den", "de", "del", "della", "di", "da", "dos", "das", "du", "la", "le", "von", "ten", "ter", "zu",
    "ван", "дер", "ден", "де", "дель", "делла", "ди", "да", "дос", "дас", "дю", "ля", "ле", "фон", "тен", "тер", "цу",
))  # fmt: skip


def split_name(full: str) -> tuple[str, str]:
    """(surname, given name) of a name written surname first (see the module)."""
    words = full.split()
    k = 0
    while k < len(words) - 1 and words[k].lower() in PARTICLES:
        k += 1
    if not words:
        return "", ""
    return " ".join(words[: k + 1]), " ".join(words[k + 1 :])


def join_name(surname: str, given_name: str) -> str:
    """The full name as the pages show it, surname first."""
    return " ".join(" ".join(part.split()) for part in (surname, given_name) if part.strip())


def name_key(shown: str) -> str:
    """The order of a name as the page shows it (``alphabetical``)."""
    return alphabetical(shown)


__all__ = ["PARTICLES", "alphabetical", "join_name", "name_key", "split_name"]
