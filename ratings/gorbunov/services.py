"""Writes of the Gorbunov rating lists: the weekly publication, the full rebuild, the default lists and schedule.

`rules/gorbunov.md`, "Weekly publication": the publication on Monday ``X`` publishes the list valid for the week that
starts on ``X`` (a ``RatingSnapshot`` with ``as_of = X``) from every approved tournament of the list's formats that
ended before ``X`` and that no earlier publication of the list took. A tournament of week ``w`` is rated with the
ratings valid in ``w`` (the snapshot with the largest ``as_of <= w``); when ``w`` is an earlier week than the last
one ("Decision (late results)") its changes still apply in the new publication, and published lists stay as they
are. The arithmetic is the engine's (``ratings.engines.gorbunov``); this module queries, feeds it plain tuples and
saves what comes back.

Storage (no new model): the newest snapshot of a list holds one ``RatingEntry`` per rated player (rank, rating,
change against last week, tournaments counted); when the next week is published, the older snapshot keeps only the
players whose rating moved that week, because everyone else's row would repeat the row before it. The list as of
any past week is therefore each player's newest entry up to that week (``selectors.list_rows``), with the same
numbers and ranks as when it was published, and ten years of history take hundreds of thousands of rows, not
tens of millions. A rebuild writes the same shape, so "rebuild equals the weekly runs" holds row for row.

Safety: each publication or rebuild is one transaction holding ``SELECT ... FOR UPDATE`` on the ``RatingList`` row
(PostgreSQL); a second run waits for it, then finds the week published and does nothing. Running a week twice is a
no-op, a failure anywhere rolls the whole run back and leaves the previous snapshot as it was. Rows are written by
``ratings.bulk.copy_rows`` (``COPY`` on PostgreSQL) and deleted by ``_delete``; the pages change when the run commits
(``federation.versions``).
"""

from __future__ import annotations

import bisect
import datetime as dt
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from federation import versions
from ratings.bulk import copy_rows
from ratings.engines.common import shown
from ratings.engines.gorbunov import (
    FLOOR,
    START_RATING,
    Change,
    GorbunovSettings,
    Placement,
    RatedTournament,
    rate_week,
    week_start,
)
from ratings.gorbunov.params import ALL_FORMATS, engine_settings, validate
from ratings.gorbunov.selectors import whole_before, whole_week
from ratings.models import Engine, RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
from ratings.progress import Progress, Written
from tournaments.models import CardFormat, Discipline, Result, Tournament, TournamentStatus

logger = logging.getLogger(__name__)

WEEK = dt.timedelta(days=7)

#: The beat entry staff see under "Periodic tasks" (a Monday-morning job: every Monday at 06:00 in TIME_ZONE).
PERIODIC_TASK_NAME = "Gorbunov rating: weekly publication (Monday 06:00)"
WEEKLY_TASK = "ratings.gorbunov.publish_weekly"

DEFAULT_LISTS = [
    {
        "slug": "gorbunov",
        "name": "Горбунов, все форматы",
        "name_en": "Gorbunov, all formats",
        "params": {"formats": ALL_FORMATS, "sqrt_rule": True},
        "ordering": 10,
    },
    {
        "slug": "gorbunov-constructed",
        "name": "Горбунов, констрактед",
        "name_en": "Gorbunov, constructed",
        "params": {"formats": [CardFormat.CONSTRUCTED.value], "sqrt_rule": True},
        "ordering": 11,
    },
    {
        "slug": "gorbunov-limited",
        "name": "Горбунов, лимитед",
        "name_en": "Gorbunov, limited",
        "params": {
            "formats": [CardFormat.LIMITED.value, CardFormat.SEALED.value, CardFormat.DRAFT.value],
            "sqrt_rule": True,
        },
        "ordering": 12,
    },
]


class PublicationError(Exception):
    """A publication that cannot run, with the reason for staff (e.g. the list is not a Gorbunov list)."""


