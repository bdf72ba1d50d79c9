"""The calendar as iCalendar (RFC 5545) through the ``icalendar`` library: one feed for all, one per discipline, and
each tournament as a single event. A tournament is an all-day event (``DTEND`` is the day after its last day, as
the RFC counts); a cancelled one stays in the feed with ``STATUS:CANCELLED`` and a moved one keeps its ``UID`` with a
higher ``SEQUENCE``, so a subscribed calendar updates the event instead of adding a second one."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from icalendar import Calendar, Event

from tournaments.models import Schedule, Tournament

CONTENT_TYPE = "text/calendar; charset=utf-8"


def _uid(tournament: Tournament) -> str:
    host = urlsplit(settings.SITE_URL).hostname or "localhost"
    return f"tournament-{tournament.pk}@{host}"


def summary(tournament: Tournament) -> str:
    if tournament.schedule == Schedule.CANCELLED:
        return _("CANCELLED: %(name)s") % {"name": tournament.name}
    if tournament.schedule == Schedule.MOVED:
        return _("MOVED: %(name)s") % {"name": tournament.name}
    return tournament.name


def tournament_event(tournament: Tournament, *, language: str) -> Event:
    event = Event()
    event.add("uid", _uid(tournament))
    event.add("dtstamp", tournament.updated_at or timezone.now())
    if tournament.updated_at:
        event.add("last-modified", tournament.updated_at)
    event.add("sequence", tournament.calendar_sequence)
    event.add("summary", summary(tournament))
    event.add("dtstart", tournament.start_date)
    event.add("dtend", tournament.end_date + dt.timedelta(days=1))
    place = ", ".join(part for part in (tournament.venue, tournament.city) if part)
    if place:
        event.add("location", place)
    url = settings.SITE_URL.rstrip("/") + tournament.get_calendar_url()
    event.add("url", url)
    lines = [tournament.get_discipline_display()]
    if tournament.schedule_note:
        lines.append(tournament.schedule_note)
    if description := tournament.description_in(language):
        lines.append(description)
    if tournament.contact:
        lines.append(_("Contact: %(contact)s") % {"contact": tournament.contact})
    lines.append(url)
    event.add("description", "\n\n".join(lines))
    event.add("categories", [tournament.get_discipline_display()])
    event.add("status", "CANCELLED" if tournament.schedule == Schedule.CANCELLED else "CONFIRMED")
    return event


def calendar_response(tournaments: Iterable[Tournament], *, name: str, language: str, filename: str) -> HttpResponse:
    calendar = Calendar()
    calendar.add("prodid", "-//Federation ratings//Calendar//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", name)
    for tournament in tournaments:
        calendar.add_component(tournament_event(tournament, language=language))
    response = HttpResponse(calendar.to_ical(), content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
