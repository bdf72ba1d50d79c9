"""Writes for the mahjong lists: snapshots by date, the daily job, rebuilds, accreditation and staff judgements.

A snapshot of a list as of a date is written when the list's input changed since the snapshot in force before it:
a counted tournament added or corrected (its results, flags, stages or its players' countries), a tournament that
starts or stops counting, any counted tournament's A stepping down (`rules/mahjong.md`, "When lists change"), or
the list's parameters. That input is summed up in a fingerprint kept in the snapshot's summary, so the daily job
and a rebuild decide in the same way, by the engine's own date rule (``age_bp``), whether a date needs a snapshot.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Iterable
from datetime import date, timedelta

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engines import mahjong as engine
from ratings.mahjong.explain import Explainer
from ratings.mahjong.params import settings_to_params, validate_crr, validate_online, validate_rr
from ratings.mahjong.selectors import MAHJONG_ENGINES, MahjongData, mahjong_data, mahjong_lists, mahjong_settings
from ratings.mahjong.storage import ListWriter
from ratings.models import Engine, RatingList, RatingSnapshot
from ratings.progress import Progress, Written
from tournaments.models import Discipline, Tournament

logger = logging.getLogger(__name__)

DAILY_TASK_NAME = "mahjong: today's RR, CRR and online lists"
DAILY_TASK = "ratings.mahjong.tasks.mahjong_daily"

DEFAULT_LISTS = (
    ("mahjong-rr", "Рейтинг RR", "RR rating", Engine.MAHJONG_RR, validate_rr, 10),
    ("mahjong-crr", "Рейтинг CRR", "CRR rating", Engine.MAHJONG_CRR, validate_crr, 11),
    ("mahjong-online", "Онлайн-рейтинг", "Online rating", Engine.MAHJONG_ONLINE, validate_online, 12),
)


# ---------------------------------------------------------------------------------------------------------------
# One list as of one date
# ---------------------------------------------------------------------------------------------------------------


class _ListContext:
    """What a list needs across the dates of one run: its settings and each tournament's eligibility, once."""

    def __init__(self, rating_list: RatingList, data: MahjongData) -> None:
        self.rating_list = rating_list
        self.settings = mahjong_settings(rating_list)
        self.params_text = json.dumps(settings_to_params(self.settings), sort_keys=True)
        self.data = data
        self.countries = {pid: player.country for pid, player in data.players.items()}
        self._eligible: dict[str, bool] = {}
        self._coefficients: dict[str, engine.Coefficients] = {}
        self.state = engine.ListState(settings=self.settings, players=data.players.values())
        """The engine's state across the dates of a run: each date recomputes only the players whose input changed."""

    def eligible(self, tournament: engine.RatedTournament) -> bool:
        found = self._eligible.get(tournament.id)
        if found is None:
            found = not engine.eligibility(tournament, self.settings, self.countries)
            self._eligible[tournament.id] = found
        return found

    def coefficients(self, tournament: engine.RatedTournament) -> engine.Coefficients:
        found = self._coefficients.get(tournament.id)
        if found is None:
            found = self._coefficients[tournament.id] = engine.tournament_coefficients(tournament)
        return found

    def counts_any(self, window: list[tuple[engine.RatedTournament, int]]) -> bool:
        return any(self.eligible(t) for t, _ in window)

    def fingerprint(self, window: list[tuple[engine.RatedTournament, int]]) -> str:
        """The list's input on a date: its parameters, each tournament's digest, and each counted one's A."""
        parts = [self.params_text]
        # A tournament that does not count still shows on the list's page with its reasons: adding or correcting
        # it changes the snapshot, but its A does not.
        parts += [f"{t.id}:{self.data.digests[t.id]}:{a if self.eligible(t) else '-'}" for t, a in window]
        return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _explainer(rating_list: RatingList):
    """The engine's explanations of a date of ``rating_list`` a run did not compute (``storage.Explain``)."""

    def explain(snapshot: RatingSnapshot, ranks: dict[int, int]) -> dict[int, dict]:
        data = mahjong_data(start=snapshot.as_of, end=snapshot.as_of)
        return Explainer(rating_list, data).details(snapshot.as_of, ranks)

    return explain


