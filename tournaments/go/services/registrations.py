"""Writes for a Go tournament before and between its rounds: creating it, registering players, absences, withdrawals.

`rules/go.md`: a late registration enters with its start points; each player has a per-round participation flag
(an absence), and an absent or withdrawn player is not paired.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from federation.models import Club, Player
from ratings.dirs.models import DIRS_RATING_MAX
from ratings.dirs.selectors import dirs_rating_of
from tournaments.models import Discipline, GoSystem, Tournament

from ..models import (
    TOURNAMENT_RATING_MAX,
    Absence,
    EgdClass,
    GoTournament,
    RatingSource,
    Registration,
    Round,
    RoundStatus,
)
from ..names import join_name, split_name
from ..selectors import is_dirs
from .common import GoError, check_writable, log


@transaction.atomic
def go_tournament_create(
    *,
    user: AbstractBaseUser,
    name: str,
    start_date: datetime.date,
    end_date: datetime.date,
    city: str = "",
    country: str = "RU",
    system: str,
    rounds: int,
    half_stone: bool,
    acceleration: bool,
    draws_allowed: bool = False,
    tiebreak: bool = True,
    komi_normal: Decimal = Decimal("6.5"),
    komi_none: Decimal = Decimal("0.5"),
    komi_reverse: Decimal = Decimal("6.5"),
    rate_in_club: bool = True,
    club: Club | None = None,
    time_minutes: int = 60,
) -> GoTournament:
    if system not in GoSystem.values:
        raise GoError("system", _("Unknown system."))
    if not 1 <= rounds <= 30:
        raise GoError("rounds", _("A tournament has 1 to 30 rounds."))
    if system == GoSystem.DIRS and draws_allowed:
        raise GoError("draws_allowed", _("DIRS knows no draws: a DIRS tournament cannot allow them."))
    tournament = Tournament(
        discipline=Discipline.GO,
        name=name,
        start_date=start_date,
        end_date=end_date,
        city=city,
        country=country,
        organiser=user,
        go_system=system,
        rounds=rounds,
        half_stone=half_stone,
        acceleration=acceleration,
        draws_allowed=draws_allowed,
    )
    tournament.full_clean()
    tournament.save()
    go = GoTournament(
        tournament=tournament,
        tiebreak=tiebreak,
        komi_normal=komi_normal,
        komi_none=komi_none,
        komi_reverse=komi_reverse,
        rate_in_club=rate_in_club,
        club=club,
        time_minutes=time_minutes,
    )
    go.full_clean()
    go.save()
    return go


def _next_open_round(go: GoTournament) -> int:
    """The first round a newcomer can still play: after the last published round."""
    last = go.rounds.filter(status=RoundStatus.PUBLISHED).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def go_registration_add(
    *,
    go: GoTournament,
    player: Player | None = None,
    surname: str = "",
    given_name: str = "",
    surname_latin: str = "",
    given_name_latin: str = "",
    name: str = "",
    name_latin: str = "",
    rating: int | None = None,
    country: str = "",
    club_name: str = "",
    egd_pin: str = "",
    user: AbstractBaseUser | None = None,
) -> Registration:
    """Register a member (rating from DIRS unless typed) or a typed name with a typed rating.

    `rules/go.md`: a late registration enters with its start points: ``first_round`` is the first round not yet
    published, and the rounds before it count as absences. A late entry goes into the director's record.
    A typed name comes as its two parts, surname and given name (the form's and the files' two fields), or as one
    string surname first (``name``), split where the surname ends (``names.split_name``). The Latin parts and
    ``egd_pin`` come from an imported list (a typed name keeps them for the EGD table); a name typed in Latin
    letters is its own Latin name.
    """
    check_writable(go, user)
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=go.pk)
    source = RatingSource.TYPED
    if player is not None:
        if Registration.objects.filter(tournament=go, player=player).exists():
            raise GoError("player", _("%(name)s is already registered.") % {"name": player.full_name})
        if rating is None:
            dirs_rating = dirs_rating_of(player=player)
            if dirs_rating is None:
                raise GoError("rating", _("%(name)s has no DIRS rating: type a rating.") % {"name": player.full_name})
            # A DIRS rating r is 10 r on the tournament scale (rules/go.md, scales).
            rating = dirs_rating.rating if is_dirs(go) else dirs_rating.rating * 10
            source = RatingSource.DIRS
        surname, given_name = player.last_name, player.first_name
        surname_latin, given_name_latin = player.last_name_latin, player.first_name_latin
        egd_pin = egd_pin or player.egd_pin
        country = country or player.country
        club_name = club_name or (player.club.name if player.club_id else "")
    else:
        if not surname.strip() and name.strip():
            surname, given_name = split_name(name)
        if not surname_latin.strip() and name_latin.strip():
            surname_latin, given_name_latin = split_name(name_latin)
        surname, given_name = " ".join(surname.split()), " ".join(given_name.split())
        if not surname:
            raise GoError("surname", _("Choose a player or type a name."))
        if not surname_latin.strip() and join_name(surname, given_name).isascii():
            surname_latin, given_name_latin = surname, given_name
        name = join_name(surname, given_name)
        if Registration.objects.filter(tournament=go, name__iexact=name).exists():
            raise GoError("surname", _("%(name)s is already registered.") % {"name": name})
        if rating is None:
            raise GoError("rating", _("Type the rating of a player who is not a member."))
    top = DIRS_RATING_MAX if is_dirs(go) else TOURNAMENT_RATING_MAX
    if not 0 <= rating <= top:
        scale = _("DIRS scale") if is_dirs(go) else _("tournament scale")
        raise GoError(
            "rating",
            _("Rating %(rating)s is outside the %(scale)s (0..%(top)s).")
            % {"rating": rating, "scale": scale, "top": top},
        )
    first_round = _next_open_round(go)
    if first_round > (go.tournament.rounds or 1):
        raise GoError("", _("Every round has been published: nobody can join any more."))
    surname_latin, given_name_latin = " ".join(surname_latin.split()), " ".join(given_name_latin.split())
    registration = Registration(
        tournament=go,
        player=player,
        surname=surname,
        given_name=given_name,
        surname_latin=surname_latin,
        given_name_latin=given_name_latin,
        name=join_name(surname, given_name),
        name_latin=join_name(surname_latin, given_name_latin),
        rating=rating,
        rating_source=source,
        country=(country or "RU").upper()[:2],
        club_name=club_name,
        egd_pin=egd_pin,
        first_round=first_round,
    )
    name = registration.name
    try:
        registration.full_clean(exclude=["tournament"])
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        try:
            label = str(Registration._meta.get_field(field).verbose_name)
        except FieldDoesNotExist:
            label, field = "", ""
        raise GoError(field, f"{label}: {messages[0]}" if label else messages[0]) from error
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError as error:
        raise GoError("", _("%(name)s is already registered.") % {"name": name}) from error
    if first_round > 1:
        text = {
            "en": f"late entry: {name}, from round {first_round}",
            "ru": f"поздняя регистрация: {name}, с тура {first_round}",
        }
        log(go, user, "register", text, round_number=first_round)
    return registration


def _paired_in(registration: Registration, round_number: int) -> bool:
    go_round = Round.objects.filter(tournament_id=registration.tournament_id, number=round_number).first()
    if go_round is None:
        return False
    return (
        go_round.boards.filter(white=registration).exists()
        or go_round.boards.filter(black=registration).exists()
        or go_round.byes.filter(registration=registration).exists()
    )


@transaction.atomic
def go_absence_set(
    *,
    registration: Registration,
    round_number: int,
    absent: bool,
    requested: bool = False,
    user: AbstractBaseUser | None = None,
) -> None:
    """Mark a player absent (or present again) in a round not yet played; a paired player must be unpaired first.

    ``requested``: a bye by request, the player's own wish not to be paired (``Absence``: it counts as an absence).
    """
    check_writable(registration.tournament_id, user)
    go = GoTournament.objects.select_for_update().select_related("tournament").get(pk=registration.tournament_id)
    if not 1 <= round_number <= (go.tournament.rounds or 1):
        raise GoError("round_number", _("There is no round %(n)s.") % {"n": round_number})
    go_round = go.rounds.filter(number=round_number).first()
    if go_round is not None and go_round.is_published:
        raise GoError("round_number", _("Round %(n)s is published: unpublish it first.") % {"n": round_number})
    if absent:
        if _paired_in(registration, round_number):
            raise GoError(
                "round_number",
                _("%(name)s is paired in round %(n)s: unpair them first.")
                % {"name": registration.name, "n": round_number},
            )
        absence, changed = Absence.objects.get_or_create(
            registration=registration, round_number=round_number, defaults={"requested": requested}
        )
        if absence.requested != requested:
            absence.requested = requested
            absence.save(update_fields=["requested"])
            changed = True
        if requested:
            text = {
                "en": f"{registration.name}: bye by request in round {round_number}",
                "ru": f"{registration.name}: пропуск тура {round_number} по просьбе",
            }
        else:
            text = {
                "en": f"{registration.name} absent in round {round_number}",
                "ru": f"{registration.name} отсутствует в туре {round_number}",
            }
    else:
        changed = bool(Absence.objects.filter(registration=registration, round_number=round_number).delete()[0])
        text = {
            "en": f"{registration.name} present again in round {round_number}",
            "ru": f"{registration.name} снова участвует в туре {round_number}",
        }
    if changed:
        log(go, user, "absence", text, round_number=round_number)


@transaction.atomic
def go_registration_withdraw(
    *, registration: Registration, undo: bool = False, user: AbstractBaseUser | None = None
) -> Registration:
    """Withdraw a player from the rounds not yet published (or take them back)."""
    check_writable(registration.tournament_id, user)
    go = GoTournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration.pk)
    if undo:
        registration.withdrawn_after = None
        text = {"en": f"{registration.name} taken back", "ru": f"{registration.name} возвращён в турнир"}
    else:
        last = _next_open_round(go) - 1
        draft = go.rounds.filter(status=RoundStatus.DRAFT).first()
        if draft is not None and _paired_in(registration, draft.number):
            raise GoError(
                "",
                _("%(name)s is paired in round %(n)s: unpair them first.")
                % {"name": registration.name, "n": draft.number},
            )
        registration.withdrawn_after = last
        text = {
            "en": f"{registration.name} withdrawn after round {last}",
            "ru": f"{registration.name} снят с турнира после тура {last}",
        }
    registration.save(update_fields=["withdrawn_after"])
    log(go, user, "withdraw", text)
    return registration


@transaction.atomic
def go_egd_class_set(*, go: GoTournament, egd_class: str, user: AbstractBaseUser | None = None) -> GoTournament:
    """The director's choice of the EGD class (`rules/go.md`, part 3: A to D, chosen by the director)."""
    check_writable(go, user)
    if egd_class not in EgdClass.values:
        raise GoError("egd_class", _("Choose the EGD class: A, B, C or D."))
    go = GoTournament.objects.select_for_update().get(pk=go.pk)
    if go.egd_class != egd_class:
        go.egd_class = egd_class
        go.save(update_fields=["egd_class"])
        log(go, user, "egd_class", {"en": f"EGD class {egd_class}", "ru": f"класс EGD {egd_class}"})
    return go
