"""Writes on tournaments: the status workflow, accreditation, coefficients, results.

Views, admin actions and commands call these and nothing else writes a tournament's status. Every check that a
person could trip over raises ``ValidationError`` with a message naming the field, in the user's language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import ORGANISER_MAX_K, Discipline, Result, Tournament, TournamentStatus


@dataclass(frozen=True)
class ResultRow:
    """A result as entered or imported, before it becomes a ``Result``."""

    place: int
    player_id: int | None = None
    participant_name: str = ""
    hanchans_played: int | None = None
    substitute: bool = False


def can_set_k(*, user: AbstractBaseUser, k: int | None) -> bool:
    """Organisers choose K of 1 or 2; anything above is federation staff's (rules/gorbunov.md, "K")."""
    return k is None or k <= ORGANISER_MAX_K or user.has_perm("tournaments.set_high_coefficient")


def tournament_result_problems(*, tournament: Tournament, places: Iterable[int] | None = None) -> list[str]:
    """What stops a tournament's results from being rated, as sentences for the organiser.

    Card games are played out to a full ranking: places are distinct and run 1..U without gaps
    (rules/gorbunov.md, "Decision (size)"). Other disciplines allow shared places, but no place may be larger than
    the number of participants.
    """
    problems: list[str] = []
    if places is None:
        places = tournament.results.values_list("place", flat=True)
    places = sorted(places)
    count = len(places)
    if count == 0:
        return [_("The tournament has no results.")]
    participants = count
    if tournament.discipline == Discipline.MAHJONG:
        participants = max(count, tournament.participants or 0)
        if not tournament.hanchans:
            problems.append(_("Hanchans: the number of hanchans is not entered."))
    too_large = [p for p in places if p > participants]
    if too_large:
        problems.append(
            _("Place %(place)s is larger than the number of participants (%(count)s).")
            % {"place": too_large[0], "count": participants}
        )
    if tournament.discipline == Discipline.CARD_GAMES:
        if not tournament.k:
            problems.append(_("Coefficient K is not set."))
        shared = sorted(place for place, n in Counter(places).items() if n > 1)
        if shared:
            problems.append(
                _("Places must be distinct in card games; shared place: %(places)s.")
                % {"places": ", ".join(map(str, shared))}
            )
        missing = sorted(set(range(1, count + 1)) - set(places))
        if missing and not too_large:
            problems.append(_("Places have gaps: missing %(places)s.") % {"places": ", ".join(map(str, missing[:10]))})
    return problems


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
    return tournament


@transaction.atomic
def tournament_accredit(*, tournament: Tournament, user: AbstractBaseUser, accredited: bool = True) -> Tournament:
    """Federation staff accredit (or withdraw the accreditation of) a mahjong tournament, recording who and when."""
    if not user.has_perm("tournaments.accredit_tournament"):
        raise PermissionDenied(_("Only federation staff may accredit tournaments."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.accredited = accredited
    tournament.accredited_by = user
    tournament.accredited_at = timezone.now()
    tournament._change_reason = "accredited" if accredited else "accreditation withdrawn"
    tournament.save(update_fields=["accredited", "accredited_by", "accredited_at"])
    return tournament


@transaction.atomic
def tournament_results_replace(*, tournament: Tournament, rows: list[ResultRow]) -> list[Result]:
    """Replace all results of a tournament at once (the import's last step): all rows are saved or none."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == TournamentStatus.APPROVED:
        raise ValidationError(_("The tournament is approved; ask federation staff to return it to draft first."))
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
