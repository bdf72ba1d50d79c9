"""A Gorbunov list's history in and out as a ``gorbunov`` document of ``manage.py rate`` (``ratings.history``).

Import: the whole document is checked first (the engine's checks, every error, plus what the site needs: a format
the list takes, a tournament already imported with other results); then the players, the list's starting ratings
and optional rules, the tournaments in batches (one transaction each, approved, with their federation ids), and
the lists that take them are rebuilt from their starting ratings.

**Decisions** where the issue is silent:
- The list's optional rules become the document's ``options`` (``rate``'s defaults where the document is silent:
  the square-root rule off, the sealed cap on, 4 participants, the draft bonus from 2004-04-01), so that the site
  publishes exactly what ``rate`` prints for the document; the list's formats are kept.
- A tournament without ``format`` is stored as ``constructed`` (the engine treats every format other than sealed
  and draft alike); a format the site does not know is refused.
- Every active Gorbunov list that takes an imported tournament is rebuilt, not only the one named, since the
  weekly job would otherwise rate years of history as late results. Only the named list gets the starting ratings.
- Imported tournaments and results are written in bulk, without a per-row entry in the admin's history (the
  import is one staff action); a second import of the same file creates nothing and rebuilds nothing.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from federation import versions
from federation.models import Player
from federation.services import player_tournament_counts_refresh
from ratings.bulk import copy_rows
from ratings.engines.common import EngineError, FieldError
from ratings.engines.gorbunov import DEFAULT_SETTINGS, document_errors
from ratings.gorbunov.params import validate
from ratings.history import (
    ID_MAX,
    HistoryError,
    ImportReport,
    document_tournament_id,
    parse_people,
    parse_ratings_date,
    people_entries,
    player_ids_map,
    players_ensure,
    site_ids,
    text_field,
    tournaments_create,
)
from ratings.models import Engine, RatingList, StartingRating
from ratings.progress import Progress
from tournaments.models import CardFormat, Discipline, Result, Tournament, TournamentStatus

BATCH = 500
RESULT_COLUMNS = ("tournament_id", "player_id", "participant_name", "place", "substitute")
DEFAULT_FORMAT = CardFormat.CONSTRUCTED.value
RATE_DEFAULTS = {
    "sqrt_rule": DEFAULT_SETTINGS.sqrt_rule,
    "sealed_cap": DEFAULT_SETTINGS.sealed_cap,
    "min_participants": DEFAULT_SETTINGS.min_participants,
    "draft_bonus_since": DEFAULT_SETTINGS.draft_bonus_since.isoformat(),
}


def _check(doc: dict[str, Any], rating_list: RatingList) -> dict[str, Any]:
    """The document read into plain data, or ``HistoryError`` with every mistake."""
    errors: list[FieldError] = list(document_errors(doc))
    if not isinstance(doc, dict):
        raise HistoryError(errors)
    people = parse_people(doc, errors)
    ratings_date = parse_ratings_date(doc, errors)
    formats = validate(rating_list.params)["formats"]
    tournaments = []
    raw_list = doc.get("tournaments", [])
    for index, raw in enumerate(raw_list if isinstance(raw_list, list) else []):
        where = f"tournaments[{index}]"
        if not isinstance(raw, dict):
            continue
        tournament_format = raw.get("format") or DEFAULT_FORMAT
        if isinstance(tournament_format, str) and tournament_format not in formats:
            known = ", ".join(formats)
            errors.append(EngineError(f"{where}.format", f"{tournament_format!r}: the list takes only {known}"))
        name = text_field(raw, "name", where, errors)
        city = text_field(raw, "city", where, errors, limit=100)
        tournament_id = raw.get("id")
        if isinstance(tournament_id, str) and len(tournament_id) > ID_MAX:
            errors.append(EngineError(f"{where}.id", f"longer than {ID_MAX} characters"))
        results = raw.get("results") if isinstance(raw.get("results"), list) else []
        for position, line in enumerate(results):
            person = line.get("player") if isinstance(line, dict) else None
            if isinstance(person, str) and len(person) > ID_MAX:
                errors.append(EngineError(f"{where}.results[{position}].player", f"longer than {ID_MAX} characters"))
        tournaments.append(
            {
                "where": where,
                "id": tournament_id,
                "date": raw.get("date"),
                "k": raw.get("k"),
                "format": tournament_format,
                "sqrt_rule": raw.get("sqrt_rule"),
                "sealed_cap": raw.get("sealed_cap"),
                "name": name,
                "city": city,
                "results": [(r.get("player"), r.get("place")) for r in results if isinstance(r, dict)],
            }
        )
    for person_id in (doc.get("ratings") or {}) if isinstance(doc.get("ratings"), dict) else {}:
        if len(person_id) > ID_MAX:
            errors.append(EngineError(f"ratings.{person_id[:20]}…", f"a player id is longer than {ID_MAX} characters"))
    if errors:
        raise HistoryError(errors)
    _check_known(tournaments, errors)
    if errors:
        raise HistoryError(errors)
    options = {**RATE_DEFAULTS, **(doc.get("options") or {})}
    return {
        "ratings": {p: int(v) for p, v in (doc.get("ratings") or {}).items()},
        "ratings_date": ratings_date,
        "options": options,
        "people": people,
        "tournaments": tournaments,
    }


def _known(ids: list[str]) -> dict[str, dict[str, Any]]:
    """The site's card-game tournaments among a document's ids: by federation id, or ``site-<pk>`` for one born on
    the site (as an export names it)."""
    columns = ("pk", "external_id", "end_date", "k", "card_format", "sqrt_rule", "sealed_cap")
    known: dict[str, dict[str, Any]] = {}
    cards = Tournament.objects.filter(discipline=Discipline.CARD_GAMES)
    for start in range(0, len(ids), 2000):
        for row in cards.filter(external_id__in=ids[start : start + 2000]).values(*columns):
            known[row["external_id"]] = row
    site = site_ids(ids)
    if site:
        for row in cards.filter(pk__in=list(site), external_id="").values(*columns):
            known[site[row["pk"]]] = row
    return known


def _check_known(tournaments: list[dict[str, Any]], errors: list[FieldError]) -> None:
    """A tournament imported before must be the same tournament (same date, K, format, results)."""
    known = _known([t["id"] for t in tournaments])
    if not known:
        return
    stored: dict[int, list[tuple[int, int]]] = {row["pk"]: [] for row in known.values()}
    rows = (
        Result.objects.filter(tournament_id__in=list(stored))
        .order_by("tournament_id", "pk")
        .values_list("tournament_id", "player_id", "place")
    )
    for tournament_id, player_id, place in rows.iterator(chunk_size=20_000):
        stored[tournament_id].append((player_id, place))
    names = player_ids_map(p for items in stored.values() for p, _place in items if p is not None)
    stored_ids = {pk: [(names.get(p), place) for p, place in items] for pk, items in stored.items()}
    for t in tournaments:
        row = known.get(t["id"])
        if row is None:
            continue
        same = (
            row["end_date"].isoformat() == t["date"]
            and row["k"] == t["k"]
            and row["card_format"] == t["format"]
            and row["sqrt_rule"] == t["sqrt_rule"]
            and row["sealed_cap"] == t["sealed_cap"]
            and stored_ids[row["pk"]] == [(p, place) for p, place in t["results"]]
        )
        if not same:
            errors.append(
                EngineError(
                    f"{t['where']}.id",
                    f'"{t["id"]}" was imported before with other data; correct it in the admin, not by import',
                )
            )


def gorbunov_history_check(*, doc: dict[str, Any], rating_list: RatingList) -> dict[str, int]:
    """What the import would create, without saving anything (the admin's preview); ``HistoryError`` if refused."""
    plan = _check(doc, rating_list)
    players = {p for t in plan["tournaments"] for p, _place in t["results"]} | set(plan["ratings"])
    return {
        "players": len(players),
        "starting ratings": len(plan["ratings"]),
        "tournaments": len(plan["tournaments"]),
        "results": sum(len(t["results"]) for t in plan["tournaments"]),
    }


def gorbunov_history_import(
    *,
    doc: dict[str, Any],
    rating_list: RatingList,
    user: AbstractBaseUser | None = None,
    progress: Progress | None = None,
    publish: bool = True,
) -> ImportReport:
    """Load a ``gorbunov`` document into ``rating_list`` and the site's tournaments, then rebuild (see module)."""
    from ratings.gorbunov.services import gorbunov_publish, gorbunov_rebuild

    if rating_list.engine != Engine.GORBUNOV:
        raise HistoryError([EngineError("system", f"{rating_list} is not a Gorbunov list")])
    plan = _check(doc, rating_list)
    report = ImportReport("gorbunov")
    tournaments = plan["tournaments"]
    ids = [*plan["ratings"], *(p for t in tournaments for p, _place in t["results"])]
    players, created = players_ensure(ids, plan["people"])
    versions.changed(Player)  # created in bulk, committed already: the pages change now
    report.add("players", created, len(set(ids)) - created)
    user_id = user.pk if user is not None and user.is_authenticated else None
    with transaction.atomic():
        _set_options(rating_list, plan["options"])
        first = min((dt.date.fromisoformat(t["date"]) for t in tournaments), default=timezone.localdate())
        list_date = plan["ratings_date"] or first - dt.timedelta(days=1)
        new_starting = _starting_ratings(rating_list, plan["ratings"], players, list_date, user_id)
        report.add("starting ratings", new_starting, len(plan["ratings"]) - new_starting)
    known = _known([t["id"] for t in tournaments])
    fresh = [t for t in tournaments if t["id"] not in known]
    report.add("tournaments", 0, len(tournaments) - len(fresh))
    now = timezone.now()
    for start in range(0, len(fresh), BATCH):
        batch = fresh[start : start + BATCH]
        if progress:
            progress(start, len(fresh), f"tournaments {start + 1}-{start + len(batch)}")
        with transaction.atomic():
            by_id = tournaments_create(
                [
                    Tournament(
                        discipline=Discipline.CARD_GAMES,
                        name=t["name"] or f"Турнир {t['id']}"[:200],
                        start_date=dt.date.fromisoformat(t["date"]),
                        end_date=dt.date.fromisoformat(t["date"]),
                        city=t["city"],
                        status=TournamentStatus.APPROVED,
                        approved_at=now,
                        approved_by_id=user_id,
                        submitted_at=now,
                        card_format=t["format"],
                        k=t["k"],
                        sqrt_rule=t["sqrt_rule"],
                        sealed_cap=t["sealed_cap"],
                        external_id=t["id"],
                    )
                    for t in batch
                ]
            )
            versions.changed(Tournament)  # created in bulk (the results' COPY bumps their pages too)
            copy_rows(
                Result,
                RESULT_COLUMNS,
                ((by_id[t["id"]], players[player], "", place, False) for t in batch for player, place in t["results"]),
            )
        report.add("tournaments", len(batch))
        report.add("results", sum(len(t["results"]) for t in batch))
    if fresh:
        touched = {players[p] for t in fresh for p, _place in t["results"]}
        # Thousands of players: one grouped count for everyone, not a subquery per player (on freshly loaded
        # tables the planner has no statistics and scans the results once per player).
        player_tournament_counts_refresh(player_ids=touched if len(touched) <= 1000 else None)
        versions.changed(Player)  # their counts, updated in bulk
    if progress:
        progress(len(fresh), len(fresh), "publishing")
    if publish and report.changed:
        formats = {t["format"] for t in tournaments}
        for other in RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("pk"):
            if other.pk != rating_list.pk and not formats & set(validate(other.params)["formats"]):
                continue
            if other.snapshots.exists():
                gorbunov_rebuild(rating_list_id=other.pk)
            gorbunov_publish(rating_list_id=other.pk)
            report.rebuilt.append(other.slug)
    return report


def _set_options(rating_list: RatingList, options: dict[str, Any]) -> None:
    params = validate({**rating_list.params, **options})
    if params != validate(rating_list.params):
        rating_list.params = params
        rating_list.save(update_fields=["params"])


def _starting_ratings(
    rating_list: RatingList, ratings: dict[str, int], players: dict[str, int], list_date: dt.date, user_id
) -> int:
    """Create or correct the list's starting ratings; returns how many rows were created or changed."""
    existing = {
        row.player_id: row
        for row in StartingRating.objects.filter(rating_list=rating_list, player_id__in=[players[p] for p in ratings])
    }
    new, changed = [], []
    for person_id, rating in ratings.items():
        pk = players[person_id]
        row = existing.get(pk)
        if row is None:
            new.append(
                StartingRating(
                    rating_list=rating_list, player_id=pk, list_date=list_date, rating=rating, recorded_by_id=user_id
                )
            )
        elif int(row.rating) != rating or row.list_date != list_date:
            row.rating, row.list_date, row.recorded_by_id = rating, list_date, user_id
            changed.append(row)
    StartingRating.objects.bulk_create(new, batch_size=5000)
    versions.changed(StartingRating)
    for row in changed:
        row.save()
    return len(new) + len(changed)


def gorbunov_history_export(*, rating_list: RatingList) -> dict[str, Any]:
    """The list's whole history as a ``gorbunov`` document: starting ratings, options, every approved tournament of
    the list's formats in date order with its results in the order entered, and the players' names."""
    from ratings.gorbunov.services import _eligible

    params = validate(rating_list.params)
    starting = list(StartingRating.objects.filter(rating_list=rating_list).order_by("player__external_id", "player_id"))
    tournaments = list(
        _eligible(rating_list, dt.date.max)
        .order_by("end_date", "pk")
        .values("pk", "external_id", "name", "city", "end_date", "k", "card_format", "sqrt_rule", "sealed_cap")
    )
    results: dict[int, list[tuple[int, int]]] = {t["pk"]: [] for t in tournaments}
    rows = (
        Result.objects.filter(tournament_id__in=list(results), player__isnull=False)
        .order_by("tournament_id", "pk")
        .values_list("tournament_id", "player_id", "place")
    )
    for tournament_id, player_id, place in rows.iterator(chunk_size=20_000):
        results[tournament_id].append((player_id, place))
    player_pks = {row.player_id for row in starting} | {p for items in results.values() for p, _ in items}
    people = people_entries(player_pks)
    id_of = player_ids_map(player_pks)
    doc: dict[str, Any] = {"system": "gorbunov"}
    if starting:
        doc["ratings_date"] = min(row.list_date for row in starting).isoformat()
    doc["ratings"] = {id_of[row.player_id]: int(row.rating) for row in starting}
    doc["options"] = {key: params[key] for key in RATE_DEFAULTS}
    doc["players"] = people
    out = []
    for t in tournaments:
        item: dict[str, Any] = {
            "id": document_tournament_id(pk=t["pk"], external_id=t["external_id"]),
            "date": t["end_date"].isoformat(),
            "k": t["k"],
            "format": t["card_format"],
            "name": t["name"],
        }
        if t["city"]:
            item["city"] = t["city"]
        for key in ("sqrt_rule", "sealed_cap"):
            if t[key] is not None:
                item[key] = t[key]
        item["results"] = [{"player": id_of[p], "place": place} for p, place in results[t["pk"]]]
        out.append(item)
    doc["tournaments"] = out
    return doc


# The names ``ratings.history`` calls every home by.
history_check = gorbunov_history_check
history_import = gorbunov_history_import
history_export = gorbunov_history_export


def list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict[str, Any]:
    from ratings.gorbunov.selectors import gorbunov_list_document

    return gorbunov_list_document(rating_list=rating_list, as_of=as_of)
