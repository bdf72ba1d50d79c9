"""What a mahjong job did, for its run's record (``ratings.jobs``)."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _


def describe_daily(run) -> str:
    outcome = run.outcome
    computed = sorted(slug for slug, state in outcome.items() if state == "computed")
    unchanged = sorted(slug for slug, state in outcome.items() if state != "computed")
    if not computed:
        return _("Nothing to compute: no list's input changed since its last snapshot (%(lists)s).") % {
            "lists": ", ".join(unchanged) or "—"
        }
    text = _("Computed as of %(date)s: %(lists)s.") % {
        "date": (run.args.get("args") or [""])[0],
        "lists": ", ".join(computed),
    }
    if unchanged:
        text += " " + _("Unchanged: %(lists)s.") % {"lists": ", ".join(unchanged)}
    return text


def describe_rebuild(run) -> str:
    args = run.args.get("args", [])
    start, end = (args[1], args[2]) if len(args) == 3 else ("", "")
    counts = ", ".join(f"{slug}: {count}" for slug, count in sorted(run.outcome.items()))
    return _("Rebuilt %(start)s – %(end)s; snapshots written: %(counts)s.") % {
        "start": start,
        "end": end,
        "counts": counts or "0",
    }


def written_rebuild(run) -> str:
    """Each date of the range is written in its own transaction: the dates before the failing one are written."""
    args = run.args.get("args", [])
    if len(args) != 3:
        return ""
    start, end = dt.date.fromisoformat(args[1]), dt.date.fromisoformat(args[2])
    if run.done <= 0:
        return _("Nothing was written: no date of %(start)s – %(end)s was finished.") % {"start": start, "end": end}
    last = start + dt.timedelta(days=run.done - 1)
    if last >= end:
        return _("Every date of %(start)s – %(end)s was written.") % {"start": start, "end": end}
    return _(
        "Written: %(start)s – %(last)s. Not written: %(next)s – %(end)s (those dates keep their old snapshots); "
        "run the rebuild of the range again."
    ) % {"start": start, "last": last, "next": last + dt.timedelta(days=1), "end": end}