@dataclass
class PublicationResult:
    rating_list_id: int
    status: str  # "published", "already published", "nothing to publish", "rebuilt"
    weeks: list[str] = field(default_factory=list)
    tournaments: int = 0
    changes: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "rating_list_id": self.rating_list_id,
            "status": self.status,
            "weeks": self.weeks,
            "tournaments": self.tournaments,
            "changes": self.changes,
            "seconds": round(self.seconds, 3),
        }


# --- loading -------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Loaded:
    """A tournament as read from the database: the engine's tournament and who is a real player."""

    pk: int
    end_date: dt.date
    rated: RatedTournament
    players: dict[str, int]  # engine key -> Player pk (participants without a profile are absent)
    problem: str = ""


def publication_monday(today: dt.date | None = None) -> dt.date:
    """The Monday of the current rating week in the federation's time zone (settings.TIME_ZONE): the ``as_of`` of
    the list a publication today writes."""
    return week_start(today or timezone.localdate())


def _eligible(rating_list: RatingList, before: dt.date):
    formats = validate(rating_list.params)["formats"]
    return Tournament.objects.filter(
        discipline=Discipline.CARD_GAMES,
        status=TournamentStatus.APPROVED,
        card_format__in=formats,
        end_date__lt=before,
    )


def _load(queryset) -> list[_Loaded]:
    """Tournaments and their results in two queries whatever their number, in date order."""
    columns = ("pk", "end_date", "k", "card_format", "sqrt_rule", "sealed_cap")
    heads = {pk: rest for pk, *rest in queryset.values_list(*columns).iterator()}
    if not heads:
        return []
    results: dict[int, list[tuple[int, int | None, int]]] = {pk: [] for pk in heads}
    rows_query = (
        Result.objects.filter(tournament__in=queryset.values("pk"))
        .order_by("tournament_id", "place", "pk")
        .values_list("tournament_id", "pk", "player_id", "place")
    )
    for tournament_id, result_pk, player_id, place in rows_query.iterator(chunk_size=20_000):
        results[tournament_id].append((result_pk, player_id, place))
    loaded = []
    for pk, (end_date, k, card_format, sqrt_rule, sealed_cap) in heads.items():
        rows = results[pk]
        players = {}
        placements = []
        for result_pk, player_id, place in rows:
            key = str(player_id) if player_id is not None else f"r{result_pk}"
            if player_id is not None:
                players[key] = player_id
            placements.append(Placement(key, place))
        problem = ""
        if [place for _r, _p, place in rows] != list(range(1, len(rows) + 1)):
            problem = "places are not 1..U"
        elif not k:
            problem = "K is not set"
        rated = RatedTournament(
            id=str(pk),
            date=end_date,
            k=k or 1,
            results=tuple(placements),
            format=card_format or "",
            sqrt_rule=sqrt_rule,
            sealed_cap=sealed_cap,
        )
        loaded.append(_Loaded(pk, end_date, rated, players, problem))
    loaded.sort(key=lambda t: (t.end_date, t.pk))
    return loaded


def starting_ratings(rating_list: RatingList) -> dict[int, int]:
    """The ratings the list starts from (``StartingRating``, the federation's list carried over): every rebuild
    begins with them; everyone else starts at 100."""
    rows = StartingRating.objects.filter(rating_list=rating_list).values_list("player_id", "rating")
    return {player_id: int(rating) for player_id, rating in rows.iterator(chunk_size=20_000)}


def _processed(rating_list: RatingList) -> set[int]:
    done: set[int] = set()
    for summary in RatingSnapshot.objects.filter(rating_list=rating_list).values_list("summary", flat=True):
        done.update((summary or {}).get("tournaments", []))
    return done


def _full_state(snapshot: RatingSnapshot, *, newest: bool = False) -> tuple[dict[int, int], dict[int, int]]:
    """Ratings and tournament counts of every player as of ``snapshot`` (the newest entry of each up to it; the
    newest snapshot of a list holds every player)."""
    ratings: dict[int, int] = {}
    events: dict[int, int] = {}
    if newest:
        rows = RatingEntry.objects.filter(snapshot=snapshot)
    else:
        rows = RatingEntry.objects.filter(
            snapshot__rating_list_id=snapshot.rating_list_id,
            snapshot__as_of__lte=snapshot.as_of,
            snapshot__as_of__gte=whole_before(snapshot.rating_list_id, snapshot.as_of),
        ).order_by("snapshot__as_of")
    rows = rows.values_list("player_id", "rating", "events")
    for player_id, rating, count in rows.iterator(chunk_size=20_000):
        ratings[player_id] = int(rating)
        events[player_id] = count
    return ratings, events


