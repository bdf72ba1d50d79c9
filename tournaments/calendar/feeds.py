"""Atom feeds through Django's syndication framework: the calendar (each announcement, cancelled and moved ones
saying so), each rating list (each publication, with its biggest movers) and each player (each change to any of
their ratings). The urls wrap them in ``federation.caching.cached_page`` under the versions of what they show."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.syndication.views import Feed
from django.db.models import Q, Sum
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from federation.models import Player
from federation.selectors import public_tournaments
from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot
from tournaments.calendar import ics
from tournaments.calendar.selectors import announced_tournaments
from tournaments.models import Discipline, Schedule

#: Items a feed holds: the newest ones.
ITEMS = 30
#: Movers named in a publication's entry.
MOVERS = 5


def _moment(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(6, 0), tzinfo=timezone.get_current_timezone())


def _delta(value) -> str:
    return f"{float(value):+.1f}"


class CalendarFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, discipline: str = ""):
        if discipline and discipline not in Discipline.values:
            raise Http404
        return discipline

    def title(self, obj):
        if obj:
            return _("Tournament calendar: %(discipline)s") % {"discipline": Discipline(obj).label}
        return _("Tournament calendar")

    def link(self, obj):
        url = reverse("calendar:list")
        return f"{url}?discipline={obj}" if obj else url

    def description(self, obj):
        return _("Tournaments announced by the federation, with every change of date and every cancellation.")

    def items(self, obj):
        found = announced_tournaments()
        if obj:
            found = found.filter(discipline=obj)
        return found.order_by("-updated_at", "-pk")[:ITEMS]

    def item_title(self, item):
        return f"{ics.summary(item)} — {_day_range(item)}"

    def item_description(self, item):
        parts = [item.get_discipline_display(), ", ".join(p for p in (item.venue, item.city) if p)]
        if item.schedule == Schedule.CANCELLED:
            parts.append(_("The tournament is cancelled."))
        if item.schedule_note:
            parts.append(item.schedule_note)
        parts.append(item.description_in(get_language() or "ru"))
        return "\n".join(p for p in parts if p)

    def item_link(self, item):
        return item.get_calendar_url()

    def item_guid(self, item):
        # A new revision (moved, cancelled) is a new entry, so a reader shows the change.
        return f"{settings.SITE_URL}{item.get_calendar_url()}#rev{item.calendar_sequence}"

    def item_updateddate(self, item):
        return item.updated_at or _moment(item.start_date)

    def item_pubdate(self, item):
        return item.announcement_approved_at or self.item_updateddate(item)


def _day_range(tournament) -> str:
    if tournament.start_date == tournament.end_date:
        return tournament.start_date.isoformat()
    return f"{tournament.start_date.isoformat()} — {tournament.end_date.isoformat()}"


class RatingListFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, slug: str):
        return get_object_or_404(RatingList.objects.filter(is_active=True), slug=slug)

    def title(self, obj):
        return _("%(list)s: publications") % {"list": obj.display_name(get_language() or "ru")}

    def link(self, obj):
        return obj.get_absolute_url()

    def description(self, obj):
        return _("Each publication of the list, with its biggest movers.")

    def items(self, obj):
        return list(RatingSnapshot.objects.filter(rating_list=obj).order_by("-as_of")[:ITEMS])

    def item_title(self, item):
        return _("%(list)s as of %(date)s") % {
            "list": item.rating_list.display_name(get_language() or "ru"),
            "date": item.as_of.isoformat(),
        }

    def item_description(self, item):
        """The biggest movers: each entry's change against the previous publication; for a newcomer (no previous
        rating), the changes of this publication added up."""
        language = get_language() or "ru"
        entries = RatingEntry.objects.filter(snapshot=item).exclude(delta=None).exclude(delta=0)
        totals = dict(entries.values_list("player", "delta"))
        newcomers = RatingChange.objects.filter(snapshot=item).exclude(player__in=list(totals))
        totals.update(newcomers.values("player").annotate(total=Sum("delta")).values_list("player", "total"))
        ordered = sorted(totals.items(), key=lambda pair: (-pair[1], pair[0]))
        up = [pair for pair in ordered if pair[1] > 0][:MOVERS]
        down = [pair for pair in reversed(ordered) if pair[1] < 0][:MOVERS]
        names = {p.pk: p.display_name(language) for p in Player.objects.filter(pk__in=[pk for pk, _total in up + down])}
        lines = []
        if up:
            lines.append(_("Up:") + " " + "; ".join(f"{names[pk]} {_delta(total)}" for pk, total in up))
        if down:
            lines.append(_("Down:") + " " + "; ".join(f"{names[pk]} {_delta(total)}" for pk, total in down))
        return "\n".join(lines) or _("No rating moved.")

    def item_link(self, item):
        url = item.rating_list.get_absolute_url()
        return f"{url}?date={item.as_of.isoformat()}"

    def item_updateddate(self, item):
        return item.computed_at

    def item_pubdate(self, item):
        return item.computed_at


class PlayerFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, pk: int):
        return get_object_or_404(Player.objects.filter(is_bot=False), pk=pk)

    def title(self, obj):
        return _("%(player)s: rating changes") % {"player": obj.display_name(get_language() or "ru")}

    def link(self, obj):
        return reverse("federation:player_detail", args=[obj.pk])

    def description(self, obj):
        return _("Each change to any of the player's ratings.")

    def items(self, obj):
        tournaments = public_tournaments().values("pk")
        return list(
            RatingChange.objects.filter(player=obj, rating_list__is_active=True)
            .filter(Q(tournament=None) | Q(tournament__in=tournaments))
            .select_related("rating_list", "tournament", "snapshot")
            .order_by("-event_date", "-pk")[:ITEMS]
        )

    def item_title(self, item):
        language = get_language() or "ru"
        return _("%(list)s: %(before)s → %(after)s (%(delta)s)") % {
            "list": item.rating_list.display_name(language),
            "before": f"{float(item.before):.1f}",
            "after": f"{float(item.after):.1f}",
            "delta": _delta(item.delta),
        }

    def item_description(self, item):
        language = get_language() or "ru"
        lines = []
        if item.tournament_id:
            lines.append(item.tournament.name)
        if explanation := item.explanation(language):
            lines.append(explanation)
        return "\n".join(lines)

    def item_link(self, item):
        if item.tournament_id:
            return item.tournament.get_absolute_url()
        return reverse("federation:player_detail", args=[item.player_id])

    def item_guid(self, item):
        return f"{settings.SITE_URL}/rating-change/{item.pk}"

    def item_guid_is_permalink(self, item):
        return False

    def item_updateddate(self, item):
        return item.snapshot.computed_at if item.snapshot_id else _moment(item.event_date)

    def item_pubdate(self, item):
        return self.item_updateddate(item)
