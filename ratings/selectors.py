"""Reads every rating list shares."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, Min, OuterRef, Q

from ratings.models import RatingEntry, RatingList, RatingSnapshot


@dataclass
class Publication:
    """What a list's latest publication that changed something did, for the home page (issue 28): ``is_new`` for the
    list's first publication (everyone new: its best players, no changes); else how many players moved or entered,
    the biggest gains and the biggest losses."""

    rating_list: RatingList
    snapshot: RatingSnapshot
    is_new: bool
    players: int
    moved: int
    entered: int
    gainers: list[RatingEntry] = field(default_factory=list)
    losers: list[RatingEntry] = field(default_factory=list)


def latest_publications(*, per_list: int = 3) -> list[Publication]:
    """Each active list's newest publication that changed something, newest first: a week in which nobody played is
    skipped for the one before it, so the page never shows a row of zeros. One query for the lists, then four per list
    with a publication (the publication, its counts, its gains and its losses): a handful of lists, whatever their
    size."""
    lists = (
        RatingList.objects.filter(is_active=True)
        .annotate(first=Min("snapshots__as_of"))
        .filter(first__isnull=False)
        .order_by("ordering", "slug")
    )
    changed = RatingEntry.objects.filter(snapshot=OuterRef("pk")).exclude(delta=0)  # a move, or a newcomer (None)
    items = []
    for rating_list in lists:
        snapshot = (
            RatingSnapshot.objects.filter(rating_list=rating_list)
            .filter(Exists(changed))
            .defer("summary")
            .order_by("-as_of")
            .first()
        )
        if snapshot is None:
            continue
        entries = RatingEntry.objects.filter(snapshot=snapshot).select_related("player")
        counts = entries.aggregate(
            players=Count("pk"),
            moved=Count("pk", filter=Q(delta__isnull=False) & ~Q(delta=0)),
            entered=Count("pk", filter=Q(delta__isnull=True)),
        )
        is_new = snapshot.as_of == rating_list.first
        if is_new:
            gainers, losers = list(entries.order_by("rank")[:per_list]), []
        else:
            gainers = list(entries.filter(delta__gt=0).order_by("-delta", "rank")[:per_list])
            losers = list(entries.filter(delta__lt=0).order_by("delta", "rank")[:per_list])
        items.append(Publication(rating_list, snapshot, is_new, gainers=gainers, losers=losers, **counts))
    items.sort(key=lambda item: item.snapshot.as_of, reverse=True)
    return items