# --- one publication, in memory -------------------------------------------------------------------------------------


@dataclass
class _Week:
    """What one publication writes: the new ratings and counts, the changes, and the summary."""

    as_of: dt.date
    ratings: dict[int, int]
    events: dict[int, int]
    previous: dict[int, int]
    moved: set[int]
    changes: list[tuple[Change, int, int, dt.date, bool]]  # change, player pk, tournament pk, event date, late
    summary: dict[str, Any]


def _compute(
    *,
    as_of: dt.date,
    ratings: dict[int, int],
    events: dict[int, int],
    tournaments: Sequence[_Loaded],
    list_settings: GorbunovSettings,
    ratings_of_week: Callable[[dt.date], dict[int, int]],
) -> _Week:
    """`rules/gorbunov.md`, "Weekly publication": Rn = max(100, Rs + sum of I) for the tournaments of week as_of - 7;
    a late tournament of an earlier week uses that week's ratings and its I is added to the rating of now."""
    current_week = as_of - WEEK
    groups: dict[dt.date, list[_Loaded]] = {}
    skipped: dict[str, dict[str, str]] = {}
    processed = []
    for tournament in tournaments:
        if tournament.problem:
            skipped[str(tournament.pk)] = {"problem": tournament.problem}
            continue
        groups.setdefault(week_start(tournament.end_date), []).append(tournament)
    totals: dict[int, int] = {}
    counted: dict[int, int] = {}
    changes = []
    not_rated: dict[str, dict[str, str]] = {}
    late = []
    for week in sorted(groups):
        group = groups[week]
        is_late = week < current_week
        base = ratings if not is_late else ratings_of_week(week)
        keyed = {str(pk): rating for pk, rating in base.items()}
        outcome = rate_week(keyed, [t.rated for t in group], list_settings)
        by_id = {str(t.pk): t for t in group}
        for result in outcome.tournaments:
            loaded = by_id[result.tournament.id]
            processed.append(loaded.pk)
            if is_late:
                late.append(loaded.pk)
            if not result.rated:
                not_rated[str(loaded.pk)] = result.reason.as_dict()
                continue
            for change in result.changes:
                player_id = loaded.players.get(change.player)
                if player_id is None:
                    continue
                totals[player_id] = totals.get(player_id, 0) + change.delta
                counted[player_id] = counted.get(player_id, 0) + 1
                changes.append((change, player_id, loaded.pk, loaded.end_date, is_late))
    previous = dict(ratings)
    new_ratings = dict(ratings)
    new_events = dict(events)
    for player_id, total in totals.items():
        rating = ratings.get(player_id, START_RATING) + total
        new_ratings[player_id] = rating if rating > FLOOR else FLOOR
        new_events[player_id] = events.get(player_id, 0) + counted[player_id]
    summary = {
        "tournaments": processed,
        "rated": len(processed) - len(not_rated),
        "not_rated": not_rated,
        "late": late,
        "skipped": skipped,
        "players": len(new_ratings),
        "moved": len(totals),
    }
    return _Week(as_of, new_ratings, new_events, previous, set(totals), changes, summary)


def _entry_rows(snapshot_id: int, week: _Week, *, full: bool) -> Iterable[tuple]:
    ascending = sorted(week.ratings.values())
    count = len(ascending)
    players = week.ratings if full else week.moved
    for player_id in players:
        rating = week.ratings[player_id]
        rank = count - bisect.bisect_right(ascending, rating) + 1
        before = week.previous.get(player_id)
        delta = None if before is None else rating - before
        yield (snapshot_id, player_id, rank, rating, delta, week.events.get(player_id, 0), {})