def _fingerprint_before(rating_list: RatingList, day: date) -> str | None:
    """The fingerprint of the snapshot in force the day before ``day`` (None before the list's first)."""
    snapshot = rating_list.snapshots.filter(as_of__lt=day).order_by("-as_of").only("summary").first()
    return None if snapshot is None else snapshot.summary.get("fingerprint")


def _summary(
    context: _ListContext,
    result: engine.ListOutcome,
    window: list[tuple[engine.RatedTournament, int]],
    fingerprint: str,
    seconds: float,
) -> dict:
    by_id = {t.id: (t, a) for t, a in window}
    maxk_ids = {item.tournament for item in result.maxk if item.tournament}
    counted = []
    for tid in result.counted:
        tournament, a = by_id[tid]
        coefficients = context.coefficients(tournament)
        w = coefficients.finalist_w_cents
        counted.append(
            {
                "id": tid,
                "end": tournament.end_date.isoformat(),
                "players": tournament.players,
                "hanchans": tournament.hanchans,
                "cutoff": tournament.is_cutoff,
                "w": w / engine.CENT,
                "a": a / engine.CENT,
                "wa": w * a / engine.WA_UNIT,
                "maxk": tid in maxk_ids,
            }
        )
    return {
        "fingerprint": fingerprint,
        "params": settings_to_params(context.settings),
        "maxk": [
            {"tournament": item.tournament, "w": item.w, "a": round(item.a * 100, 2), "wa": item.wa}
            for item in result.maxk
        ],
        "maxk_total": sum(item.wa_units for item in result.maxk) / engine.WA_UNIT,
        "counted": counted,
        "excluded": [{"id": item.tournament, "en": item.reason.en, "ru": item.reason.ru} for item in result.excluded],
        "invalid": [{"id": tid, "message": message} for tid, message in sorted(context.data.invalid.items())],
        "entries": len(result.entries),
        "unlisted": len(result.unlisted),
        "seconds": round(seconds, 3),
    }


def _store(
    *,
    context: _ListContext,
    as_of: date,
    window: list[tuple[engine.RatedTournament, int]],
    fingerprint: str,
    writer: ListWriter,
) -> RatingSnapshot:
    """Compute the list as of ``as_of`` and write its snapshot (replacing one of that date) in the caller's atomic:
    the rows of the players whose entry changed since the list before it (``storage.ListWriter``).

    The list comes from the context's :class:`engine.ListState`, which recomputes only the players whose input
    changed since the context's previous date (the same result as ``engine.compute_list``).
    """
    started = time.perf_counter()
    result = context.state.compute(as_of=as_of, tournaments=[t for t, _ in window])
    seconds = time.perf_counter() - started
    RatingSnapshot.objects.filter(rating_list=context.rating_list, as_of=as_of).delete()
    snapshot = RatingSnapshot.objects.create(
        rating_list=context.rating_list,
        as_of=as_of,
        summary=_summary(context, result, window, fingerprint, seconds),
    )
    writer.write(snapshot, result.entries)
    return snapshot


def _window(data: MahjongData, as_of: date) -> list[tuple[engine.RatedTournament, int]]:
    """The tournaments with A > 0 on ``as_of``, with their A in hundredths of a percent."""
    found = []
    steps = data.age_steps
    for tournament in data.tournaments:
        if tournament.end_date > as_of:
            break
        found_steps = steps.get(tournament.id)
        if found_steps is None:
            found_steps = steps[tournament.id] = engine.age_steps(tournament.end_date)
        a = engine.age_bp_by_steps(tournament.end_date, found_steps, as_of)
        if a > 0:
            found.append((tournament, a))
    return found


def _lock(lists: Iterable[RatingList]) -> list[RatingList]:
    """Two runs of one list never overlap: each run holds its lists' rows (PostgreSQL) until it commits."""
    return list(RatingList.objects.select_for_update().filter(pk__in=[rl.pk for rl in lists]).order_by("pk"))


# ---------------------------------------------------------------------------------------------------------------
# The daily job and rebuilds
# ---------------------------------------------------------------------------------------------------------------


