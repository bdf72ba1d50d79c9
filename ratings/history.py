"""A federation's history in the interchange format of ``manage.py rate`` (``docs/rate-cli.md``): what every
system's import, export and "list as a document" share.

- **Ids.** A document names players and tournaments by strings of its own. Importing makes them the players' and
  tournaments' *federation ids* (``Player.external_id``, ``Tournament.external_id``), so a second import of the same
  file finds them and changes nothing. An export names a player by that id, or ``site-<pk>`` for a player born on
  the site (an import resolves ``site-<pk>`` back to that player), and a tournament likewise.
- **Optional keys** (``rate`` ignores them): ``players``: ``[{"id", "name", "name_latin", "city", "club",
  "country"}]`` (``name`` is "Surname First name"); a tournament's ``name`` and ``city``; ``ratings_date``: the date
  of the federation's list the starting ratings come from. Without a name the site makes a readable placeholder
  (``Игрок ann`` / ``Player ann``); without ``ratings_date``, the day before the first event.
- **Errors.** The whole document is checked before anything is saved; every error is a ``FieldError`` naming its
  path, and ``HistoryError`` carries them all.

**Decision (players already on the site):** an import never rewrites a known player's name, city or club (the
site's registry is kept in the admin once the federation has moved in); it only creates the players it does not
know.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from federation import versions
from federation.models import Club, Player, country_code_validator
from ratings.engines.common import EngineError, FieldError

SITE_PREFIX = "site-"
PLACEHOLDER_RU = "Игрок"
PLACEHOLDER_EN = "Player"
NAME_MAX = 100
#: Player and tournament ids of a document are stored as federation ids (``external_id``, 100 characters).
ID_MAX = 100


class HistoryError(Exception):
    """A document that cannot be imported, with every error found (each a ``FieldError`` naming its path)."""

    def __init__(self, errors: Iterable[FieldError]) -> None:
        self.errors = list(errors)
        super().__init__(f"{len(self.errors)} error(s); first: {self.errors[0] if self.errors else ''}")

    def lines(self) -> list[str]:
        return [str(error) for error in self.errors]


@dataclass
class ImportReport:
    """What an import did: how many rows of each kind it created (zero everywhere on a second import)."""

    system: str
    created: dict[str, int] = field(default_factory=dict)
    unchanged: dict[str, int] = field(default_factory=dict)
    rebuilt: list[str] = field(default_factory=list)

    def add(self, kind: str, created: int = 0, unchanged: int = 0) -> None:
        self.created[kind] = self.created.get(kind, 0) + created
        self.unchanged[kind] = self.unchanged.get(kind, 0) + unchanged

    @property
    def changed(self) -> bool:
        return any(self.created.values())

    def as_dict(self) -> dict[str, Any]:
        return {"system": self.system, "created": self.created, "unchanged": self.unchanged, "rebuilt": self.rebuilt}


def document_player_id(*, pk: int, external_id: str) -> str:
    return external_id or f"{SITE_PREFIX}{pk}"


def document_tournament_id(*, pk: int, external_id: str) -> str:
    return external_id or f"{SITE_PREFIX}{pk}"


def player_ids_map(player_ids: Iterable[int]) -> dict[int, str]:
    """Player pk -> the id a document gives them, in one query."""
    rows = Player.objects.filter(pk__in=set(player_ids)).values_list("pk", "external_id")
    return {pk: document_player_id(pk=pk, external_id=external) for pk, external in rows.iterator(chunk_size=20_000)}


# --- checking the optional keys -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PersonInfo:
    name: str = ""
    name_latin: str = ""
    city: str = ""
    club: str = ""
    country: str = ""


def _split(name: str) -> tuple[str, str]:
    parts = name.split(None, 1)
    return (parts[0], parts[1] if len(parts) > 1 else "") if parts else ("", "")


def parse_people(doc: dict[str, Any], errors: list[FieldError], *, key: str = "players") -> dict[str, PersonInfo]:
    """The optional ``players`` entries (mahjong gives ``country`` there too), every mistake added to ``errors``."""
    raw = doc.get(key, [])
    if not isinstance(raw, list):
        errors.append(EngineError(key, "is not a list"))
        return {}
    people: dict[str, PersonInfo] = {}
    for index, item in enumerate(raw):
        where = f"{key}[{index}]"
        if not isinstance(item, dict):
            errors.append(EngineError(where, "is not an object"))
            continue
        person_id = item.get("id")
        if not isinstance(person_id, str) or not person_id or len(person_id) > ID_MAX:
            errors.append(
                EngineError(f"{where}.id", f"{str(person_id)[:20]!r} is not an id of 1 to {ID_MAX} characters")
            )
            continue
        values = {}
        for name in ("name", "name_latin", "city", "club", "country"):
            value = item.get(name, "")
            if value is None:
                value = ""
            if not isinstance(value, str):
                errors.append(EngineError(f"{where}.{name}", f"{value!r} is not a string"))
                value = ""
            limit = 2 * NAME_MAX + 1 if name.startswith("name") else 200
            if len(value) > limit:
                errors.append(EngineError(f"{where}.{name}", f"longer than {limit} characters"))
                value = ""
            values[name] = value.strip()
        for name in ("name", "name_latin"):
            surname, first = _split(values[name])
            if len(surname) > NAME_MAX or len(first) > NAME_MAX:
                errors.append(EngineError(f"{where}.{name}", f"a name part is longer than {NAME_MAX} characters"))
        if values["country"]:
            try:
                country_code_validator(values["country"])
            except Exception:
                errors.append(EngineError(f"{where}.country", f"{values['country']!r} is not a two-letter code"))
        people[person_id] = PersonInfo(**values)
    return people


def parse_ratings_date(doc: dict[str, Any], errors: list[FieldError]) -> dt.date | None:
    value = doc.get("ratings_date")
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) and len(value) == 10 else _bad_date(value)
    except (ValueError, EngineError):
        errors.append(EngineError("ratings_date", f"{value!r} is not a date (YYYY-MM-DD)"))
        return None


def _bad_date(value: Any):
    raise EngineError("ratings_date", f"{value!r} is not a date (YYYY-MM-DD)")


def text_field(raw: dict[str, Any], key: str, where: str, errors: list[FieldError], *, limit: int = 200) -> str:
    value = raw.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        errors.append(EngineError(f"{where}.{key}", f"{value!r} is not a string"))
        return ""
    if len(value) > limit:
        errors.append(EngineError(f"{where}.{key}", f"longer than {limit} characters"))
        return ""
    return value.strip()


# --- tournaments ----------------------------------------------------------------------------------------------------


def site_ids(ids: Iterable[str]) -> dict[int, str]:
    """The ``site-<pk>`` ids among a document's, by pk (what an export names a row born on the site by)."""
    return {
        int(item[len(SITE_PREFIX) :]): item
        for item in ids
        if item.startswith(SITE_PREFIX) and item[len(SITE_PREFIX) :].isdigit()
    }