def _change_rows(rating_list_id: int, snapshot_id: int, week: _Week) -> Iterable[tuple]:
    iso = week.as_of.isoformat()
    for change, player_id, tournament_id, event_date, late in week.changes:
        ctx = change.context
        details = {
            "U": ctx.participants,
            "M": change.place,
            "Rt": shown(ctx.strength_total, ctx.participants, 4),
            "Rt_total": ctx.strength_total,
            "Rs": change.before,
            "K": ctx.k,
            "K_given": ctx.k_given,
            "draft_bonus": ctx.draft_bonus,
            "sealed": ctx.sealed,
            "sqrt_rule": ctx.sqrt_rule,
            "base": shown(change.base_numerator, 800 * ctx.participants, 4),
            "raw": shown(change.raw_numerator, 800 * ctx.participants, 4),
            "rules": list(change.rules),
            # The exact base and raw (over 800 U): the explanation is written from them on reading (``explain``).
            "base_n": change.base_numerator,
            "raw_n": change.raw_numerator,
            "late": late,
            "published": iso,
        }
        yield (
            rating_list_id,
            player_id,
            tournament_id,
            snapshot_id,
            event_date,
            change.before,
            change.after,
            change.delta,
            details,
            "",  # the texts are the engine's from ``details`` (``ratings.change_texts``, issue 29)
            "",
        )


ENTRY_COLUMNS = ("snapshot_id", "player_id", "rank", "rating", "delta", "events", "details")
CHANGE_COLUMNS = (
    "rating_list_id",
    "player_id",
    "tournament_id",
    "snapshot_id",
    "event_date",
    "before",
    "after",
    "delta",
    "details",
    "explanation_en",
    "explanation_ru",
)


def _thin(snapshot: RatingSnapshot) -> None:
    """Keep in a snapshot that is no longer the newest only the players whose rating moved in it (see module); a
    whole week's keeps everyone (``whole_week``)."""
    if snapshot.summary.get("whole"):
        return
    moved = RatingChange.objects.filter(snapshot=snapshot).values("player_id")
    _delete(RatingEntry.objects.filter(snapshot=snapshot).exclude(player_id__in=moved))


def _delete(rows: QuerySet) -> None:
    """Delete ``rows``; their pages change when the transaction commits (``federation.versions``: entries and changes
    have no delete receiver, so Django deletes them in one statement)."""
    rows.delete()
    versions.changed(rows.model)


# --- the services ---------------------------------------------------------------------------------------------------


def _lock(rating_list_id: int) -> RatingList:
    rating_list = RatingList.objects.select_for_update().get(pk=rating_list_id)
    if rating_list.engine != Engine.GORBUNOV:
        raise PublicationError(f"{rating_list} is not a Gorbunov list")
    return rating_list


