"""The date a list page is asked for, and the list shown for it: one rule for every rating list's pages.

A page takes ``?date=YYYY-MM-DD`` or ``?week=YYYY-Www`` (an ISO week, read as its Monday; it wins when both are
given). Whatever is typed, the page answers with a list and says why when it is not the one asked for:

- a date or week that is not one: the newest list, with what was wrong;
- a date with no list of its own: the list in force on that date (the newest one before it), saying so;
- a date before the first list: the first list (the nearest one), saying there was none yet on that date.

Dates in the messages are written the reader's way (``federation.formatting.day``).

A list "of" a date is the snapshot dated that day, or for lists published by the week, the one of that date's
week (``period_start``). Never a 404 or a 500: those are for a list that does not exist.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from federation.formatting import day as show_day
from ratings.models import RatingSnapshot

_WEEK = re.compile(r"(\d{4})-W(\d{1,2})")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class AskedDate:
    """What the query asked for: ``day`` (None: the newest list) and, when it could not be read, why."""

    day: dt.date | None = None
    error: str = ""


def asked_date(query) -> AskedDate:
    """``?week=`` or ``?date=`` of a query (``request.GET``); never raises."""
    week = (query.get("week") or "").strip()
    if week:
        match = _WEEK.fullmatch(week)
        try:
            if not match:
                raise ValueError(week)
            return AskedDate(dt.date.fromisocalendar(int(match[1]), int(match[2]), 1))
        except ValueError:
            return AskedDate(error=_("“%(value)s” is not a rating week (YYYY-Www, e.g. 2026-W10).") % {"value": week})
    day = (query.get("date") or "").strip()
    if day:
        try:
            if not _DAY.fullmatch(day):
                raise ValueError(day)
            return AskedDate(dt.date.fromisoformat(day))
        except ValueError:
            return AskedDate(error=_("“%(value)s” is not a date (YYYY-MM-DD).") % {"value": day})
    return AskedDate()


@dataclass(frozen=True)
class ShownList:
    """The snapshot a page shows for an asked date (None: none yet) and what to tell the visitor about it."""

    snapshot: RatingSnapshot | None
    message: str = ""


def _same_day(day: dt.date) -> dt.date:
    return day


def list_for_date(
    snapshots: QuerySet[RatingSnapshot],
    asked: AskedDate,
    *,
    period_start: Callable[[dt.date], dt.date] = _same_day,
) -> ShownList:
    """The snapshot of ``snapshots`` (one list's) to show for ``asked``, with the message the rule above gives.

    ``period_start(day)`` is the date of the snapshot that would be the list of ``day`` (the Monday of its week
    for weekly lists). Two queries at most: the snapshot, and the first one when the date is before it.
    """
    ordered = snapshots.order_by("-as_of")
    if asked.day is None:
        snapshot = ordered.first()
        if not asked.error:
            return ShownList(snapshot)
        if snapshot is None:
            return ShownList(None, asked.error + " " + _("No list has been computed yet."))
        shown = _("The newest list, of %(date)s, is shown.") % {"date": show_day(snapshot.as_of)}
        return ShownList(snapshot, f"{asked.error} {shown}")
    snapshot = ordered.filter(as_of__lte=asked.day).first()
    day = show_day(asked.day)
    if snapshot is None:
        first = snapshots.order_by("as_of").first()
        if first is None:
            return ShownList(None, _("No list has been computed yet."))
        return ShownList(
            first,
            _("There was no list yet on %(day)s: the first one, of %(first)s, is shown.")
            % {"day": day, "first": show_day(first.as_of)},
        )
    if snapshot.as_of == period_start(asked.day):
        return ShownList(snapshot)
    return ShownList(
        snapshot,
        _("No list is dated %(day)s: the list in force on that date, of %(date)s, is shown.")
        % {"day": day, "date": show_day(snapshot.as_of)},
    )


def shown_list(
    snapshots: Callable[..., QuerySet[RatingSnapshot]],
    *,
    slug: str,
    asked: AskedDate,
    period_start: Callable[[dt.date], dt.date] = _same_day,
) -> ShownList:
    """``list_for_date`` for a list's page, where ``snapshots(slug=slug)`` reads the publications of the list ``slug``
    with the list itself (``select_related("rating_list")``): no publication is shown when the list has none or
    there is no such active list."""
    return list_for_date(snapshots(slug=slug), asked, period_start=period_start)