def tournaments_create(rows: list) -> dict[str, int]:
    """Create these tournaments (of one discipline) in bulk; returns their pks by federation id."""
    from tournaments.models import Tournament

    created = Tournament.objects.bulk_create(rows)
    if created and created[0].pk is None:  # backends that do not return ids
        found = Tournament.objects.filter(
            discipline=rows[0].discipline, external_id__in=[row.external_id for row in rows]
        ).values_list("external_id", "pk")
        return dict(found)
    return {row.external_id: row.pk for row in created}


# --- players --------------------------------------------------------------------------------------------------------


def players_ensure(
    ids: Iterable[str], people: dict[str, PersonInfo], *, default_country: str = "RU"
) -> tuple[dict[str, int], int]:
    """Player pk for every document id, creating the players the site does not know (with a placeholder name when
    the document gives none); returns the map and how many were created. Known players are not touched."""
    wanted = list(dict.fromkeys(ids))
    found: dict[str, int] = {}
    for start in range(0, len(wanted), 5000):
        chunk = wanted[start : start + 5000]
        found.update(Player.objects.filter(external_id__in=chunk).values_list("external_id", "pk"))
    site_ids = {
        person_id: int(person_id[len(SITE_PREFIX) :])
        for person_id in wanted
        if person_id not in found and person_id.startswith(SITE_PREFIX) and person_id[len(SITE_PREFIX) :].isdigit()
    }
    if site_ids:
        known = set(
            Player.objects.filter(pk__in=site_ids.values(), external_id="").values_list("pk", flat=True).iterator()
        )
        found.update({person_id: pk for person_id, pk in site_ids.items() if pk in known})
    missing = [person_id for person_id in wanted if person_id not in found]
    if not missing:
        return found, 0
    clubs = _clubs({people[p].club: people[p].city for p in missing if p in people and people[p].club})
    new = []
    for person_id in missing:
        info = people.get(person_id, PersonInfo())
        last, first = _split(info.name)
        last_latin, first_latin = _split(info.name_latin)
        if not last:
            last, first = f"{PLACEHOLDER_RU} {person_id}"[:NAME_MAX], ""
            if not last_latin:
                last_latin = f"{PLACEHOLDER_EN} {person_id}"[:NAME_MAX]
        player = Player(
            last_name=last,
            first_name=first,
            last_name_latin=last_latin,
            first_name_latin=first_latin,
            city=info.city[:100],
            country=info.country or default_country,
            club_id=clubs.get(info.club),
            external_id=person_id,
        )
        player.fill_search_name()
        new.append(player)
    with transaction.atomic():
        Player.objects.bulk_create(new, batch_size=2000)
        versions.changed(Player)
    found.update(
        Player.objects.filter(external_id__in=missing).values_list("external_id", "pk")
        if len(missing) < 5000
        else _by_external(missing)
    )
    return found, len(new)


