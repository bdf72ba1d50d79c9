"""Reads every rating list shares: the versions of the pages that show a list (``federation.caching``)."""

from __future__ import annotations

from federation.selectors import Fragment, registry_fragments, version_of
from ratings.models import RatingList, RatingSnapshot

_SNAPSHOTS = RatingSnapshot._meta.db_table
_LISTS = RatingList._meta.db_table
_LIST_HISTORY = RatingList.history.model._meta.db_table


def list_fragments(slug: str) -> list[Fragment]:
    """A list's publications (how many, the newest id, when last computed: a publication, a rebuild or a withdrawal
    changes one of them) and the list's own name and parameters (its history)."""
    where = f"FROM {_SNAPSHOTS} s JOIN {_LISTS} l ON l.id = s.rating_list_id WHERE l.slug = %s"
    return [
        (f"SELECT COUNT(*) {where}", [slug]),
        (f"SELECT MAX(s.id) {where}", [slug]),
        (f"SELECT MAX(s.computed_at) {where}", [slug]),
        (f"SELECT COALESCE(MAX(history_id), 0) FROM {_LIST_HISTORY}", []),
    ]


def list_page_version(request, slug: str, **kwargs) -> str:
    """The version of a list page (any week or date of it, any filter: the address is part of the ETag)."""
    return version_of([*registry_fragments(), *list_fragments(slug)])


def player_fragments(player_id: int) -> list[Fragment]:
    """Every publication of every list: a player's rating, rank and history change only with one."""
    return [
        (f"SELECT COUNT(*) FROM {_SNAPSHOTS}", []),
        (f"SELECT MAX(id) FROM {_SNAPSHOTS}", []),
        (f"SELECT MAX(computed_at) FROM {_SNAPSHOTS}", []),
        (f"SELECT COALESCE(MAX(history_id), 0) FROM {_LIST_HISTORY}", []),
    ]


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
