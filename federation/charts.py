"""The one shape of every rating chart's data (drawn by ``static/js/charts.js`` on a time axis).

A chart is ``{"series": [...], "events": [...], "rating": <axis title>, "rank": <axis title>}``; a series is a label,
its axis (``rating``, or ``rank`` drawn reversed on the right) and points ``{"x": "YYYY-MM-DD", "y": number}``; an
event is a dated label (a tournament) marked on the time axis. Dates are ISO so the browser places them in time:
points are as far apart as the days between them, not evenly spaced.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable


def _iso(day) -> str:
    if isinstance(day, dt.datetime):
        return day.date().isoformat()
    if isinstance(day, dt.date):
        return day.isoformat()
    return str(day)[:10]


def series(label: str, points: Iterable[tuple], *, axis: str = "rating", stepped: bool = False) -> dict:
    return {
        "label": label,
        "axis": axis,
        "stepped": stepped,
        "points": [
            {"x": _iso(day), "y": float(value)} for day, value in points if day is not None and value is not None
        ],
    }


def event(day, label: str) -> dict:
    return {"x": _iso(day), "label": label}


#: The most lines one chart draws (issue 28): more are not told apart; the tournaments' markers count as one.
MAX_SERIES = 3


def time_chart(
    all_series: list[dict], *, events: Iterable[dict] = (), rating: str = "", rank: str = "", reverse: bool = False
) -> dict:
    """``reverse``: the values axis upside down, for places (1 at the top)."""
    seen = set()
    unique = []
    for item in events:
        key = (item["x"], item["label"])
        if key not in seen:
            seen.add(key)
            unique.append(item)
    shown = [s for s in all_series if s["points"]]
    chart = {"series": shown, "events": unique, "rating": rating, "rank": rank}
    if reverse:
        chart["reverse"] = True
    return chart
