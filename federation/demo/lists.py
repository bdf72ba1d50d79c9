"""The demo's Gorbunov and mahjong lists, computed by the same services as the weekly and nightly jobs."""

from __future__ import annotations

import datetime
import logging

from federation.demo.base import Feed
from ratings.gorbunov.services import gorbunov_publish, gorbunov_setup_defaults, publication_monday
from ratings.mahjong.selectors import MAHJONG_ENGINES, mahjong_lists
from ratings.mahjong.services import mahjong_daily, mahjong_rebuild, mahjong_setup_defaults
from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot

#: How far back the mahjong lists are rebuilt day by day; before that, one snapshot at the end of each month.
MAHJONG_DAILY_DAYS = 92


def gorbunov_lists_publish(feed: Feed) -> str:
    gorbunov_setup_defaults()
    week = publication_monday(feed.today)
    weeks = changes = 0
    lists = RatingList.objects.filter(engine=Engine.GORBUNOV, is_active=True).order_by("ordering", "pk")
    for pk in lists.values_list("pk", flat=True):
        result = gorbunov_publish(rating_list_id=pk, week=week)
        weeks += len(result.weeks)
        changes += result.changes
    feed.counts.update(gorbunov_weeks=weeks, gorbunov_changes=changes)
    return f"{lists.count()} lists published up to {week}, {weeks} weekly snapshots, {changes} rating changes"


def mahjong_lists_compute(feed: Feed) -> str:
    mahjong_setup_defaults()
    rebuild_from = max(feed.start, feed.today - datetime.timedelta(days=MAHJONG_DAILY_DAYS))
    month_ends = []
    year, month = feed.start.year, feed.start.month
    while True:
        following = datetime.date(year + month // 12, month % 12 + 1, 1)
        end = following - datetime.timedelta(days=1)
        if end >= rebuild_from:
            break
        month_ends.append(end)
        year, month = following.year, following.month
    chatty = logging.getLogger("ratings.mahjong.services")  # a line per list and date: the step line says it all
    level = chatty.level
    chatty.setLevel(logging.WARNING)
    try:
        for day in month_ends:
            mahjong_daily(today=day)
        written = mahjong_rebuild(rating_lists=mahjong_lists(), start=rebuild_from, end=feed.today)
        mahjong_daily(today=feed.today)
    finally:
        chatty.setLevel(level)
    snapshots = RatingSnapshot.objects.filter(rating_list__engine__in=MAHJONG_ENGINES)
    total = snapshots.count()
    entries = RatingEntry.objects.filter(snapshot__in=snapshots).count()
    feed.counts.update(mahjong_snapshots=total, mahjong_entries=entries)
    per_list = ", ".join(f"{slug} {n}" for slug, n in written.items())
    return (
        f"month-end snapshots to {rebuild_from:%Y-%m}, then every change to {feed.today} ({per_list}); "
        f"{total} snapshots, {entries} entries"
    )
