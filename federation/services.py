"""Writes on the member registry."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from federation import versions
from federation.models import Player
from tournaments.models import Result, TournamentStatus


@transaction.atomic
def player_tournament_counts_refresh(*, player_ids: Iterable[int] | None = None) -> None:
    """Recount the approved tournaments of these players (all players when ``None``).

    For given players (a tournament's results, a merge), one UPDATE that counts for each of them. For all players,
    one grouped count, then one UPDATE per distinct count: a few hundred statements at most, whatever the number of
    players, and no per-row subquery for the planner to get wrong on freshly loaded tables.
    """
    versions.changed(Player)  # written with update(): no signal tells the pages
    results = Result.objects.filter(tournament__status=TournamentStatus.APPROVED, player__isnull=False).order_by()
    if player_ids is not None:
        count = results.filter(player=OuterRef("pk")).values("player").annotate(n=Count("pk")).values("n")
        Player.objects.filter(pk__in=set(player_ids)).update(tournament_count=Coalesce(Subquery(count), 0))
        return
    by_count: dict[int, list[int]] = defaultdict(list)
    for player_id, count in results.values("player").annotate(n=Count("pk")).values_list("player", "n"):
        by_count[count].append(player_id)
    Player.objects.exclude(tournament_count=0).update(tournament_count=0)
    for count, ids_with_count in by_count.items():
        for start in range(0, len(ids_with_count), 1000):
            Player.objects.filter(pk__in=ids_with_count[start : start + 1000]).update(tournament_count=count)


MERGED_FIELDS = (
    "first_name",
    "last_name_latin",
    "first_name_latin",
    "city",
    "club_id",
    "ema_id",
    "egd_pin",
    "user_id",
)


@transaction.atomic
def player_merge(*, keep: Player, duplicates: list[Player], user: AbstractBaseUser) -> Player:
    """Merge duplicate profiles into ``keep``: every result moves over, empty fields are filled, duplicates go.

    Nothing is lost: a duplicate that played in the same tournament as ``keep`` stops the merge with the name of
    that tournament (two results of one person in one tournament need a person to decide which is right).
    """
    if not user.has_perm("federation.delete_player"):
        raise PermissionDenied(_("Only federation staff may merge players."))
    others = [p for p in duplicates if p.pk != keep.pk]
    if not others:
        raise ValidationError(_("Choose at least two different players to merge."))
    ids = [keep.pk, *(p.pk for p in others)]
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids)}
    keep = locked[keep.pk]
    clash = (
        Result.objects.filter(player_id__in=ids)
        .values("tournament_id", "tournament__name")
        .order_by()
        .annotate(n=Count("id"))
        .filter(n__gt=1)
        .order_by("tournament_id")
        .first()
    )
    if clash:
        raise ValidationError(
            _("These players both played in “%(tournament)s”; correct that tournament's results first.")
            % {"tournament": clash["tournament__name"]}
        )
    for other in (locked[p.pk] for p in others):
        for field in MERGED_FIELDS:
            if not getattr(keep, field) and getattr(other, field):
                setattr(keep, field, getattr(other, field))
                if field in ("ema_id", "egd_pin", "user_id"):
                    setattr(other, field, "" if field != "user_id" else None)
        other.save()
        Result.objects.filter(player=other).update(player=keep)
        versions.changed(Result)
        for judged in other.judged_tournaments.all():
            judged.judges.add(keep)
        other._change_reason = f"merged into player {keep.pk}"
        other.delete()
    keep._change_reason = "merged duplicates " + ", ".join(str(p.pk) for p in others)
    keep.full_clean()
    keep.save()
    player_tournament_counts_refresh(player_ids=[keep.pk])
    return keep
