"""What a Gorbunov job did, for its run's record (``ratings.jobs``): the outcome stored, and the sentence shown.

"Published 2026-W49: 262 players, 14 changes", or "Nothing to publish: 2026-W49 is published already; the tournament
of 2026-11-28 will be rated on 2026-12-07".
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.gorbunov.selectors import first_publication
from ratings.gorbunov.services import _eligible, _processed
from ratings.models import RatingEntry, RatingList, RatingSnapshot

#: Waiting tournaments named in a "nothing to publish" sentence.
PENDING_SHOWN = 3


def iso_week(day: str | dt.date) -> str:
    day = dt.date.fromisoformat(day) if isinstance(day, str) else day
    year, week, _weekday = day.isocalendar()
    return f"{year}-W{week:02d}"


def publication_outcome(result: dict[str, Any]) -> dict[str, Any]:
    """The service's result with what staff want to read beside it: the list's name, the players in its newest
    list, and the approved tournaments still waiting, with the Monday each will be rated on."""
    rating_list = (
        RatingList.objects.filter(pk=result["rating_list_id"]).annotate(latest=Max("snapshots__as_of")).first()
    )
    if rating_list is None:
        return result
    outcome = {**result, "list": rating_list.name}
    newest = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").first()
    outcome["players"] = RatingEntry.objects.filter(snapshot=newest).count() if newest else 0
    done = _processed(rating_list)
    today = timezone.localdate()
    waiting = [t for t in _eligible(rating_list, dt.date.max).order_by("end_date", "pk") if t.pk not in done]
    outcome["pending"] = [
        {
            "date": t.end_date.isoformat(),
            "monday": first_publication(rating_list=rating_list, tournament=t, today=today).isoformat(),
        }
        for t in waiting[:PENDING_SHOWN]
    ]
    outcome["pending_count"] = len(waiting)
    return outcome


def _one(outcome: dict[str, Any]) -> str:
    name = outcome.get("list", "")
    status = outcome.get("status")
    weeks = outcome.get("weeks") or []
    if status == "published" and weeks:
        span = iso_week(weeks[0]) if len(weeks) == 1 else f"{iso_week(weeks[0])} – {iso_week(weeks[-1])}"
        return _("%(list)s: published %(weeks)s: %(players)s players, %(changes)s changes.") % {
            "list": name,
            "weeks": span,
            "players": outcome.get("players", 0),
            "changes": outcome.get("changes", 0),
        }
    if status == "rebuilt":
        if not weeks:
            return _("%(list)s: rebuilt; no tournament to rate.") % {"list": name}
        return _(
            "%(list)s: rebuilt %(count)s weeks (%(first)s – %(last)s): %(tournaments)s tournaments, %(changes)s "
            "changes, %(players)s players in the newest list."
        ) % {
            "list": name,
            "count": len(weeks),
            "first": iso_week(weeks[0]),
            "last": iso_week(weeks[-1]),
            "tournaments": outcome.get("tournaments", 0),
            "changes": outcome.get("changes", 0),
            "players": outcome.get("players", 0),
        }
    if status == "already published":
        text = _("%(list)s: nothing to publish: this week's list is published already.") % {"list": name}
    else:
        text = _("%(list)s: nothing to publish.") % {"list": name}
    pending = outcome.get("pending") or []
    if not pending:
        return text + " " + _("No approved tournament is waiting.")
    waits = "; ".join(
        _("the tournament of %(date)s will be rated on %(monday)s") % {"date": p["date"], "monday": p["monday"]}
        for p in pending
    )
    more = outcome.get("pending_count", len(pending)) - len(pending)
    if more > 0:
        waits += " " + _("(and %(n)s more)") % {"n": more}
    return f"{text} {waits[:1].upper()}{waits[1:]}."


def describe_publication(run) -> str:
    return _one(run.outcome)


def describe_weekly(run) -> str:
    items = run.outcome.get("items", [])
    if not items:
        return _("No active Gorbunov list.")
    return " ".join(_one(item) for item in items)


def written_weekly(run) -> str:
    """Each list is published in its own transaction, which records it (``JobStep``): the lists named are written,
    whenever the run stopped; the others are as they were."""
    from ratings.jobs import job_steps

    steps = job_steps(run)
    if not steps:
        return _("No list was published before the run stopped; every list is as it was. Run it again.")

    def span(weeks: list[str]) -> str:
        return iso_week(weeks[0]) if len(weeks) == 1 else f"{iso_week(weeks[0])} – {iso_week(weeks[-1])}"

    published = "; ".join(f"{step.step} ({span(step.detail['weeks'])})" for step in steps if step.detail.get("weeks"))
    return _(
        "Published before the run stopped: %(lists)s. Every other list is as it was: run it again to publish them."
    ) % {"lists": published}
