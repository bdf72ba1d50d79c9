"""What the Go services share: the one error type, the round lock, the record of changes by hand and the director's
record (``DirectorLog``) that keeps every change, who and when, whatever happens to the round later."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.engines.common import FieldError
from tournaments.models import Tournament
from tournaments.services import tournament_results_locked

from ..models import DirectorLog, GoTournament, Round


class GoError(FieldError):
    """Refused input: ``field`` names the form field (empty when none), ``message`` says why in the user's language."""


def check_writable(go: GoTournament | int, user: AbstractBaseUser | None) -> None:
    """Refuse a change the admin would refuse: a submitted or approved tournament is changed by federation staff
    only (``tournaments.services.tournament_results_locked``, the one rule). The tournament's row is locked (no key
    update, so rows that name it can still be written), so a submission cannot slip in between. Calls without a
    user (the demo, the history import, tests of the engine's use) are the site's own and pass.
    """
    if user is None or not user.is_authenticated:
        return
    pk = go if isinstance(go, int) else go.pk
    tournament = Tournament.objects.select_for_update(no_key=True).get(pk=pk)
    reason = tournament_results_locked(tournament=tournament, user=user)
    if reason:
        raise GoError("", reason)


def lock_round(go_round: Round) -> Round:
    """The round's row, locked: writes to one round (results, hand changes) are serialised on it."""
    return Round.objects.select_for_update().select_related("tournament__tournament").get(pk=go_round.pk)


def lock_draft(go_round: Round) -> Round:
    """The locked round, refused once published: its pairing changes only while it is a draft."""
    locked = lock_round(go_round)
    if locked.is_published:
        raise GoError(
            "", _("Round %(n)s is published: unpublish it before changing the pairing.") % {"n": locked.number}
        )
    return locked


def override(user: AbstractBaseUser | None, action: str, text: dict) -> dict:
    """One entry of the round's record of changes by hand: when, who, what (in both languages)."""
    return {
        "at": timezone.now().isoformat(timespec="seconds"),
        "by": getattr(user, "username", "") or "",
        "action": action,
        "en": text["en"],
        "ru": text["ru"],
    }


def registration_pk(key: str) -> int:
    """The registration behind an engine id (``"r17"`` -> 17, ``Registration.key``)."""
    return int(key[1:])


def log(
    go: GoTournament,
    user: AbstractBaseUser | None,
    action: str,
    text: dict,
    *,
    round_number: int | None = None,
) -> DirectorLog:
    """One line of the director's record, in both languages; the login is kept even if the account goes."""
    known = user if user is not None and user.is_authenticated else None
    return DirectorLog.objects.create(
        tournament=go,
        round_number=round_number,
        user=known,
        username=getattr(known, "username", "") or "",
        action=action,
        text_en=text["en"],
        text_ru=text["ru"],
    )


def record_on_round(go_round: Round, user: AbstractBaseUser | None, action: str, text: dict) -> None:
    """A change by hand: on the round's current pairing (shown with it) and in the director's record."""
    go_round.overrides = [*go_round.overrides, override(user, action, text)]
    log(go_round.tournament, user, action, text, round_number=go_round.number)
