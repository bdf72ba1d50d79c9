"""Writes on tournaments: the status workflow, accreditation, coefficients, results.

Views, admin actions and commands call these and nothing else writes a tournament's status. Every check that a
person could trip over raises ``ValidationError`` with a message naming the field, in the user's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.models import ORGANISER_MAX_K, Discipline, Result, Tournament, TournamentStatus

#: The change reasons the workflow records in a tournament's history (shown translated there).
CHANGE_REASONS = [
    gettext_noop("submitted"),
    gettext_noop("approved"),
    gettext_noop("returned to draft"),
    gettext_noop("accredited"),
]


@dataclass(frozen=True)
class ResultRow:
    """A result as entered or imported, before it becomes a ``Result``."""

    place: int
    player_id: int | None = None
    participant_name: str = ""
    hanchans_played: int | None = None
    substitute: bool = False


def tournament_k_check(*, user: AbstractBaseUser, tournament: Tournament | None, k: int | None) -> None:
    """Whether ``user`` may give ``tournament`` (None: a new one) the coefficient ``k`` (rules/gorbunov.md, "K").

    Organisers choose K of 1 or 2, anything above is federation staff's; once results are in, only staff change K
    at all, since it decides how much those results move every player's rating. Raises ``ValidationError`` on
    ``k`` with the reason; the admin's form and any other write of K call this one rule.
    """
    if user.has_perm("tournaments.set_high_coefficient"):
        return
    if k is not None and k > ORGANISER_MAX_K:
        raise ValidationError(
            {
                "k": _("Only federation staff may set K above %(max)s; ask them before the tournament starts.")
                % {"max": ORGANISER_MAX_K}
            }
        )
    if tournament is None or tournament.pk is None:
        return
    stored = Tournament.objects.filter(pk=tournament.pk).values_list("k", flat=True).first()
    if k != stored and tournament.results.exists():
        raise ValidationError({"k": _("Results are entered: only federation staff may change K now.")})


@dataclass(frozen=True)
class PlaceProblem:
    """One broken place rule, for the caller to word: ``index`` points into the places given (None: the list)."""

    kind: str  # "too_large", "shared" or "gaps"
    index: int | None = None
    first_index: int | None = None  # for "shared": where that place first appears
    place: int | None = None
    participants: int | None = None
    missing: tuple[int, ...] = ()


def place_problems(*, discipline: str, places: Sequence[int], participants: int | None = None) -> list[PlaceProblem]:
    """The place rules of every discipline, on places in entry order (the admin's approval and the import share them).

    No place may be larger than the number of participants: the number of places given, or ``participants`` when
    larger (mahjong's declared N, where substitutes and players without a profile count). Card games are played
    out to a full ranking: places are distinct and run 1..U without gaps (rules/gorbunov.md, "Decision (size)").
    """
    count = len(places)
    limit = max(count, participants or 0)
    problems = [
        PlaceProblem(kind="too_large", index=i, place=place, participants=limit)
        for i, place in enumerate(places)
        if place > limit
    ]
    if discipline != Discipline.CARD_GAMES:
        return problems
    first_index: dict[int, int] = {}
    for i, place in enumerate(places):
        if place in first_index:
            problems.append(PlaceProblem(kind="shared", index=i, first_index=first_index[place], place=place))
        else:
            first_index[place] = i
    missing = tuple(sorted(set(range(1, count + 1)) - set(first_index)))
    if missing and not any(p.kind == "too_large" for p in problems):
        problems.append(PlaceProblem(kind="gaps", missing=missing))
    return problems


def tournament_result_problems(*, tournament: Tournament, places: Iterable[int] | None = None) -> list[str]:
    """What stops a tournament's results from being rated, as sentences for the organiser."""
    if places is None:
        places = tournament.results.order_by("place").values_list("place", flat=True)
    places = list(places)
    if not places:
        return [_("The tournament has no results.")]
    problems: list[str] = []
    if tournament.discipline == Discipline.MAHJONG:
        from ratings.mahjong.services import mahjong_tournament_problems

        problems += mahjong_tournament_problems(tournament)
    if tournament.discipline == Discipline.CARD_GAMES and not tournament.k:
        problems.append(_("Coefficient K is not set."))
    if tournament.discipline == Discipline.CARD_GAMES and not tournament.card_format:
        problems.append(_("The format is not set: a card tournament without a format counts in no rating list."))
    problems += judge_problems(tournament=tournament)
    declared = tournament.participants if tournament.discipline == Discipline.MAHJONG else None
    found = place_problems(discipline=tournament.discipline, places=places, participants=declared)
    too_large = [p for p in found if p.kind == "too_large"]
    if too_large:
        problems.append(
            _("Place %(place)s is larger than the number of participants (%(count)s).")
            % {"place": too_large[0].place, "count": too_large[0].participants}
        )
    shared = sorted({p.place for p in found if p.kind == "shared"})
    if shared:
        problems.append(
            _("Places must be distinct in card games; shared place: %(places)s.")
            % {"places": ", ".join(map(str, shared))}
        )
    for gap in (p for p in found if p.kind == "gaps"):
        problems.append(_("Places have gaps: missing %(places)s.") % {"places": ", ".join(map(str, gap.missing[:10]))})
    return problems


#: From this K on, judges may not play (rules/gorbunov.md, "K").
JUDGES_MAY_NOT_PLAY_FROM_K = 4


def judge_problems(
    *, tournament: Tournament, k: int | None = None, judge_ids: Iterable[int] | None = None
) -> list[str]:
    """At K >= 4 a judge cannot appear in the results (rules/gorbunov.md): one sentence per judge who played.

    ``k`` and ``judge_ids`` stand for values not saved yet (the admin's form); by default the stored ones.
    """
    k = tournament.k if k is None else k
    if tournament.discipline != Discipline.CARD_GAMES or not k or k < JUDGES_MAY_NOT_PLAY_FROM_K:
        return []
    if tournament.pk is None:
        return []
    if judge_ids is None:
        judge_ids = tournament.judges.values_list("pk", flat=True)
    playing = Result.objects.filter(tournament=tournament, player_id__in=list(judge_ids)).select_related("player")
    return [
        _("%(player)s is a judge and is in the results (place %(place)s): at K %(k)s judges may not play.")
        % {"player": result.player.full_name, "place": result.place, "k": k}
        for result in playing.order_by("place")
    ]


def tournament_results_locked(*, tournament: Tournament, user: AbstractBaseUser) -> str:
    """Why ``user`` may not change this tournament's results now ("" when they may).

    Submitted means locked for the organiser until federation staff return it to draft (or approve it); staff may
    correct a submitted or approved tournament's results. The admin's editor, its import and this module's writes
    ask this one rule.
    """
    if user.has_perm("tournaments.approve_tournament"):
        return ""
    if tournament.status == TournamentStatus.SUBMITTED:
        return _("The tournament is submitted to federation staff; ask them to return it to draft to change it.")
    if tournament.status == TournamentStatus.APPROVED:
        return _("The tournament is approved; ask federation staff to return it to draft first.")
    return ""


@dataclass(frozen=True)
class ResultsSaved:
    """What a save of the results editor did, for the message shown after it."""

    added: int
    changed: int
    deleted: int


@transaction.atomic
def tournament_results_save(
    *, tournament: Tournament, user: AbstractBaseUser, save_rows, delete_rows=()
) -> ResultsSaved:
    """Save edited, new and deleted result rows of one tournament (the results editor's page), all or nothing.

    ``save_rows`` are ``Result`` instances of this tournament, already validated by the caller's form;
    ``delete_rows`` are instances to delete. The tournament row is locked first, so an approval cannot slip in
    between, and the players' tournament counts are kept right afterwards.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    reason = tournament_results_locked(tournament=tournament, user=user)
    if reason:
        raise ValidationError(reason)
    save_rows, delete_rows = list(save_rows), list(delete_rows)
    touched = {r.player_id for r in save_rows + delete_rows if r.player_id}
    stored = dict(
        Result.objects.filter(tournament=tournament, pk__in=[r.pk for r in save_rows if r.pk]).values_list(
            "pk", "player_id"
        )
    )
    touched |= {player_id for player_id in stored.values() if player_id}
    deleted = 0
    if delete_rows:
        Result.objects.filter(tournament=tournament, pk__in=[r.pk for r in delete_rows]).delete()
        deleted = len(delete_rows)
    # Rows whose player changes let go of their old player first, so that two players swapped between rows (or a
    # player moved to a row whose player moves on) never meet the one-row-per-player constraint half-way. A plain
    # UPDATE: the history keeps only each row's final state.
    moving = [r.pk for r in save_rows if stored.get(r.pk) is not None and stored[r.pk] != r.player_id]
    if moving:
        Result.objects.filter(pk__in=moving).update(player=None, participant_name="…")
    added = changed = 0
    for row in save_rows:
        if row.tournament_id != tournament.pk:
            raise PermissionDenied
        if row.pk:
            changed += 1
        else:
            added += 1
        row.save()
    if tournament.status == TournamentStatus.APPROVED:
        _refresh_counts(tournament, touched)
    return ResultsSaved(added, changed, deleted)


@transaction.atomic
def tournament_submit(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """The organiser hands the tournament to federation staff; its results must be complete and consistent."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != TournamentStatus.DRAFT:
        raise ValidationError(_("Only a draft can be submitted."))
    problems = tournament_result_problems(tournament=tournament)
    if problems:
        raise ValidationError(problems)
    tournament.status = TournamentStatus.SUBMITTED
    tournament.submitted_at = timezone.now()
    tournament._change_reason = "submitted"
    tournament.save(update_fields=["status", "submitted_at"])
    return tournament


@transaction.atomic
def tournament_approve(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """Federation staff approve a tournament; from then on its results may be rated."""
    if not user.has_perm("tournaments.approve_tournament"):
        raise PermissionDenied(_("Only federation staff may approve tournaments."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == TournamentStatus.APPROVED:
        return tournament
    problems = tournament_result_problems(tournament=tournament)
    if problems:
        raise ValidationError(problems)
    tournament.status = TournamentStatus.APPROVED
    tournament.approved_at = timezone.now()
    tournament.approved_by = user
    tournament._change_reason = "approved"
    tournament.save(update_fields=["status", "approved_at", "approved_by"])
    _refresh_counts(tournament)
    return tournament


@transaction.atomic
def tournament_return_to_draft(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """Staff send a submitted or approved tournament back to its organiser for corrections."""
    if not user.has_perm("tournaments.approve_tournament"):
        raise PermissionDenied(_("Only federation staff may return a tournament to draft."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.status = TournamentStatus.DRAFT
    tournament.approved_at = None
    tournament.approved_by = None
    tournament._change_reason = "returned to draft"
    tournament.save(update_fields=["status", "approved_at", "approved_by"])
    _refresh_counts(tournament)
    return tournament


def _refresh_counts(tournament: Tournament, extra_player_ids: Iterable[int] = ()) -> None:
    from federation.services import player_tournament_counts_refresh

    ids = set(tournament.results.exclude(player=None).values_list("player_id", flat=True)) | set(extra_player_ids)
    player_tournament_counts_refresh(player_ids=ids)


@transaction.atomic
def tournament_results_replace(
    *, tournament: Tournament, rows: list[ResultRow], user: AbstractBaseUser | None = None
) -> list[Result]:
    """Replace all results of a tournament at once (the import's last step): all rows are saved or none.

    An approved tournament's results are replaced by nobody (staff return it to draft first, so that the lists see
    the change); a submitted one's only by staff (``tournament_results_locked``).
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == TournamentStatus.APPROVED:
        raise ValidationError(_("The tournament is approved; ask federation staff to return it to draft first."))
    if user is not None and (reason := tournament_results_locked(tournament=tournament, user=user)):
        raise ValidationError(reason)
    tournament.results.all().delete()
    results = [
        Result(
            tournament=tournament,
            player_id=row.player_id,
            participant_name=row.participant_name,
            place=row.place,
            hanchans_played=row.hanchans_played,
            substitute=row.substitute,
        )
        for row in rows
    ]
    for result in results:
        result.full_clean(validate_unique=False, validate_constraints=False)
    return Result.objects.bulk_create(results)


@transaction.atomic
def tournament_open_ema_judge(
    *, tournament: Tournament, user: AbstractBaseUser, is_open: bool, ema: bool
) -> Tournament:
    """Federation staff judge whether a mahjong tournament is open and whether it has EMA status (rules/mahjong.md:
    "what needs a person's judgement"), recorded with who and when as an accreditation is."""
    if not user.has_perm("tournaments.accredit_tournament"):
        raise PermissionDenied(_("Only federation staff may judge whether a tournament is open or has EMA status."))
    tournament.is_open = is_open
    tournament.ema = ema
    tournament.open_ema_judged_by = user
    tournament.open_ema_judged_at = timezone.now()
    tournament._change_reason = f"open: {is_open}, EMA: {ema}"
    tournament._history_user = user
    tournament.save(update_fields=["is_open", "ema", "open_ema_judged_by", "open_ema_judged_at"])
    return tournament