@transaction.atomic
def mahjong_daily(*, today: date | None = None) -> dict[str, str]:
    """Today's lists, each only if its input changed since the snapshot in force (`rules/mahjong.md`).

    Returns, per list slug, "computed" or "unchanged". Earlier snapshots read as they did; a second run on the same
    day finds today's snapshot with the same fingerprint and writes nothing.
    """
    today = today or timezone.localdate()
    lists = _lock(mahjong_lists())
    data = mahjong_data(start=today, end=today)
    window = _window(data, today)
    outcome = {}
    for rating_list in lists:
        context = _ListContext(rating_list, data)
        fingerprint = context.fingerprint(window)
        current = rating_list.snapshots.filter(as_of__lte=today).order_by("-as_of").only("summary", "as_of").first()
        if (current is not None and current.summary.get("fingerprint") == fingerprint) or (
            current is None and not context.counts_any(window)
        ):
            outcome[rating_list.slug] = "unchanged"
            continue
        writer = ListWriter(rating_list.pk, today, today, _explainer(rating_list))
        _store(context=context, as_of=today, window=window, fingerprint=fingerprint, writer=writer)
        writer.seal()
        outcome[rating_list.slug] = "computed"
        logger.info("mahjong %s computed as of %s", rating_list.slug, today)
    return outcome


def mahjong_rebuild(
    *,
    rating_lists: Iterable[RatingList],
    start: date,
    end: date,
    progress: Progress | None = None,
    written: Written | None = None,
    whole_run: bool = False,
) -> dict[str, int]:
    """Staff rebuild the snapshots of ``start``..``end``: a snapshot on each date where the list's input changed.

    Snapshots in the range on dates where nothing changed are removed, so that the range reads as if the daily job
    had run every day with today's data; a snapshot after the range reads as it did. Each date is written in its own
    transaction, holding the list's lock, unless the caller holds one transaction for the whole run (``whole_run``,
    an import): then only the rows of the players whose entry changed are written on each date, and the newest
    snapshot is made whole once, at the end. The input is read once for the whole range; each list's engine state
    goes from date to date recomputing only the players whose tournaments entered, left, changed A or were corrected
    (and part B of all when MAXK moves). ``written(date, list=slug, snapshot="written" | "removed")`` is called
    inside each date's transaction (the job's record of what it wrote, committed with the snapshot). Returns the
    number of snapshots written per list slug.
    """
    if end < start:
        raise ValidationError(_("The last date is before the first."))
    lists = list(rating_lists)
    for rating_list in lists:
        if rating_list.engine not in MAHJONG_ENGINES:
            raise ValidationError(_("%(list)s is not a mahjong list.") % {"list": rating_list})
    data = mahjong_data(start=start, end=end)
    contexts = [_ListContext(rating_list, data) for rating_list in lists]
    fingerprints = {context.rating_list.pk: _fingerprint_before(context.rating_list, start) for context in contexts}
    existing = {
        context.rating_list.pk: set(
            context.rating_list.snapshots.filter(as_of__range=(start, end)).values_list("as_of", flat=True)
        )
        for context in contexts
    }
    writers = {}
    for context in contexts:
        with transaction.atomic():
            _lock([context.rating_list])
            writers[context.rating_list.pk] = ListWriter(
                context.rating_list.pk, start, end, _explainer(context.rating_list)
            )
    counts = {rating_list.slug: 0 for rating_list in lists}
    total = (end - start).days + 1
    for offset in range(total):
        day = start + timedelta(days=offset)
        window = _window(data, day)
        for context in contexts:
            pk = context.rating_list.pk
            writer = writers[pk]
            fingerprint = context.fingerprint(window)
            if fingerprint == fingerprints[pk] or (fingerprints[pk] is None and not context.counts_any(window)):
                if day in existing[pk]:
                    with transaction.atomic():
                        _lock([context.rating_list])
                        RatingSnapshot.objects.filter(rating_list_id=pk, as_of=day).delete()
                        writer.removed(day)
                        if not whole_run:
                            writer.seal()
                        if written is not None:
                            written(day.isoformat(), list=context.rating_list.slug, snapshot="removed")
                continue
            with transaction.atomic():
                _lock([context.rating_list])
                _store(context=context, as_of=day, window=window, fingerprint=fingerprint, writer=writer)
                if not whole_run:
                    writer.seal()
                if written is not None:
                    written(day.isoformat(), list=context.rating_list.slug, snapshot="written")
            fingerprints[pk] = fingerprint
            counts[context.rating_list.slug] += 1
        if progress is not None:
            progress(offset + 1, total, day.isoformat())
    if whole_run:
        for writer in writers.values():
            writer.seal()
    return counts