def gorbunov_publish(
    *,
    rating_list_id: int,
    week: dt.date | None = None,
    progress: Progress | None = None,
    written: Written | None = None,
) -> PublicationResult:
    """Publish the list for the rating week that starts on ``week`` (default: this week), and any week before it
    that is still missing. Publishing a published week changes nothing; a list with no publication yet is built
    from its first tournament (``gorbunov_rebuild``). ``written(slug, weeks=[...])`` records, inside the
    publication's transaction, what it wrote (the job's record, ``ratings.jobs.RunProgress.written``)."""
    started = time.perf_counter()
    target = week_start(week or publication_monday())
    with transaction.atomic():
        rating_list = _lock(rating_list_id)
        latest = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").first()
        if latest is None:
            result = _rebuild_locked(rating_list, target, progress)
            result.status = "published" if result.weeks else "nothing to publish"
            result.seconds = time.perf_counter() - started
            if written is not None and result.weeks:
                written(rating_list.slug, weeks=list(result.weeks))
            return result
        if latest.as_of >= target:
            return PublicationResult(rating_list.pk, "already published", seconds=time.perf_counter() - started)
        list_settings = engine_settings(rating_list.params)
        done = _processed(rating_list)
        ratings, events = _full_state(latest, newest=True)
        result = PublicationResult(rating_list.pk, "published")
        weeks = []
        as_of = latest.as_of + WEEK
        while as_of <= target:
            weeks.append(as_of)
            as_of += WEEK
        for index, as_of in enumerate(weeks):
            if progress:
                progress(index, len(weeks), as_of.isoformat())
            eligible = _eligible(rating_list, as_of)
            pending = [pk for pk in eligible.values_list("pk", flat=True).iterator() if pk not in done]
            week_data = _compute(
                as_of=as_of,
                ratings=ratings,
                events=events,
                tournaments=_load(eligible.filter(pk__in=pending)) if pending else [],
                list_settings=list_settings,
                ratings_of_week=lambda w: _ratings_of_week(rating_list, w),
            )
            latest = _write_week(rating_list, latest, week_data, mode="weekly")
            ratings, events = week_data.ratings, week_data.events
            done.update(week_data.summary["tournaments"])
            result.weeks.append(as_of.isoformat())
            result.tournaments += len(week_data.summary["tournaments"])
            result.changes += len(week_data.changes)
        if progress:
            progress(len(weeks), len(weeks), "done")
        if written is not None and result.weeks:
            written(rating_list.slug, weeks=list(result.weeks))
    result.seconds = time.perf_counter() - started
    logger.info("gorbunov publication of %s: %s, weeks %s", rating_list_id, result.status, ", ".join(result.weeks[-5:]))
    return result


def _ratings_of_week(rating_list: RatingList, week: dt.date) -> dict[int, int]:
    """The ratings valid in the rating week that starts on ``week``: those of the newest snapshot up to it."""
    snapshot = RatingSnapshot.objects.filter(rating_list=rating_list, as_of__lte=week).order_by("-as_of").first()
    if snapshot is None:
        return {}
    return _full_state(snapshot)[0]


def _write_week(rating_list: RatingList, previous: RatingSnapshot | None, week: _Week, *, mode: str) -> RatingSnapshot:
    if previous is not None:
        _thin(previous)
    summary = {**week.summary, "mode": mode, **({"whole": True} if whole_week(week.as_of) else {})}
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=week.as_of, summary=summary)
    copy_rows(RatingEntry, ENTRY_COLUMNS, _entry_rows(snapshot.pk, week, full=True))
    copy_rows(RatingChange, CHANGE_COLUMNS, _change_rows(rating_list.pk, snapshot.pk, week))
    return snapshot


def gorbunov_rebuild(*, rating_list_id: int, progress: Progress | None = None) -> PublicationResult:
    """Recompute the whole history of a list from its first tournament, in one transaction: every snapshot and
    change of the list is deleted and written again up to the newest published week (this week if none), starting
    from the list's starting ratings (``StartingRating``)."""
    started = time.perf_counter()
    with transaction.atomic():
        rating_list = _lock(rating_list_id)
        latest = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").first()
        target = latest.as_of if latest else publication_monday()  # the published weeks, no new one
        _delete(RatingChange.objects.filter(rating_list=rating_list))
        _delete(RatingEntry.objects.filter(snapshot__rating_list=rating_list))
        _delete(RatingSnapshot.objects.filter(rating_list=rating_list))
        result = _rebuild_locked(rating_list, target, progress)
    result.status = "rebuilt"
    result.seconds = time.perf_counter() - started
    logger.info(
        "gorbunov rebuild of %s: %d weeks, %d tournaments, %d changes in %.1f s",
        rating_list_id,
        len(result.weeks),
        result.tournaments,
        result.changes,
        result.seconds,
    )
    return result


