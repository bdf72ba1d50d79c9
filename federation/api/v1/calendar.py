"""``/api/v1/calendar/``: the announced tournaments and the public part of their registrations (issue 30), read
through the calendar's own selectors (``tournaments.calendar.selectors``) and answered from the cache under the
versions of what they show. Additive to v1: nothing else changes."""

from __future__ import annotations

from typing import Annotated, Literal

from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from ninja import Query

from federation.api.common import ApiError
from federation.api.http import cached_json
from federation.api.v1 import reads
from federation.api.v1.schemas import CalendarOut, CalendarTournamentOut
from federation.api.v1.views import ERRORS, PRINTABLE, Id, Lang, PageNo, PerPage, _printable, api, request_language
from federation.models import Player
from federation.selectors import public_tournaments
from tournaments.calendar import selectors, services
from tournaments.calendar.views import SCOPES as DETAIL_SCOPES
from tournaments.models import Schedule

SCHEDULE = {Schedule.AS_ANNOUNCED: "scheduled", Schedule.MOVED: "moved", Schedule.CANCELLED: "cancelled"}


def _entry(tournament, language: str, with_results: set[int]) -> dict:
    with translation.override(language):
        url = tournament.get_calendar_url()
        ics = reverse("calendar:tournament_ics", args=[tournament.pk])
        results = tournament.get_absolute_url() if tournament.pk in with_results else None
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "discipline": tournament.discipline,
        "start_date": tournament.start_date,
        "end_date": tournament.end_date,
        "city": tournament.city or "",
        "country": tournament.country or "",
        "venue": tournament.venue,
        "schedule": SCHEDULE[tournament.schedule],
        "schedule_note": tournament.schedule_note,
        "registration_open": not services.registration_closed_reason(tournament=tournament),
        "registered": tournament.registered,
        "waiting": tournament.waiting,
        "max_players": tournament.max_players,
        "url": url,
        "ics": ics,
        "results_url": results,
    }


@api.get("/calendar/", response={200: CalendarOut, **ERRORS}, url_name="calendar", tags=["calendar"])
def calendar(
    request,
    discipline: Annotated[Literal["ccg", "mahjong", "go", "preferans"] | None, Query(description="discipline")] = None,
    city: Annotated[
        str, Query(max_length=100, pattern=PRINTABLE, description="the city, exactly as the calendar names it")
    ] = "",
    when: Annotated[Literal["upcoming", "past"], Query(description="not finished yet, or finished")] = "upcoming",
    page: PageNo = 1,
    per_page: PerPage = 50,
    lang: Lang = None,
):
    """Announced tournaments (approved by the federation): upcoming ones soonest first, past ones newest first.
    Cancelled and moved ones stay, saying so in ``schedule``."""
    city = _printable(city, "city").strip()
    language = request_language(request)

    def build() -> dict:
        today = timezone.localdate()
        if when == "upcoming":
            found = selectors.calendar_upcoming(today=today)
        else:
            found = selectors.announced_tournaments().filter(end_date__lt=today).order_by("-end_date", "name", "pk")
        if discipline:
            found = found.filter(discipline=discipline)
        if city:
            found = found.filter(city=city)
        count = found.count()
        offset = (page - 1) * per_page
        rows = list(found[offset : offset + per_page])
        with_results = set(public_tournaments().filter(pk__in=[t.pk for t in rows]).values_list("pk", flat=True))
        return {
            "paging": reads.paging(count, page, per_page),
            "tournaments": [_entry(t, language, with_results) for t in rows],
        }

    parts = ("calendar", discipline, city, when, page, per_page, language)
    return cached_json(request, scopes=("tournaments",), parts=parts, build=build)


@api.get(
    "/calendar/{id}/",
    response={200: CalendarTournamentOut, **ERRORS},
    url_name="calendar_tournament",
    tags=["calendar"],
)
def calendar_tournament(request, id: Id, lang: Lang = None):
    """An announced tournament: its announcement and its registered players and waiting list with their ratings
    (names and ratings only: never an e-mail address)."""
    found = selectors.announced_tournaments().filter(pk=id).first()
    if found is None:
        raise ApiError(404, "id", _("there is no announced tournament %(id)s") % {"id": id})
    language = request_language(request)

    def build() -> dict:
        urls = reads.Urls(language)
        with_results = set(public_tournaments().filter(pk=found.pk).values_list("pk", flat=True))
        registrations = selectors.public_registrations(tournament=found, language=language)
        players = {p.pk: p for p in Player.objects.filter(pk__in=[r.player_id for r in registrations if r.player_id])}
        return {
            **_entry(found, language, with_results),
            "description": found.description_in(language),
            "rules": found.rules_note,
            "contact": found.contact,
            "registration_deadline": found.registration_deadline,
            "registrations": [
                {
                    "name": r.name,
                    "player": reads.player_ref(players[r.player_id], urls) if r.player_id else None,
                    "status": r.status,
                    "rating": float(r.rating) if r.rating is not None else None,
                }
                for r in registrations
            ],
        }

    return cached_json(request, scopes=DETAIL_SCOPES, parts=("calendar_tournament", id, language), build=build)