def mahjong_unchanged_since(*, rating_list: RatingList, day: date) -> date | None:
    """The date of the list in force on ``day`` when ``day`` has no snapshot of its own (nothing changed on it), for
    the message of a rebuild that wrote nothing; None when ``day`` has one, or when no list is in force yet."""
    snapshots = rating_list.snapshots.filter(as_of__lte=day).order_by("-as_of").values_list("as_of", flat=True)
    in_force = snapshots.first()
    return in_force if in_force is not None and in_force < day else None


# ---------------------------------------------------------------------------------------------------------------
# Defaults
# ---------------------------------------------------------------------------------------------------------------


@transaction.atomic
def mahjong_setup_defaults() -> None:
    """The three lists with their default parameters and the nightly job; safe to call after every migrate.

    Existing lists and the schedule are left as staff set them (their parameters, whether the task is enabled).
    """
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    for slug, name, name_en, engine_name, validate, ordering in DEFAULT_LISTS:
        RatingList.objects.get_or_create(
            slug=slug,
            defaults={
                "name": name,
                "name_en": name_en,
                "engine": engine_name,
                "params": validate({}),
                "ordering": ordering,
            },
        )
    # Every night at 03:00 in the federation's time zone, after the evening's results are entered.
    schedule, _created_schedule = CrontabSchedule.objects.get_or_create(
        minute="0",
        hour="3",
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone=django_settings.TIME_ZONE,
    )
    PeriodicTask.objects.get_or_create(
        name=DAILY_TASK_NAME,
        defaults={"task": DAILY_TASK, "crontab": schedule, "description": "rules/mahjong.md, When lists change"},
    )


# ---------------------------------------------------------------------------------------------------------------
# Tournaments: what stops one from being submitted, and staff judgements
# ---------------------------------------------------------------------------------------------------------------


def mahjong_tournament_problems(tournament: Tournament) -> list[str]:
    """Why a mahjong tournament cannot be submitted, as sentences for the organiser (empty when it can).

    No hanchans; stages whose hanchans or players do not add up; a result with more hanchans than the stages hold
    (or a cut-off tournament's result without its hanchans); more results than participants.
    """
    if tournament.discipline != Discipline.MAHJONG:
        return []
    problems: list[str] = []
    stages = list(tournament.stages.order_by("number").values_list("number", "hanchans", "players"))
    results = list(tournament.results.order_by("place", "id").values_list("place", "hanchans_played"))
    stage_total = sum(stage[1] for stage in stages)
    if not tournament.hanchans and not stages:
        problems.append(_("Hanchans: the number of hanchans is not entered."))
    n = max(tournament.participants or 0, len(results))
    if tournament.participants and len(results) > tournament.participants:
        problems.append(
            _("Participants: %(results)s results but %(n)s participants.")
            % {"results": len(results), "n": tournament.participants}
        )
    if stages:
        numbers = [stage[0] for stage in stages]
        if numbers != list(range(1, len(stages) + 1)):
            problems.append(
                _("Stages: numbered %(numbers)s; number them 1, 2, 3 … without gaps.")
                % {"numbers": ", ".join(map(str, numbers))}
            )
        if tournament.hanchans and tournament.hanchans != stage_total:
            problems.append(
                _("Stages: their hanchans add up to %(total)s, but the tournament has %(hanchans)s.")
                % {"total": stage_total, "hanchans": tournament.hanchans}
            )
        if stages[0][2] != n:
            problems.append(
                _("Stage 1: %(players)s players, but the tournament has %(n)s participants.")
                % {"players": stages[0][2], "n": n}
            )
        before = stages[0][2]
        played_before = stages[0][1]
        for number, hanchans, players in stages[1:]:
            if players > before:
                problems.append(
                    _("Stage %(number)s: %(players)s players, more than the stage before (%(before)s).")
                    % {"number": number, "players": players, "before": before}
                )
            reached = [row[1] for row in results if row[1] is not None and row[1] > played_before]
            complete = len(results) == n and all(row[1] is not None for row in results)
            if (complete and len(reached) != players) or len(reached) > players:
                problems.append(
                    _("Stage %(number)s: %(players)s players, but %(reached)s results played into it.")
                    % {"number": number, "players": players, "reached": len(reached)}
                )
            before = players
            played_before += hanchans
    holds = stage_total if stages else (tournament.hanchans or 0)
    for place, played in results:
        if stages and played is None:
            problems.append(
                _("Place %(place)s: a tournament with stages needs the hanchans each player played.") % {"place": place}
            )
        elif played is not None and holds and played > holds:
            problems.append(
                _("Place %(place)s: %(played)s hanchans played, more than the stages hold (%(holds)s).")
                % {"place": place, "played": played, "holds": holds}
            )
    if tournament.online and tournament.rank_restricted and not tournament.online_platform:
        problems.append(_("Online platform: a rank-restricted online tournament needs its platform."))
    return problems


