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
from dataclasses import dataclass
from datetime import date, timedelta

from django.conf import settings as django_settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.bulk import copy_rows
from ratings.engines import mahjong as engine
from ratings.engines.common import Explanation
from ratings.mahjong.params import settings_to_params, validate_crr, validate_online, validate_rr
from ratings.mahjong.selectors import MAHJONG_ENGINES, MahjongData, mahjong_data, mahjong_lists, mahjong_settings
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
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
        self.details = _DetailsCache()

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


@dataclass(frozen=True)
class _Previous:
    ratings: dict[int, tuple[int, int]]
    """Player id -> (rating in hundredths, rank) in the snapshot in force."""
    fingerprint: str | None


def _previous(rating_list: RatingList, before: date) -> _Previous:
    snapshot = rating_list.snapshots.filter(as_of__lt=before).order_by("-as_of").first()
    if snapshot is None:
        return _Previous({}, None)
    rows = snapshot.entries.values_list("player_id", "rating", "rank")
    return _Previous(
        {pid: (int(rating * 100), rank) for pid, rating, rank in rows}, snapshot.summary.get("fingerprint")
    )


def _formula_lines(explanation: str) -> list[str]:
    """The last three lines of the engine's explanation: part A, part B and the rating with their numbers."""
    return explanation.split("\n")[-3:]


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _scalar(value: float | int | None) -> str:
    """A number (or None) as JSON text, as ``json.dumps`` writes it, without its call: a finite float's ``repr`` is
    its JSON (millions of entries in a two-year rebuild)."""
    kind = type(value)
    if kind is float or kind is int:
        return repr(value)
    return _dumps(value)


def _score_rows(scores: tuple[engine.Score, ...]) -> list[dict]:
    return [
        {
            "t": score.tournament,
            "end": score.end_date.isoformat(),
            "place": score.place,
            "players": score.players,
            "hanchans": score.hanchans,
            "w": score.w,
            "r": engine.base_rank_cents(score.players, score.place) / engine.CENT,
            "a": score.a_percent,
            "wa": score.wa,
            "delta": score.delta,
            "in_a": score.in_part_a,
            "in_b": score.in_part_b,
        }
        for score in scores
    ]


def _entry_details(entry: engine.Entry, previous_rank: int | None) -> dict:
    """What an entry's ``details`` keep: both parts, every tournament's W, R, A and delta, and the formula lines."""
    return {
        "part_a": entry.part_a,
        "part_b": entry.part_b,
        "exact": entry.rating_unrounded,
        "n": entry.tournaments,
        "k": entry.part_a_size,
        "previous_rank": previous_rank,
        "scores": _score_rows(entry.scores),
        "formula": {
            "en": _formula_lines(entry.explanation.en),
            "ru": _formula_lines(entry.explanation.ru),
        },
    }


class _DetailsCache:
    """An entry's ``details`` as JSON text, from parts kept across the dates of a run.

    Most players' scores do not change from one date to the next (:class:`engine.ListState` hands back the very same
    objects then), and their formula changes only with MAXK: their JSON is kept per player and reused while the
    engine's objects are the same ones. Equal to ``json.dumps(_entry_details(entry, previous_rank))`` as JSON.
    """

    def __init__(self) -> None:
        self._scores: dict[str, tuple[tuple[engine.Score, ...], str]] = {}
        self._formula: dict[str, tuple[Explanation, str]] = {}

    def text(self, entry: engine.Entry, previous_rank: int | None) -> str:
        kept = self._scores.get(entry.player)
        if kept is None or kept[0] is not entry.scores:
            kept = self._scores[entry.player] = (entry.scores, _dumps(_score_rows(entry.scores)))
        formula = self._formula.get(entry.player)
        if formula is None or formula[0] is not entry.explanation:
            text = _dumps({"en": _formula_lines(entry.explanation.en), "ru": _formula_lines(entry.explanation.ru)})
            formula = self._formula[entry.player] = (entry.explanation, text)
        return (
            f'{{"part_a":{_scalar(entry.part_a)},"part_b":{_scalar(entry.part_b)}'
            f',"exact":{_scalar(entry.rating_unrounded)}'
            f',"n":{entry.tournaments},"k":{entry.part_a_size},"previous_rank":{_scalar(previous_rank)}'
            f',"scores":{kept[1]},"formula":{formula[1]}}}'
        )