def _by_external(ids: list[str]) -> dict[str, int]:
    result: dict[str, int] = {}
    for start in range(0, len(ids), 5000):
        result.update(Player.objects.filter(external_id__in=ids[start : start + 5000]).values_list("external_id", "pk"))
    return result


def _clubs(wanted: dict[str, str]) -> dict[str, int]:
    """Club pk by name (the first club of that name, or a new one in the player's city)."""
    result: dict[str, int] = {}
    for name, city in wanted.items():
        club = Club.objects.filter(name=name).order_by("pk").first()
        if club is None:
            club = Club.objects.create(name=name[:200], city=city[:100])
        result[name] = club.pk
    return result


def person_entry(player: Player) -> dict[str, str]:
    """A player as the export's ``players`` names them."""
    entry = {"id": document_player_id(pk=player.pk, external_id=player.external_id), "name": player.full_name}
    if player.full_name_latin:
        entry["name_latin"] = player.full_name_latin
    if player.city:
        entry["city"] = player.city
    if player.club_id:
        entry["club"] = player.club.name
    entry["country"] = player.country
    return entry


def people_entries(player_pks: Iterable[int]) -> list[dict[str, str]]:
    """The ``players`` of an export, by document id (so that an export of an import of it is the same document)."""
    players = Player.objects.filter(pk__in=set(player_pks)).select_related("club")
    return sorted((person_entry(player) for player in players.iterator(chunk_size=5000)), key=lambda e: e["id"])


# --- one door for the commands and the admin ------------------------------------------------------------------------

#: system -> (module, default list slug); each home keeps its own reading and writing. A system that keeps no rating
#: list (a self-handicap tournament stands alone) has ``None``: its home is called with ``rating_list=None``.
SYSTEMS: dict[str, tuple[str, str | None]] = {
    "gorbunov": ("ratings.gorbunov.history", "gorbunov"),
    "dirs": ("ratings.dirs.history", "dirs"),
    "selfhandicap": ("tournaments.go.history", None),
    "preferans": ("ratings.preferans.history", "preferans"),
    "mahjong-rr": ("ratings.mahjong.history", "mahjong-rr"),
    "mahjong-crr": ("ratings.mahjong.history", "mahjong-crr"),
    "mahjong-online": ("ratings.mahjong.history", "mahjong-online"),
}


def _home(system: str):
    import importlib

    if system not in SYSTEMS:
        known = ", ".join(sorted(SYSTEMS))
        raise HistoryError([EngineError("system", f"{system!r} is not a system the site imports ({known})")])
    module_name, default_slug = SYSTEMS[system]
    return importlib.import_module(module_name), default_slug


def _rating_list(system: str, slug: str | None):
    from ratings.models import RatingList

    _module, default_slug = _home(system)
    if default_slug is None:
        if slug:
            raise HistoryError([EngineError("list", f"{system} keeps no rating list (no --list)")])
        return None
    rating_list = RatingList.objects.filter(slug=slug or default_slug).first()
    if rating_list is None:
        raise HistoryError([EngineError("list", f"no rating list {slug or default_slug!r}")])
    return rating_list


def _system_of(doc: Any) -> str:
    system = doc.get("system") if isinstance(doc, dict) else None
    if not isinstance(system, str):
        raise HistoryError([EngineError("system", "missing (the document must name its system)")])
    return system


def history_check(*, doc: dict[str, Any], list_slug: str | None = None) -> dict[str, int]:
    system = _system_of(doc)
    module, _slug = _home(system)
    return module.history_check(doc=doc, rating_list=_rating_list(system, list_slug))


def history_import(*, doc: dict[str, Any], list_slug: str | None = None, user=None, progress=None) -> ImportReport:
    system = _system_of(doc)
    module, _slug = _home(system)
    return module.history_import(doc=doc, rating_list=_rating_list(system, list_slug), user=user, progress=progress)


def _tournament_option(system: str, tournament: str | None) -> dict[str, str]:
    """``--tournament`` is for the systems whose document is one tournament (their home takes ``tournament``)."""
    if tournament is None:
        return {}
    if SYSTEMS[system][1] is not None:
        raise HistoryError([EngineError("tournament", f"{system} documents are not one tournament (no --tournament)")])
    return {"tournament": tournament}


def history_export(*, system: str, list_slug: str | None = None, tournament: str | None = None) -> dict[str, Any]:
    module, _slug = _home(system)
    extra = _tournament_option(system, tournament)
    return module.history_export(rating_list=_rating_list(system, list_slug), **extra)


def list_document(
    *, system: str, list_slug: str | None = None, as_of: dt.date | None = None, tournament: str | None = None
) -> dict[str, Any]:
    module, _slug = _home(system)
    extra = _tournament_option(system, tournament)
    return module.list_document(rating_list=_rating_list(system, list_slug), as_of=as_of, **extra)