def _rebuild_locked(rating_list: RatingList, target: dt.date, progress: Progress | None) -> PublicationResult:
    started = time.perf_counter()
    list_settings = engine_settings(rating_list.params)
    result = PublicationResult(rating_list.pk, "rebuilt")
    tournaments = _load(_eligible(rating_list, target))
    if not tournaments:
        return result
    by_week: dict[dt.date, list[_Loaded]] = {}
    for tournament in tournaments:
        by_week.setdefault(week_start(tournament.end_date) + WEEK, []).append(tournament)
    weeks = []
    as_of = min(by_week)
    while as_of <= target:
        weeks.append(as_of)
        as_of += WEEK
    snapshots = RatingSnapshot.objects.bulk_create(
        [RatingSnapshot(rating_list=rating_list, as_of=as_of, summary={}) for as_of in weeks]
    )
    if snapshots and snapshots[0].pk is None:  # backends that do not return ids
        snapshots = list(RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of"))
    entry_rows: list[tuple] = []
    starting = starting_ratings(rating_list)  # read before the COPY starts: no query may run inside it

    def changes_week_by_week() -> Iterable[tuple]:
        # One COPY stream for all the changes: PostgreSQL stores (and checks) the rows of a week while the next
        # week is computed here.
        ratings: dict[int, int] = starting
        events: dict[int, int] = {}
        for index, (as_of, snapshot) in enumerate(zip(weeks, snapshots, strict=True)):
            if progress and index % 10 == 0:
                progress(index, len(weeks), as_of.isoformat())
            week_data = _compute(
                as_of=as_of,
                ratings=ratings,
                events=events,
                tournaments=by_week.get(as_of, ()),
                list_settings=list_settings,
                ratings_of_week=lambda _w: {},  # nothing is late in a rebuild: every week is rated in its order
            )
            whole = whole_week(as_of)
            snapshot.summary = {**week_data.summary, "mode": "rebuild", **({"whole": True} if whole else {})}
            entry_rows.extend(_entry_rows(snapshot.pk, week_data, full=whole or index == len(weeks) - 1))
            yield from _change_rows(rating_list.pk, snapshot.pk, week_data)
            ratings, events = week_data.ratings, week_data.events
            result.weeks.append(as_of.isoformat())
            result.tournaments += len(week_data.summary["tournaments"])
            result.changes += len(week_data.changes)

    copy_rows(RatingChange, CHANGE_COLUMNS, changes_week_by_week())
    if progress:
        progress(len(weeks), len(weeks), "writing")
    copy_rows(RatingEntry, ENTRY_COLUMNS, entry_rows)
    RatingSnapshot.objects.bulk_update(snapshots, ["summary"], batch_size=500)
    versions.changed(RatingSnapshot)  # written in bulk: no signal (the entries' and changes' COPY bumps too)
    result.seconds = time.perf_counter() - started
    return result


def gorbunov_publish_all(*, week: dt.date | None = None, written: Written | None = None) -> list[dict[str, Any]]:
    """The Monday job: publish every active Gorbunov list; one list failing does not stop the others."""
    outcomes = []
    for pk in RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).values_list("pk", flat=True):
        try:
            outcomes.append(gorbunov_publish(rating_list_id=pk, week=week, written=written).as_dict())
        except Exception as error:
            logger.exception("gorbunov publication of list %s failed", pk)
            outcomes.append({"rating_list_id": pk, "status": "failed", "error": str(error)})
    return outcomes


@transaction.atomic
def gorbunov_setup_defaults() -> None:
    """Idempotent: the default Gorbunov lists and the Monday 06:00 beat entry (call it from a post_migrate handler).

    Existing rows are left as staff edited them (a paused schedule stays paused, a changed list keeps its params).
    """
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    for spec in DEFAULT_LISTS:
        RatingList.objects.get_or_create(
            slug=spec["slug"],
            defaults={
                "name": spec["name"],
                "name_en": spec["name_en"],
                "engine": Engine.GORBUNOV,
                "params": validate(spec["params"]),
                "ordering": spec["ordering"],
            },
        )
    # Every Monday at 06:00 in the federation's time zone (rules/gorbunov.md, "Weekly publication").
    schedule, _created = CrontabSchedule.objects.get_or_create(
        minute="0", hour="6", day_of_week="1", day_of_month="*", month_of_year="*", timezone=settings.TIME_ZONE
    )
    PeriodicTask.objects.get_or_create(
        name=PERIODIC_TASK_NAME,
        defaults={
            "task": WEEKLY_TASK,
            "crontab": schedule,
            "description": "Publishes every active Gorbunov rating list for the new rating week.",
        },
    )
