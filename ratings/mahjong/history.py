"""The mahjong lists' history in and out as a ``mahjong-rr`` / ``mahjong-crr`` / ``mahjong-online`` document of
``manage.py rate`` (``ratings.history``, ``docs/rate-cli.md``).

Import: the whole document is checked first (every field of every tournament, then each tournament as the engine
validates it, plus what the site needs: two-letter countries, ids of at most 100 characters, a tournament imported
before with the same data), then the players (with the countries of the document's ``players``), the tournaments in
batches (one transaction each, approved, with their federation ids, stages and results, a participant without a
profile kept under a readable placeholder name), and every active mahjong list is rebuilt from the earliest new
tournament's end date to today, a snapshot on every date where a list changes (``mahjong_rebuild``, in one
transaction), as the daily job would have published them; a tournament that ends after today is left to the daily
job of its day.

The document's ``as_of`` (which ``rate`` needs) is checked but not used: the import publishes every date. The three
systems share the site's mahjong tournaments: a document names the list it is about (its ``as_of`` and
``country``), but its tournaments count wherever the lists' rules take them.

**Decisions** where the issue and the rules are silent:
- Accreditation, openness, EMA status and the legitimacy of a rank restriction are staff judgements: an imported
  tournament keeps them as judged at the import's time, by the user who ran it (nobody for the command line), with
  the note "imported history"; ``online`` and ``rank_restricted`` are facts of the tournament.
- The document's top-level ``country`` becomes the named list's country (as Gorbunov's ``options`` become its
  list's rules); the export writes the list's country. A new player gets the country the document's ``players``
  give, else that country; a player already on the site keeps theirs.
- A cut-off tournament's stages are stored with their players: the document's ``players`` of each stage, or, when
  it gives none, the count its results give (the engine's own reading). When a result's hanchans fall between two
  stages' totals, the two readings differ, so such a document must give every stage's ``players``.
- A participant without a profile (``"player": null``) is stored as "Участник без профиля, место N"; the export
  writes every such result, and a substitute's result, back as ``null``.
- Only players with a result are created (the ``players`` entries of others only give countries to the engine).
- Ties of equal ratings are ranked by name: the site ranks by the players' names, ``rate`` by the document's
  ``name`` (the id when it gives none); a player without a name gets "Игрок <id>", so two such players tie-break as
  in ``rate``. Tournaments that tie (same end date, same W·A or delta) are ordered by their document ids on both
  sides only when those ids sort as the site's do; the lists' numbers are the same either way.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from federation import versions
from federation.models import Player, country_code_validator
from federation.services import player_tournament_counts_refresh
from ratings.bulk import copy_rows
from ratings.engines import mahjong as engine
from ratings.engines.common import EngineError, FieldError
from ratings.engines.parse import parse_bool, parse_date, parse_int, parse_list, parse_object, parse_str
from ratings.history import (
    ID_MAX,
    HistoryError,
    ImportReport,
    document_tournament_id,
    parse_people,
    people_entries,
    player_ids_map,
    players_ensure,
    site_ids,
    text_field,
    tournaments_create,
)
from ratings.mahjong.params import ENGINE_PRESETS
from ratings.models import RatingList
from ratings.progress import Progress
from tournaments.models import Discipline, Result, Stage, Tournament, TournamentStatus

BATCH = 200
FLAGS = ("ema", "accredited", "open", "online", "rank_restricted", "rank_restriction_legitimate")
#: The document's flag -> the tournament's field.
FLAG_FIELDS = {flag: ("is_open" if flag == "open" else flag) for flag in FLAGS}
RESULT_COLUMNS = ("tournament_id", "player_id", "participant_name", "place", "hanchans_played", "substitute")
NO_PROFILE = "Участник без профиля, место {place}"
IMPORT_NOTE = "imported history"


# --- checking -------------------------------------------------------------------------------------------------------


def _field(errors: list[FieldError], read, *args, **kwargs):
    """``read(*args)``, or None with its error added to ``errors``."""
    try:
        return read(*args, **kwargs)
    except EngineError as error:
        errors.append(error)
        return None


def _country(value: Any, where: str, errors: list[FieldError]) -> str | None:
    code = _field(errors, parse_str, value, where)
    if code is None:
        return None
    try:
        country_code_validator(code)
    except Exception:
        errors.append(EngineError(where, f"{code!r} is not a two-letter country code"))
        return None
    return code


def _stages(obj: dict[str, Any], where: str, errors: list[FieldError]) -> list[tuple[int | None, int | None]]:
    if "stages" not in obj:
        return []
    raw_stages = obj["stages"]
    if not isinstance(raw_stages, list):
        errors.append(EngineError(f"{where}.stages", f"{raw_stages!r} is not a list of stages"))
        return []
    if not raw_stages:
        errors.append(EngineError(f"{where}.stages", "is empty; leave it out for a tournament without cut-offs"))
    stages = []
    for index, raw in enumerate(raw_stages):
        path = f"{where}.stages[{index}]"
        stage = _field(errors, parse_object, raw, path)
        if stage is None:
            stages.append((None, None))
            continue
        if "hanchans" not in stage:
            errors.append(EngineError(f"{path}.hanchans", "missing"))
            hanchans = None
        else:
            hanchans = _field(errors, parse_int, stage["hanchans"], f"{path}.hanchans", minimum=1)
        players = stage.get("players")
        if players is not None:
            players = _field(errors, parse_int, players, f"{path}.players", minimum=1)
        stages.append((hanchans, players))
    return stages


def _results(obj: dict[str, Any], where: str, errors: list[FieldError]) -> list[tuple[str | None, int, int | None]]:
    raw_results = _field(errors, parse_list, obj.get("results", []), f"{where}.results")
    results = []
    for index, raw in enumerate(raw_results or []):
        path = f"{where}.results[{index}]"
        result = _field(errors, parse_object, raw, path)
        if result is None:
            continue
        if "player" not in result:
            errors.append(EngineError(f"{path}.player", "missing (null for a participant without a profile)"))
            player = None
        elif result["player"] is None:
            player = None
        else:
            player = _field(errors, parse_str, result["player"], f"{path}.player")
            if player is not None and len(player) > ID_MAX:
                errors.append(EngineError(f"{path}.player", f"longer than {ID_MAX} characters"))
        if "place" not in result:
            errors.append(EngineError(f"{path}.place", "missing"))
            place = None
        else:
            place = _field(errors, parse_int, result["place"], f"{path}.place")
        played = result.get("hanchans")
        if played is not None:
            played = _field(errors, parse_int, played, f"{path}.hanchans")
        results.append((player, place, played))
    return results


def _tournament(raw: Any, where: str, country: str, errors: list[FieldError]) -> dict[str, Any] | None:
    """One tournament of the document, every field's mistake added to ``errors``; None when any was found."""
    before = len(errors)
    obj = _field(errors, parse_object, raw, where)
    if obj is None:
        return None
    tournament_id = _field(errors, parse_str, obj.get("id"), f"{where}.id")
    if tournament_id is not None and len(tournament_id) > ID_MAX:
        errors.append(EngineError(f"{where}.id", f"longer than {ID_MAX} characters"))
    end_date = _field(errors, parse_date, obj.get("end_date"), f"{where}.end_date")
    players = _field(errors, parse_int, obj.get("players"), f"{where}.players")
    stages = _stages(obj, where, errors)
    if "stages" in obj and "hanchans" not in obj:
        hanchans = sum(h or 0 for h, _players in stages)
    elif "hanchans" not in obj:
        errors.append(EngineError(f"{where}.hanchans", "missing (or give the stages of a cut-off tournament)"))
        hanchans = None
    else:
        hanchans = _field(errors, parse_int, obj.get("hanchans"), f"{where}.hanchans", minimum=1)
    own_country = _country(obj.get("country", country), f"{where}.country", errors)
    flags = {flag: _field(errors, parse_bool, obj.get(flag, False), f"{where}.{flag}") for flag in FLAGS}
    results = _results(obj, where, errors)
    name = text_field(obj, "name", where, errors)
    city = text_field(obj, "city", where, errors, limit=100)
    if len(errors) > before:
        return None
    rated = engine.RatedTournament(
        id=tournament_id,
        end_date=end_date,
        players=players,
        hanchans=hanchans,
        country=own_country,
        results=tuple(engine.Placement(player=p, place=place, hanchans=h) for p, place, h in results),
        stages=tuple(engine.CutoffStage(hanchans=h, players=p) for h, p in stages),
        **flags,
    )
    if not _valid(rated, where, errors):
        return None
    stored_stages = _stored_stages(rated, where, errors)
    if stored_stages is None:
        return None
    return {
        "where": where,
        "id": tournament_id,
        "end_date": end_date,
        "players": players,
        "hanchans": hanchans,
        "country": own_country,
        "flags": flags,
        "stages": stored_stages,
        "results": results,
        "name": name,
        "city": city,
    }