def _cents_text(cents: int) -> str:
    """Hundredths as the decimal text a numeric column takes (-5 -> "-0.05")."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}{whole}.{rest:02d}"


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
    previous: _Previous,
) -> tuple[RatingSnapshot, _Previous]:
    """Compute the list as of ``as_of`` and write its snapshot (replacing one of that date) in the caller's atomic.

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
    rows = []
    ratings: dict[int, tuple[int, int]] = {}
    for entry in result.entries:
        player_id = int(entry.player)
        cents = round(entry.rating * 100)
        before = previous.ratings.get(player_id)
        ratings[player_id] = (cents, entry.rank)
        rows.append(
            (
                snapshot.pk,
                player_id,
                entry.rank,
                _cents_text(cents),
                None if before is None else _cents_text(cents - before[0]),
                entry.tournaments,
                context.details.text(entry, None if before is None else before[1]),
            )
        )
    _insert_entries(rows)
    return snapshot, _Previous(ratings, fingerprint)


_ENTRY_COLUMNS = ("snapshot_id", "player_id", "rank", "rating", "delta", "events", "details")


def _insert_entries(rows: list[tuple]) -> None:
    """Insert a snapshot's entries, given as rows of :data:`_ENTRY_COLUMNS` with ``details`` as JSON text (thousands
    of rows, no model objects on PostgreSQL)."""
    copy_rows(RatingEntry, _ENTRY_COLUMNS, rows, json_text=True)


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

    Returns, per list slug, "computed" or "unchanged". Earlier snapshots are never touched; a second run on the same
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
        _store(
            context=context,
            as_of=today,
            window=window,
            fingerprint=fingerprint,
            previous=_previous(rating_list, today),
        )
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
) -> dict[str, int]:
    """Staff rebuild the snapshots of ``start``..``end``: a snapshot on each date where the list's input changed.

    Snapshots in the range on dates where nothing changed are removed, so that the range reads as if the daily job
    had run every day with today's data. Each date is written in its own transaction, holding the list's lock.
    The input is read once for the whole range; each list's engine state goes from date to date recomputing only
    the players whose tournaments entered, left, changed A or were corrected (and part B of all when MAXK moves),
    and each entry's details JSON is reused while the player's numbers stay the same.
    ``written(date, list=slug, snapshot="written" | "removed")`` is called inside each date's transaction (the job's
    record of what it wrote, committed with the snapshot). Returns the number of snapshots written per list slug.
    """
    if end < start:
        raise ValidationError(_("The last date is before the first."))
    lists = list(rating_lists)
    for rating_list in lists:
        if rating_list.engine not in MAHJONG_ENGINES:
            raise ValidationError(_("%(list)s is not a mahjong list.") % {"list": rating_list})
    data = mahjong_data(start=start, end=end)
    contexts = [_ListContext(rating_list, data) for rating_list in lists]
    previous = {context.rating_list.pk: _previous(context.rating_list, start) for context in contexts}
    existing = {
        context.rating_list.pk: set(
            context.rating_list.snapshots.filter(as_of__range=(start, end)).values_list("as_of", flat=True)
        )
        for context in contexts
    }
    counts = {rating_list.slug: 0 for rating_list in lists}
    total = (end - start).days + 1
    for offset in range(total):
        day = start + timedelta(days=offset)
        window = _window(data, day)
        for context in contexts:
            pk = context.rating_list.pk
            fingerprint = context.fingerprint(window)
            if fingerprint == previous[pk].fingerprint or (
                previous[pk].fingerprint is None and not context.counts_any(window)
            ):
                if day in existing[pk]:
                    with transaction.atomic():
                        RatingSnapshot.objects.filter(rating_list_id=pk, as_of=day).delete()
                        if written is not None:
                            written(day.isoformat(), list=context.rating_list.slug, snapshot="removed")
                continue
            with transaction.atomic():
                _lock([context.rating_list])
                previous[pk] = _store(
                    context=context, as_of=day, window=window, fingerprint=fingerprint, previous=previous[pk]
                )[1]
                if written is not None:
                    written(day.isoformat(), list=context.rating_list.slug, snapshot="written")
            counts[context.rating_list.slug] += 1
        if progress is not None:
            progress(offset + 1, total, day.isoformat())
    return counts


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
