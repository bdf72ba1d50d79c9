"""``page_feeds``: the feeds that follow the page being shown, announced in its ``<head>`` (``<link rel="alternate">``)
and linked at its foot: the calendar's pages their iCalendar and Atom feeds, a rating list's page its publications'
feed, a player's page the feed of their rating changes. Read from the address alone, so a cached page is the same."""

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.models import Discipline

ATOM = "application/atom+xml"
ICS = "text/calendar"

#: Pages of a rating list, by view name: their ``slug`` names the list.
LIST_PAGES = {"ratings:gorbunov:list_detail", "ratings:mahjong:list", "ratings:mahjong:dates"}


def page_feeds(request):
    match = getattr(request, "resolver_match", None)
    if match is None:
        return {}
    name, kwargs = match.view_name, match.kwargs
    feeds = []
    if name in ("calendar:list", "calendar:detail", "calendar:register"):
        discipline = request.GET.get("discipline", "")
        if discipline in Discipline.values:
            feeds.append(
                (
                    ICS,
                    _("Calendar: %(discipline)s") % {"discipline": Discipline(discipline).label},
                    reverse("calendar:ics_discipline", args=[discipline]),
                )
            )
        feeds.append((ICS, _("Tournament calendar"), reverse("calendar:ics")))
        feeds.append((ATOM, _("Tournament calendar"), reverse("calendar:feed")))
        if name == "calendar:detail":
            feeds.insert(0, (ICS, _("This tournament"), reverse("calendar:tournament_ics", args=[kwargs["pk"]])))
    elif name in LIST_PAGES and "slug" in kwargs:
        feeds.append((ATOM, _("Publications of this list"), reverse("feeds:rating_list", args=[kwargs["slug"]])))
    elif name == "federation:player_detail":
        feeds.append((ATOM, _("This player's rating changes"), reverse("feeds:player", args=[kwargs["pk"]])))
    return {"page_feeds": [{"type": kind, "title": title, "url": url} for kind, title, url in feeds]}