def _valid(rated: engine.RatedTournament, where: str, errors: list[FieldError]) -> bool:
    """The engine's checks of a tournament (``validate_tournament``), every result's error rather than the first."""
    before = len(errors)
    _field(errors, engine.validate_tournament, replace(rated, results=()), where)
    if len(errors) > before:
        return False
    if len(rated.results) > rated.players:
        errors.append(EngineError(f"{where}.results", f"{len(rated.results)} results but players is {rated.players}"))
    seen: dict[str, int] = {}
    for index, result in enumerate(rated.results):
        path = f"{where}.results[{index}]"
        try:
            engine.validate_tournament(replace(rated, results=(result,)), where)
        except EngineError as error:
            errors.append(EngineError(error.field.replace(f"{where}.results[0]", path, 1), error.message))
        if result.player is not None:
            if result.player in seen:
                errors.append(
                    EngineError(
                        f"{path}.player",
                        f"{result.player!r} appears twice in this tournament (results[{seen[result.player]}])",
                    )
                )
            seen.setdefault(result.player, index)
    return len(errors) == before


def _stored_stages(rated: engine.RatedTournament, where: str, errors: list[FieldError]) -> list[tuple[int, int]] | None:
    """The stages as the site keeps them, each with its players (see the module's decisions)."""
    stages = rated.stages
    if not stages:
        return []
    later = [stage.players for stage in stages[1:]]
    if all(count is not None for count in later):
        return [(stage.hanchans, players) for stage, players in zip(stages, [rated.players, *later], strict=True)]
    boundaries = []
    total = 0
    for stage in stages:
        total += stage.hanchans
        boundaries.append(total)
    for index, result in enumerate(rated.results):
        if result.hanchans not in boundaries:
            errors.append(
                EngineError(
                    f"{where}.results[{index}].hanchans",
                    f"{result.hanchans} is not the total of a stage ({', '.join(map(str, boundaries))}); "
                    "give every stage's players",
                )
            )
            return None
    counts = [rated.players]
    for played_before in boundaries[:-1]:
        counts.append(sum(1 for result in rated.results if result.hanchans > played_before))
    if any(count < 1 for count in counts):
        errors.append(EngineError(f"{where}.stages", "a stage that no result reached; give every stage's players"))
        return None
    return [(stage.hanchans, count) for stage, count in zip(stages, counts, strict=True)]


