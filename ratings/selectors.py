"""Reads every rating list shares."""

from __future__ import annotations

from ratings.models import RatingList, RatingSnapshot


def week_changes(*, today, days: int = 7, per_list: int = 3) -> list[dict]:
    """What changed this week, for the home page: each active list published in the last ``days`` days, with the
    date, how many players moved and the biggest gains. One query for the lists, one per list published (a handful).
    """
    import datetime as dt

    from django.db.models import Count, Max, Q

    from ratings.models import RatingEntry

    since = today - dt.timedelta(days=days)
    lists = (
        RatingList.objects.filter(is_active=True)
        .annotate(latest=Max("snapshots__as_of"))
        .filter(latest__gte=since)
        .order_by("ordering", "slug")
    )
    items = []
    for rating_list in lists:
        snapshot = RatingSnapshot.objects.filter(rating_list=rating_list, as_of=rating_list.latest).first()
        entries = RatingEntry.objects.filter(snapshot=snapshot)
        moved = entries.aggregate(n=Count("pk", filter=Q(delta__gt=0) | Q(delta__lt=0)))["n"]
        gainers = list(entries.filter(delta__gt=0).select_related("player").order_by("-delta", "rank")[:per_list])
        items.append({"list": rating_list, "snapshot": snapshot, "moved": moved, "gainers": gainers})
    return items
