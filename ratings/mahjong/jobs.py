"""What a mahjong job did, for its run's record (``ratings.jobs``)."""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


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
    text = _("Rebuilt %(start)s – %(end)s; snapshots written: %(counts)s.") % {
        "start": start,
        "end": end,
        "counts": counts or "0",
    }
    return text + _unchanged(run.outcome, start, end)


def _unchanged(outcome: dict, start: str, end: str) -> str:
    """Issue 29: a one-date rebuild that wrote nothing says why: the date is not a change date, the list in force on
    it is an earlier date's."""
    from datetime import date

    from ratings.mahjong.services import mahjong_unchanged_since
    from ratings.models import RatingList

    if not start or start != end:
        return ""
    day = date.fromisoformat(start)
    said = []
    for rating_list in RatingList.objects.filter(slug__in=[slug for slug, count in outcome.items() if not count]):
        since = mahjong_unchanged_since(rating_list=rating_list, day=day)
        if since is not None:
            said.append(
                _(" %(list)s: unchanged since %(since)s (the list in force on %(day)s is that date's).")
                % {"list": rating_list.slug, "since": since.isoformat(), "day": start}
            )
    return "".join(said)


def written_rebuild(run) -> str:
    """What a failed or lost rebuild wrote. Each date's snapshots are written in their own transactions, each with its
    ``JobStep`` (``RunProgress.written``), so the steps say exactly what was committed, whenever the run stopped. The
    dates before the last one written, and the ``done`` dates the run reported (after their transactions), were
    rebuilt; the heartbeat alone, written every 15 s, said "nothing" of a run killed after 21 dates (issue 27)."""
    from ratings.jobs import job_steps

    args = run.args.get("args", [])
    if len(args) != 3:
        return ""
    start, end = dt.date.fromisoformat(args[1]), dt.date.fromisoformat(args[2])
    steps = job_steps(run)
    dates = sorted({dt.date.fromisoformat(step.step) for step in steps})
    reported = start + dt.timedelta(days=run.done - 1) if run.done > 0 else None
    through = max([day for day in (dates[-1] if dates else None, reported) if day is not None], default=None)
    if through is None:
        return _("Nothing was written: no date of %(start)s – %(end)s was finished.") % {"start": start, "end": end}
    text = ""
    if dates:
        per_list: dict[str, list[int]] = {}
        for step in steps:
            counts = per_list.setdefault(str(step.detail.get("list", "—")), [0, 0])
            counts[0 if step.detail.get("snapshot") == "written" else 1] += 1
        lists = "; ".join(
            _("%(list)s: %(written)s written, %(removed)s removed") % {"list": slug, "written": w, "removed": r}
            for slug, (w, r) in sorted(per_list.items())
        )
        text = (
            ngettext(
                "Snapshots written or removed before the run stopped, on %(count)s date up to %(last)s: %(lists)s.",
                "Snapshots written or removed before the run stopped, on %(count)s dates up to %(last)s: %(lists)s.",
                len(dates),
            )
            % {"count": len(dates), "last": dates[-1], "lists": lists}
            + " "
        )
    if through >= end:
        return text + _("Every date of %(start)s – %(end)s was written.") % {"start": start, "end": end}
    return text + _(
        "Written: %(start)s – %(last)s. Not written: %(next)s – %(end)s (those dates keep their old snapshots); "
        "run the rebuild of the range again."
    ) % {"start": start, "last": through, "next": through + dt.timedelta(days=1), "end": end}