def _check(doc: dict[str, Any], rating_list: RatingList) -> dict[str, Any]:
    from ratings.mahjong.selectors import mahjong_settings

    errors: list[FieldError] = []
    if doc.get("system") != rating_list.engine:
        errors.append(
            EngineError("system", f"{doc.get('system')!r}: the list {rating_list.slug} is {rating_list.engine}")
        )
    if "as_of" in doc:
        _field(errors, parse_date, doc["as_of"], "as_of")
    country = mahjong_settings(rating_list).country
    if "country" in doc:
        country = _country(doc["country"], "country", errors) or country
    people = parse_people(doc, errors)
    raw_people = doc.get("players") if isinstance(doc.get("players"), list) else []
    seen: dict[str, int] = {}
    for index, item in enumerate(raw_people):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        if item["id"] in seen:
            errors.append(
                EngineError(f"players[{index}].id", f"{item['id']!r} appears twice (players[{seen[item['id']]}])")
            )
        seen.setdefault(item["id"], index)
        if not item.get("country"):
            errors.append(
                EngineError(f"players[{index}].country", "missing (players lists the players of other countries)")
            )
    raw_tournaments = doc.get("tournaments")
    if not isinstance(raw_tournaments, list):
        errors.append(EngineError("tournaments", "missing" if raw_tournaments is None else "is not a list"))
        raw_tournaments = []
    tournaments = []
    ids: dict[str, int] = {}
    for index, raw in enumerate(raw_tournaments):
        raw_id = raw.get("id") if isinstance(raw, dict) else None
        if isinstance(raw_id, str) and raw_id in ids:
            errors.append(
                EngineError(f"tournaments[{index}].id", f"{raw_id!r} appears twice (tournaments[{ids[raw_id]}])")
            )
            continue
        if isinstance(raw_id, str):
            ids[raw_id] = index
        tournament = _tournament(raw, f"tournaments[{index}]", country, errors)
        if tournament is not None:
            tournaments.append(tournament)
    if errors:
        raise HistoryError(errors)
    _check_known(tournaments, errors)
    if errors:
        raise HistoryError(errors)
    return {"country": country, "people": people, "tournaments": tournaments}


