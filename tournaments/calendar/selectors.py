"""Reads of the calendar: the announced tournaments the public sees, their registered players with ratings."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q, QuerySet

from tournaments.models import (
    ACTIVE_REGISTRATION,
    AnnouncementStatus,
    Discipline,
    Registration,
    RegistrationStatus,
    Tournament,
)


def announced_tournaments() -> QuerySet[Tournament]:
    """Every tournament whose announcement federation staff approved (cancelled and moved ones included: they say
    so), with its numbers of registered players and of those waiting."""
    return Tournament.objects.filter(announcement=AnnouncementStatus.APPROVED).annotate(
        registered=Count("registrations", filter=Q(registrations__status=RegistrationStatus.REGISTERED)),
        waiting=Count("registrations", filter=Q(registrations__status=RegistrationStatus.WAITING)),
    )


def calendar_upcoming(*, today: dt.date) -> QuerySet[Tournament]:
    """The calendar's list: announced tournaments not finished yet, soonest first."""
    return announced_tournaments().filter(end_date__gte=today).order_by("start_date", "name", "pk")


def calendar_past(*, today: dt.date, limit: int = 20) -> list[Tournament]:
    """The latest announced tournaments already over (the calendar links each to its results)."""
    return list(announced_tournaments().filter(end_date__lt=today).order_by("-end_date", "name", "pk")[:limit])


def calendar_cities() -> list[str]:
    cities = announced_tournaments().exclude(city="").values_list("city", flat=True).distinct().order_by("city")
    return list(cities)


@dataclass(frozen=True)
class PublicRegistration:
    """What the public sees of a registration: never the e-mail address."""

    pk: int
    player_id: int | None
    name: str
    city: str
    status: str
    rating: Decimal | float | int | None


def _ratings(discipline: str, player_ids: list[int]) -> dict[int, Decimal | float | int]:
    """Each player's current rating in the discipline's main list (card games: the first active Gorbunov list; mahjong:
    RR; Go: DIRS; preferans: the per-deal rating): one or two queries."""
    if not player_ids:
        return {}
    if discipline in (Discipline.CARD_GAMES, Discipline.MAHJONG):
        from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot

        engine = Engine.GORBUNOV if discipline == Discipline.CARD_GAMES else Engine.MAHJONG_RR
        rating_list = RatingList.objects.filter(engine=engine, is_active=True).order_by("ordering", "pk").first()
        if rating_list is None:
            return {}
        snapshot = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").first()
        if snapshot is None:
            return {}
        entries = RatingEntry.objects.filter(snapshot=snapshot, player_id__in=player_ids)
        return dict(entries.values_list("player_id", "rating"))
    if discipline == Discipline.GO:
        from ratings.dirs.models import DirsRating

        return dict(DirsRating.objects.filter(player_id__in=player_ids).values_list("player_id", "rating"))
    from ratings.preferans.models import PreferansRating

    found = PreferansRating.objects.filter(player_id__in=player_ids).values_list("player_id", "rating")
    return {pk: round(rating, 1) for pk, rating in found}


def public_registrations(*, tournament: Tournament, language: str) -> list[PublicRegistration]:
    """The registered players, then the waiting list, each with their rating in the discipline (no e-mails)."""
    rows = list(
        Registration.objects.filter(tournament=tournament, status__in=ACTIVE_REGISTRATION)
        .select_related("player")
        .order_by("status", "created_at", "pk")  # "registered" before "waiting"
    )
    ratings = _ratings(tournament.discipline, [r.player_id for r in rows if r.player_id])
    return [
        PublicRegistration(
            pk=r.pk,
            player_id=r.player_id,
            name=r.player.display_name(language) if r.player_id else r.name,
            city=(r.player.city if r.player_id else r.city) or "",
            status=r.status,
            rating=ratings.get(r.player_id),
        )
        for r in rows
    ]