def _require_staff(user: AbstractBaseUser, message: str) -> None:
    if not user.has_perm("tournaments.accredit_tournament"):
        raise PermissionDenied(message)


def _mahjong(tournament: Tournament) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.discipline != Discipline.MAHJONG:
        raise ValidationError(_("%(tournament)s is not a mahjong tournament.") % {"tournament": locked})
    return locked


@transaction.atomic
def mahjong_accredit(*, tournament: Tournament, user: AbstractBaseUser, note: str = "") -> Tournament:
    """Federation staff accredit a mahjong tournament (RR needs it from 2018), recording who and when."""
    _require_staff(user, _("Only federation staff may accredit tournaments."))
    tournament = _mahjong(tournament)
    problems = mahjong_tournament_problems(tournament)
    if problems:
        raise ValidationError(problems)
    tournament.accredited = True
    tournament.accredited_by = user
    tournament.accredited_at = timezone.now()
    if note:
        tournament.accreditation_note = note
    tournament._change_reason = "accredited"
    tournament._history_user = user
    tournament.save(update_fields=["accredited", "accredited_by", "accredited_at", "accreditation_note"])
    return tournament


@transaction.atomic
def mahjong_accreditation_withdraw(*, tournament: Tournament, user: AbstractBaseUser, reason: str) -> Tournament:
    """Staff withdraw a tournament's accreditation with a reason; who, when and why are kept with its history."""
    _require_staff(user, _("Only federation staff may withdraw an accreditation."))
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": _("Give the reason the accreditation is withdrawn.")})
    tournament = _mahjong(tournament)
    tournament.accredited = False
    tournament.accredited_by = user
    tournament.accredited_at = timezone.now()
    tournament.accreditation_note = reason
    tournament._change_reason = f"accreditation withdrawn: {reason}"[:100]
    tournament._history_user = user
    tournament.save(update_fields=["accredited", "accredited_by", "accredited_at", "accreditation_note"])
    return tournament


@transaction.atomic
def mahjong_rank_restriction_judge(
    *, tournament: Tournament, user: AbstractBaseUser, legitimate: bool, note: str = ""
) -> Tournament:
    """Staff judge whether a rank-restricted online tournament's restriction is legitimate (online list, 2021-05-19)."""
    _require_staff(user, _("Only federation staff may judge a rank restriction."))
    tournament = _mahjong(tournament)
    if legitimate and not tournament.rank_restricted:
        raise ValidationError(
            {"rank_restriction_legitimate": _("%(tournament)s is not rank-restricted.") % {"tournament": tournament}}
        )
    tournament.rank_restriction_legitimate = legitimate
    fields = ["rank_restriction_legitimate"]
    if note:
        tournament.accreditation_note = note
        fields.append("accreditation_note")
    tournament._change_reason = (
        "rank restriction judged legitimate" if legitimate else "rank restriction not legitimate"
    )
    tournament._history_user = user
    tournament.save(update_fields=fields)
    return tournament