def _known(ids: list[str]) -> dict[str, int]:
    """The site's mahjong tournaments among a document's ids (federation id, or ``site-<pk>``): id -> pk."""
    mahjong = Tournament.objects.filter(discipline=Discipline.MAHJONG)
    known: dict[str, int] = {}
    for start in range(0, len(ids), 2000):
        known.update(mahjong.filter(external_id__in=ids[start : start + 2000]).values_list("external_id", "pk"))
    site = site_ids(ids)
    if site:
        for pk in mahjong.filter(pk__in=list(site), external_id="").values_list("pk", flat=True):
            known[site[pk]] = pk
    return known


def _stored(pks: list[int]) -> dict[int, dict[str, Any]]:
    """What the site holds of these tournaments, in the shape :func:`_tournament` gives a document's."""
    columns = ("pk", "end_date", "participants", "hanchans", "country", *FLAG_FIELDS.values())
    stored = {
        row["pk"]: {
            "end_date": row["end_date"],
            "players": row["participants"],
            "hanchans": row["hanchans"],
            "country": row["country"],
            "flags": {flag: row[name] for flag, name in FLAG_FIELDS.items()},
            "stages": [],
            "results": [],
        }
        for row in Tournament.objects.filter(pk__in=pks).values(*columns)
    }
    for tid, hanchans, players in (
        Stage.objects.filter(tournament_id__in=pks)
        .order_by("tournament_id", "number")
        .values_list("tournament_id", "hanchans", "players")
    ):
        stored[tid]["stages"].append((hanchans, players))
    rows = list(
        Result.objects.filter(tournament_id__in=pks)
        .order_by("tournament_id", "pk")
        .values_list("tournament_id", "player_id", "place", "hanchans_played", "substitute")
    )
    names = player_ids_map(p for _t, p, *_rest in rows if p is not None)
    for tid, player, place, played, substitute in rows:
        stored[tid]["results"].append((None if player is None or substitute else names[player], place, played))
    return stored


def _check_known(tournaments: list[dict[str, Any]], errors: list[FieldError]) -> None:
    """A tournament imported before must be the same tournament (date, size, flags, stages, results)."""
    known = _known([t["id"] for t in tournaments])
    if not known:
        return
    stored = _stored(list(known.values()))
    keys = ("end_date", "players", "hanchans", "country", "flags", "stages", "results")
    for t in tournaments:
        pk = known.get(t["id"])
        if pk is not None and any(stored[pk][key] != t[key] for key in keys):
            errors.append(
                EngineError(
                    f"{t['where']}.id",
                    f'"{t["id"]}" was imported before with other data; correct it in the admin, not by import',
                )
            )


# --- the three doors ------------------------------------------------------------------------------------------------


def mahjong_history_check(*, doc: dict[str, Any], rating_list: RatingList) -> dict[str, int]:
    """What the import would create, without saving anything (the admin's preview); ``HistoryError`` if refused."""
    _require_mahjong(rating_list)
    plan = _check(doc, rating_list)
    tournaments = plan["tournaments"]
    return {
        "players": len({p for t in tournaments for p, _place, _h in t["results"] if p is not None}),
        "tournaments": len(tournaments),
        "stages": sum(len(t["stages"]) for t in tournaments),
        "results": sum(len(t["results"]) for t in tournaments),
    }


