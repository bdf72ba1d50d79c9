"""Writes of the calendar: the announcement's workflow, a tournament moved or cancelled, and online registration.

The announcement has its own status beside the results' (``Tournament.announcement``): the organiser submits it,
federation staff approve it (the same permission style as results: ``tournaments.approve_announcement``), and the
public calendar shows it from then on. Registration: a player (or a newcomer) gives an e-mail address, gets a link
signed with Django's ``TimestampSigner`` (``REGISTRATION_CONFIRM_SECONDS`` to use it, once: it acts only on a
registration still awaiting confirmation), and is registered, put on the waiting list at the limit, or told
politely that the field is full. Each e-mail carries a cancel link, good until the tournament starts.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core import signing
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from federation.models import Player
from tournaments.models import (
    ACTIVE_REGISTRATION,
    AnnouncementStatus,
    Discipline,
    Registration,
    RegistrationStatus,
    Schedule,
    Tournament,
)

logger = logging.getLogger(__name__)

SALT = "tournaments.calendar.registration"
CONFIRM, CANCEL = "confirm", "cancel"


def _owner_check(*, tournament: Tournament, user: AbstractBaseUser) -> None:
    """Organisers act on their own tournaments only; staff on every one (the results' owner rule)."""
    if user.has_perm("tournaments.approve_tournament"):
        return
    if tournament.organiser_id != user.pk or not user.has_perm("tournaments.change_tournament"):
        raise PermissionDenied(_("You may change only the tournaments you organise."))


def announcement_problems(*, tournament: Tournament) -> list[str]:
    """What an announcement must say before staff can approve it."""
    problems = []
    if not tournament.city and not tournament.online:
        problems.append(_("The city is not set."))
    if not tournament.description.strip():
        problems.append(_("The description (Russian) is empty."))
    if not tournament.contact.strip():
        problems.append(_("The organiser's contact is not set."))
    if tournament.registration_deadline and tournament.registration_deadline > tournament.start_date:
        problems.append(_("The registration deadline is after the start of the tournament."))
    return problems


@transaction.atomic
def announcement_submit(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """The organiser hands the announcement to federation staff."""
    _owner_check(tournament=tournament, user=user)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.announcement == AnnouncementStatus.APPROVED:
        return tournament
    problems = announcement_problems(tournament=tournament)
    if problems:
        raise ValidationError(problems)
    tournament.announcement = AnnouncementStatus.SUBMITTED
    tournament._change_reason = "announcement submitted"
    tournament.save(update_fields=["announcement"])
    return tournament


@transaction.atomic
def announcement_approve(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """Federation staff approve an announcement: the calendar shows it at once (the ``tournaments`` scope)."""
    if not user.has_perm("tournaments.approve_announcement"):
        raise PermissionDenied(_("Only federation staff may approve announcements."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.announcement == AnnouncementStatus.APPROVED:
        return tournament
    problems = announcement_problems(tournament=tournament)
    if problems:
        raise ValidationError(problems)
    tournament.announcement = AnnouncementStatus.APPROVED
    tournament.announcement_approved_by = user
    tournament.announcement_approved_at = timezone.now()
    tournament._change_reason = "announcement approved"
    tournament.save(update_fields=["announcement", "announcement_approved_by", "announcement_approved_at"])
    return tournament


@transaction.atomic
def announcement_withdraw(*, tournament: Tournament, user: AbstractBaseUser) -> Tournament:
    """Staff take an announcement off the calendar (back to the organiser, as a draft announcement)."""
    if not user.has_perm("tournaments.approve_announcement"):
        raise PermissionDenied(_("Only federation staff may withdraw announcements."))
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.announcement = AnnouncementStatus.NONE
    tournament.announcement_approved_by = None
    tournament.announcement_approved_at = None
    tournament._change_reason = "announcement withdrawn"
    tournament.save(update_fields=["announcement", "announcement_approved_by", "announcement_approved_at"])
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament: Tournament, user: AbstractBaseUser, note: str = "") -> Tournament:
    """The organiser (or staff) cancels the tournament: its page and every feed say so; registration closes."""
    _owner_check(tournament=tournament, user=user)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.schedule == Schedule.CANCELLED:
        return tournament
    tournament.schedule = Schedule.CANCELLED
    tournament.schedule_note = note or tournament.schedule_note
    tournament.registration_closed = True
    tournament.calendar_sequence += 1
    tournament._change_reason = "cancelled"
    tournament.save(update_fields=["schedule", "schedule_note", "registration_closed", "calendar_sequence"])
    for registration in tournament.registrations.filter(status__in=ACTIVE_REGISTRATION):
        registration.tournament = tournament
        _mail(registration, "cancelled_tournament")  # each in the language of the site (Russian by default)
    return tournament


def tournament_schedule_changed(*, before: Tournament | None, after: Tournament) -> None:
    """Called by the admin before it saves a tournament: a changed date of an announced tournament marks it moved
    (its page and every feed say so) and gives calendars a new revision."""
    if before is None or before.announcement != AnnouncementStatus.APPROVED:
        return
    moved = (before.start_date, before.end_date) != (after.start_date, after.end_date)
    place = (before.city, before.venue) != (after.city, after.venue)
    if moved or place or before.schedule != after.schedule:
        after.calendar_sequence = before.calendar_sequence + 1
    if moved and after.schedule == Schedule.AS_ANNOUNCED:
        after.schedule = Schedule.MOVED
        if not after.schedule_note:
            after.schedule_note = _("Moved from %(dates)s.") % {"dates": _dates(before)}


def _dates(tournament: Tournament) -> str:
    if tournament.start_date == tournament.end_date:
        return tournament.start_date.isoformat()
    return f"{tournament.start_date.isoformat()} — {tournament.end_date.isoformat()}"


# --- registration -----------------------------------------------------------------------------------------------


def registration_closed_reason(*, tournament: Tournament, now: dt.datetime | None = None) -> str:
    """Why nobody can register now ("" when they can), in the visitor's language."""
    now = now or timezone.now()
    if tournament.announcement != AnnouncementStatus.APPROVED:
        return _("The tournament is not announced.")
    if tournament.schedule == Schedule.CANCELLED:
        return _("The tournament is cancelled.")
    if not tournament.registration_online:
        return _("The organiser takes registrations in person; see the contact above.")
    if not settings.EMAIL_URL:  # the deployment's e-mail (README, "E-mail"): without it no link could be sent
        return _("Online registration needs e-mail, which this site does not send yet; contact the organiser.")
    if tournament.registration_closed:
        return _("Registration is closed.")
    today = timezone.localdate(now)
    if tournament.registration_deadline and today > tournament.registration_deadline:
        return _("The registration deadline has passed.")
    if today >= tournament.start_date:
        return _("The tournament has started: registration is over.")
    return ""


def registered_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(status=RegistrationStatus.REGISTERED).count()


def field_is_full(tournament: Tournament) -> bool:
    return tournament.max_players is not None and registered_count(tournament) >= tournament.max_players


def _token(registration: Registration, action: str) -> str:
    return signing.TimestampSigner(salt=SALT).sign_object({"r": registration.pk, "a": action, "e": registration.email})


def registration_link(registration: Registration, action: str) -> str:
    """The absolute address of the confirm or cancel link (the site's configured address, never the request's)."""
    with translation.override(translation.get_language() or settings.LANGUAGE_CODE):
        path = reverse(f"calendar:{action}", args=[_token(registration, action)])
    return settings.SITE_URL.rstrip("/") + path


class LinkError(Exception):
    """A confirmation or cancel link that cannot be used: the message says why, for the person who followed it."""


def registration_from_link(token: str, action: str) -> Registration:
    """The registration a link names; ``LinkError`` when it is forged, expired or meant for another action."""
    max_age = settings.REGISTRATION_CONFIRM_SECONDS if action == CONFIRM else None
    try:
        data = signing.TimestampSigner(salt=SALT).unsign_object(token, max_age=max_age)
    except signing.SignatureExpired:
        raise LinkError(_("This confirmation link has expired: register again from the tournament's page.")) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise LinkError(_("This link is not valid. Copy the whole address from the e-mail.")) from None
    if not isinstance(data, dict) or data.get("a") != action or not isinstance(data.get("r"), int):
        raise LinkError(_("This link is not valid. Copy the whole address from the e-mail."))
    registration = Registration.objects.select_related("tournament", "player").filter(pk=data["r"]).first()
    if registration is None or registration.email != data.get("e"):
        raise LinkError(_("This registration no longer exists."))
    return registration


@dataclass(frozen=True)
class RegistrationRequest:
    tournament: Tournament
    email: str
    player: Player | None = None
    name: str = ""
    city: str = ""


@transaction.atomic
def registration_create(*, request: RegistrationRequest, language: str) -> Registration:
    """A registration awaiting its e-mail confirmation, and the e-mail with the link. Refused with a message naming
    the field when registration is closed or the player is already registered."""
    tournament = Tournament.objects.select_for_update().get(pk=request.tournament.pk)
    reason = registration_closed_reason(tournament=tournament)
    if reason:
        raise ValidationError(reason)
    if field_is_full(tournament) and not tournament.waiting_list:
        raise ValidationError(_("Sorry, the field is full and this tournament keeps no waiting list."))
    player = request.player
    if player is not None:
        active = tournament.registrations.filter(player=player).exclude(status=RegistrationStatus.CANCELLED)
        # A registration never confirmed may be asked again (a lost e-mail): the old one gives way.
        active.filter(status=RegistrationStatus.PENDING).update(
            status=RegistrationStatus.CANCELLED, cancelled_at=timezone.now()
        )
        if active.exclude(status=RegistrationStatus.CANCELLED).exists():
            raise ValidationError({"player": _("%(name)s is already registered.") % {"name": player.full_name}})
        name, city = player.full_name, player.city
    else:
        name, city = " ".join(request.name.split()), " ".join(request.city.split())
        if not name:
            raise ValidationError({"name": _("Type your surname and name, or find yourself in the registry.")})
    registration = Registration(
        tournament=tournament, player=player, name=name, city=city, email=request.email.strip().lower()
    )
    registration.full_clean()
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError:
        raise ValidationError({"player": _("%(name)s is already registered.") % {"name": name}}) from None
    with translation.override(language):
        _mail(registration, "confirm")
    return registration


def _mail(registration: Registration, kind: str) -> None:
    """One e-mail to the player: ``confirm`` (the link), ``registered``/``waiting`` (the outcome, the cancel link),
    ``cancelled``. Sent within the transaction, last: a confirmation e-mail that cannot be sent undoes the
    registration (the person is told to try again); a later notice that fails is logged and the change stays."""
    tournament = registration.tournament
    context = {
        "registration": registration,
        "tournament": tournament,
        "kind": kind,
        "page": settings.SITE_URL.rstrip("/") + tournament.get_calendar_url(),
        "confirm_url": registration_link(registration, CONFIRM) if kind == "confirm" else "",
        "cancel_url": registration_link(registration, CANCEL) if kind in ("registered", "waiting") else "",
        "hours": settings.REGISTRATION_CONFIRM_SECONDS // 3600,
    }
    subjects = {
        "confirm": _("Confirm your registration: %(name)s"),
        "registered": _("You are registered: %(name)s"),
        "waiting": _("You are on the waiting list: %(name)s"),
        "cancelled": _("Registration cancelled: %(name)s"),
        "cancelled_tournament": _("The tournament is cancelled: %(name)s"),
    }
    subject = subjects[kind] % {"name": tournament.name}
    body = render_to_string("calendar/email.txt", context)
    try:
        send_mail(subject, body, None, [registration.email])
    except Exception as error:  # the mail server's own errors: SMTP, socket, TLS
        logger.exception("the calendar's %s e-mail to registration %s could not be sent", kind, registration.pk)
        if kind == "confirm":  # without its link the registration is useless: nothing is saved
            raise ValidationError(_("The e-mail could not be sent just now; please try again later.")) from error


@transaction.atomic
def registration_confirm(*, token: str, language: str) -> Registration:
    """The e-mail's link: registered, or on the waiting list at the limit, or ``LinkError`` (used, expired, full
    without a waiting list, closed)."""
    found = registration_from_link(token, CONFIRM)
    tournament = Tournament.objects.select_for_update().get(pk=found.tournament_id)
    registration = Registration.objects.select_for_update().select_related("tournament").get(pk=found.pk)
    if registration.status != RegistrationStatus.PENDING:
        raise LinkError(_("This link has been used already: your registration is confirmed."))
    reason = registration_closed_reason(tournament=tournament)
    if reason:
        raise LinkError(reason)
    if field_is_full(tournament):
        if not tournament.waiting_list:
            raise LinkError(_("Sorry, the field filled up before you confirmed, and there is no waiting list."))
        registration.status = RegistrationStatus.WAITING
    else:
        registration.status = RegistrationStatus.REGISTERED
    registration.email_confirmed_at = timezone.now()
    registration.save(update_fields=["status", "email_confirmed_at"])
    with translation.override(language):
        _mail(registration, registration.status)
    return registration


@transaction.atomic
def registration_cancel_by_link(*, token: str, language: str) -> Registration:
    """The cancel link of an e-mail: the seat is freed, and the first on the waiting list moves up."""
    found = registration_from_link(token, CANCEL)
    Tournament.objects.select_for_update().get(pk=found.tournament_id)
    registration = Registration.objects.select_for_update().select_related("tournament").get(pk=found.pk)
    if registration.status == RegistrationStatus.CANCELLED:
        raise LinkError(_("This registration is cancelled already."))
    if timezone.localdate() >= registration.tournament.start_date:
        raise LinkError(_("The tournament has started: tell the organiser instead."))
    freed = registration.status == RegistrationStatus.REGISTERED
    registration.status = RegistrationStatus.CANCELLED
    registration.cancelled_at = timezone.now()
    registration.save(update_fields=["status", "cancelled_at"])
    with translation.override(language):
        _mail(registration, "cancelled")
        if freed:
            _promote(registration.tournament)
    return registration


def _promote(tournament: Tournament) -> None:
    """The first of the waiting list takes a freed seat (and is told so)."""
    if field_is_full(tournament):
        return
    first = tournament.registrations.filter(status=RegistrationStatus.WAITING).order_by("created_at", "pk").first()
    if first is not None:
        first.status = RegistrationStatus.REGISTERED
        first.save(update_fields=["status"])
        _mail(first, "registered")


# --- the organiser's hand ---------------------------------------------------------------------------------------


@transaction.atomic
def registration_set_status(*, registration: Registration, user: AbstractBaseUser, status: str) -> Registration:
    """The organiser moves a registration to the field, to the waiting list or cancels it (their own tournament)."""
    _owner_check(tournament=registration.tournament, user=user)
    registration = Registration.objects.select_for_update().select_related("tournament").get(pk=registration.pk)
    if status not in (RegistrationStatus.REGISTERED, RegistrationStatus.WAITING, RegistrationStatus.CANCELLED):
        raise ValidationError({"status": _("Unknown status.")})
    if registration.status == RegistrationStatus.PENDING and status != RegistrationStatus.CANCELLED:
        raise ValidationError(_("%(name)s has not confirmed the e-mail yet.") % {"name": registration.name})
    registration.status = status
    if status == RegistrationStatus.CANCELLED:
        registration.cancelled_at = timezone.now()
    registration._history_user = user
    registration.save(update_fields=["status", "cancelled_at"])
    return registration


@transaction.atomic
def registration_organiser_confirm(*, registration: Registration, user: AbstractBaseUser) -> Registration:
    _owner_check(tournament=registration.tournament, user=user)
    if registration.status not in (RegistrationStatus.REGISTERED, RegistrationStatus.WAITING):
        raise ValidationError(_("%(name)s has not confirmed the e-mail yet.") % {"name": registration.name})
    registration.confirmed_by_organiser = True
    registration._history_user = user
    registration.save(update_fields=["confirmed_by_organiser"])
    return registration


@transaction.atomic
def registration_close(*, tournament: Tournament, user: AbstractBaseUser, closed: bool = True) -> Tournament:
    """The organiser closes (or reopens) registration. Closing a Go tournament's registration copies the registered
    players into its round-by-round registrations (``tournaments.go``), so nothing is typed twice."""
    _owner_check(tournament=tournament, user=user)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.registration_closed = closed
    tournament._change_reason = "registration closed" if closed else "registration reopened"
    tournament.save(update_fields=["registration_closed"])
    if closed and tournament.discipline == Discipline.GO:
        go_registrations_sync(tournament=tournament, user=user)
    return tournament


def go_registrations_sync(*, tournament: Tournament, user: AbstractBaseUser) -> list[str]:
    """The registered players of a Go tournament as registrations of its round-by-round part (made when missing);
    who cannot be added (no DIRS rating for a member, a newcomer without one) is named in the sentences returned."""
    from tournaments.go.models import GoTournament
    from tournaments.go.models import Registration as GoRegistration
    from tournaments.go.services.common import GoError
    from tournaments.go.services.registrations import go_registration_add

    go, _created = GoTournament.objects.get_or_create(tournament=tournament)
    present = set(GoRegistration.objects.filter(tournament=go).exclude(player=None).values_list("player", flat=True))
    skipped = []
    for registration in tournament.registrations.filter(status=RegistrationStatus.REGISTERED).select_related("player"):
        if registration.player_id is None or registration.player_id in present:
            if registration.player_id is None:
                skipped.append(_("%(name)s: not in the registry yet; add them by hand.") % {"name": registration.name})
            continue
        try:
            go_registration_add(go=go, player=registration.player, user=user)
        except GoError as error:
            skipped.append(f"{registration.name}: {error.message}")
    return skipped


def registered_for_results(*, tournament: Tournament) -> list[Registration]:
    """The registered players, in the order they registered: the results editor's first rows."""
    return list(tournament.registrations.filter(status=RegistrationStatus.REGISTERED).order_by("created_at", "pk"))