def _require_mahjong(rating_list: RatingList) -> None:
    if rating_list.engine not in ENGINE_PRESETS:
        raise HistoryError([EngineError("list", f"{rating_list.slug} ({rating_list}) is not a mahjong list")])


def mahjong_history_import(
    *,
    doc: dict[str, Any],
    rating_list: RatingList,
    user: AbstractBaseUser | None = None,
    progress: Progress | None = None,
    publish: bool = True,
) -> ImportReport:
    """Load a mahjong document into the site's tournaments, then rebuild every active mahjong list (see module)."""
    from ratings.mahjong.selectors import mahjong_lists
    from ratings.mahjong.services import mahjong_rebuild

    _require_mahjong(rating_list)
    plan = _check(doc, rating_list)
    report = ImportReport(rating_list.engine)
    tournaments = plan["tournaments"]
    ids = [p for t in tournaments for p, _place, _h in t["results"] if p is not None]
    players, created = players_ensure(ids, plan["people"], default_country=plan["country"])
    if created:
        versions.changed(Player)  # created in bulk: no signal
    report.add("players", created, len(set(ids)) - created)
    country_changed = _set_country(rating_list, plan["country"])
    known = _known([t["id"] for t in tournaments])
    fresh = [t for t in tournaments if t["id"] not in known]
    report.add("tournaments", 0, len(tournaments) - len(fresh))
    user_id = user.pk if user is not None and user.is_authenticated else None
    now = timezone.now()
    for start in range(0, len(fresh), BATCH):
        batch = fresh[start : start + BATCH]
        if progress:
            progress(start, len(fresh), f"tournaments {start + 1}-{start + len(batch)}")
        with transaction.atomic():
            _write(batch, players, user_id, now)
        report.add("tournaments", len(batch))
        report.add("stages", sum(len(t["stages"]) for t in batch))
        report.add("results", sum(len(t["results"]) for t in batch))
    if fresh:
        touched = {players[p] for t in fresh for p, _place, _h in t["results"] if p is not None}
        player_tournament_counts_refresh(player_ids=touched if len(touched) <= 1000 else None)
        versions.changed(Player)  # their counts of tournaments, updated in bulk
    today = timezone.localdate()
    if country_changed:
        first = Tournament.objects.filter(discipline=Discipline.MAHJONG).order_by("end_date").first()
        start_date = first.end_date if first else today
    else:
        start_date = min((t["end_date"] for t in fresh), default=today)
    # Tournaments that end after today count from their date on, as the daily job finds them.
    if publish and (fresh or country_changed) and start_date <= today:
        end_date = today
        lists = list(mahjong_lists().order_by("pk"))
        days = (end_date - start_date).days + 1

        def step(done: int, total: int, day: str) -> None:
            if progress and (done % 30 == 0 or done == total):
                progress(done, total, f"lists as of {day}")

        # One transaction for every date: the import's lists appear together, and one commit instead of one per
        # date (thousands of them for two years of three lists).
        with transaction.atomic():
            mahjong_rebuild(
                rating_lists=lists,
                start=start_date,
                end=end_date,
                progress=step if progress else None,
                whole_run=True,
            )
        report.rebuilt.extend(rating.slug for rating in lists)
        report.add("list dates rebuilt", days)
    return report


def _set_country(rating_list: RatingList, country: str) -> bool:
    from ratings.mahjong.params import settings_to_params
    from ratings.mahjong.selectors import mahjong_settings

    params = settings_to_params(mahjong_settings(rating_list))
    if params["country"] == country:
        return False
    rating_list.params = {**rating_list.params, "country": country}
    rating_list.save(update_fields=["params"])
    return True


def _write(batch: list[dict[str, Any]], players: dict[str, int], user_id: int | None, now: dt.datetime) -> None:
    rows = []
    for t in batch:
        flags = t["flags"]
        judged = flags["accredited"] or flags["open"] or flags["ema"] or flags["rank_restriction_legitimate"]
        rows.append(
            Tournament(
                discipline=Discipline.MAHJONG,
                name=t["name"] or f"Турнир {t['id']}"[:200],
                start_date=t["end_date"],
                end_date=t["end_date"],
                city=t["city"],
                country=t["country"],
                status=TournamentStatus.APPROVED,
                approved_at=now,
                approved_by_id=user_id,
                submitted_at=now,
                hanchans=t["hanchans"],
                participants=t["players"],
                accredited=flags["accredited"],
                accredited_by_id=user_id if flags["accredited"] else None,
                accredited_at=now if flags["accredited"] else None,
                accreditation_note=IMPORT_NOTE if judged else "",
                is_open=flags["open"],
                ema=flags["ema"],
                open_ema_judged_by_id=user_id,
                open_ema_judged_at=now,
                online=flags["online"],
                rank_restricted=flags["rank_restricted"],
                rank_restriction_legitimate=flags["rank_restriction_legitimate"],
                external_id=t["id"],
            )
        )
    by_id = tournaments_create(rows)
    versions.changed(Tournament, Stage)  # created in bulk (the results' copy_rows says so too): no signal
    Stage.objects.bulk_create(
        [
            Stage(tournament_id=by_id[t["id"]], number=number, hanchans=hanchans, players=count)
            for t in batch
            for number, (hanchans, count) in enumerate(t["stages"], start=1)
        ]
    )
    copy_rows(
        Result,
        RESULT_COLUMNS,
        (
            (
                by_id[t["id"]],
                None if player is None else players[player],
                NO_PROFILE.format(place=place) if player is None else "",
                place,
                played,
                False,
            )
            for t in batch
            for player, place, played in t["results"]
        ),
    )


def mahjong_history_export(*, rating_list: RatingList) -> dict[str, Any]:
    """Every approved mahjong tournament as a document of the list's system, in end-date order, with its stages,
    its results in the order entered and the players' names and countries; ``as_of`` is the date of the list's
    newest snapshot (today when it has none), so that ``rate`` on the export prints what ``show_list`` prints."""
    from ratings.mahjong.selectors import mahjong_settings, rated_tournaments, snapshot_at

    _require_mahjong(rating_list)
    latest = snapshot_at(rating_list=rating_list, summary=False)
    columns = ("pk", "external_id", "name", "city", "end_date", "participants", "hanchans", "country")
    tournaments = list(rated_tournaments().order_by("end_date", "pk").values(*columns, *FLAG_FIELDS.values()))
    stored = _stored([t["pk"] for t in tournaments])
    player_pks = set(
        Result.objects.filter(tournament__in=rated_tournaments(), player__isnull=False, substitute=False).values_list(
            "player_id", flat=True
        )
    )
    doc: dict[str, Any] = {
        "system": rating_list.engine,
        "as_of": (latest.as_of if latest else timezone.localdate()).isoformat(),
        "country": mahjong_settings(rating_list).country,
        "players": people_entries(player_pks),
    }
    out = []
    for t in tournaments:
        held = stored[t["pk"]]
        item: dict[str, Any] = {
            "id": document_tournament_id(pk=t["pk"], external_id=t["external_id"]),
            "end_date": t["end_date"].isoformat(),
            "players": held["players"] or len(held["results"]),
            "hanchans": held["hanchans"] or sum(h for h, _p in held["stages"]),
            "country": t["country"],
            "name": t["name"],
        }
        if t["city"]:
            item["city"] = t["city"]
        item.update(held["flags"])
        if held["stages"]:
            item["stages"] = [{"hanchans": h, "players": p} for h, p in held["stages"]]
        results = []
        for player, place, played in held["results"]:
            line: dict[str, Any] = {"player": player, "place": place}
            if played is not None:
                line["hanchans"] = played
            results.append(line)
        item["results"] = results
        out.append(item)
    doc["tournaments"] = out
    return doc


# The names ``ratings.history`` calls every home by.
history_check = mahjong_history_check
history_import = mahjong_history_import
history_export = mahjong_history_export


def list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict[str, Any]:
    from ratings.mahjong.published import mahjong_list_document

    _require_mahjong(rating_list)
    return mahjong_list_document(rating_list=rating_list, as_of=as_of)
