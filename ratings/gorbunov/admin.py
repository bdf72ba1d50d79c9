"""Staff actions on Gorbunov lists in the admin: publish now and rebuild, as Celery tasks followed on the shared
progress page (``ratings.admin``, which adds ``RATING_LIST_ACTIONS`` to the rating lists' actions).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.admin import PUBLISH, progress_url
from ratings.gorbunov import tasks
from ratings.models import Engine
from ratings.progress import task_enqueue


def _start(modeladmin, request, queryset, task, started_text):
    if not request.user.has_perm(PUBLISH):
        modeladmin.message_user(
            request, _("Only federation staff may publish or rebuild rating lists."), messages.ERROR
        )
        return None
    lists = list(queryset.filter(engine=Engine.GORBUNOV))
    skipped = queryset.exclude(engine=Engine.GORBUNOV).count()
    if skipped:
        modeladmin.message_user(
            request, _("Only Gorbunov lists are published here; %(n)d skipped.") % {"n": skipped}, messages.WARNING
        )
    started = []
    for rating_list in lists:
        try:
            # Without a broker the task runs right here, once the action's transaction (if any) commits.
            started.append(task_enqueue(task, args=[rating_list.pk]))
        except Exception as error:
            modeladmin.message_user(request, f"{rating_list}: {error}", messages.ERROR)
            continue
        modeladmin.message_user(request, started_text % {"list": rating_list}, messages.SUCCESS)
    if len(started) == 1:
        return redirect(progress_url(started[0], lists))
    return None


@admin.action(description=gettext_lazy("Gorbunov: publish now (this week's list)"))
def gorbunov_publish_now(modeladmin, request, queryset):
    return _start(modeladmin, request, queryset, tasks.gorbunov_publish, _("Publication of %(list)s started."))


@admin.action(description=gettext_lazy("Gorbunov: rebuild the whole history"))
def gorbunov_rebuild(modeladmin, request, queryset):
    return _start(modeladmin, request, queryset, tasks.gorbunov_rebuild, _("Rebuild of %(list)s started."))


RATING_LIST_ACTIONS = [gorbunov_publish_now, gorbunov_rebuild]


def tournament_counting(tournament) -> list[str]:
    """For the tournament's admin page: in which Gorbunov lists it counts, and from which Monday's publication
    (``selectors.tournament_ratings``, the reasons the public page gives, worded for its organiser and staff)."""
    from django.utils import timezone

    from ratings.gorbunov import selectors

    lines = []
    for item in selectors.tournament_ratings(tournament=tournament, today=timezone.localdate()):
        name = item.rating_list.name
        monday = item.waiting_for.isoformat() if item.waiting_for else ""
        if item.changes:
            text = _("%(list)s: rated in the publication of %(monday)s (%(count)d players).") % {
                "list": name,
                "monday": item.changes[0].snapshot.as_of.isoformat(),
                "count": len(item.changes),
            }
        elif item.reason_code == "format":
            text = _("%(list)s: does not take this format; the tournament will not count there.") % {"list": name}
        elif item.reason_code == "not_approved":
            text = _(
                "%(list)s: once approved, rated in the weekly publication of Monday %(monday)s at 06:00 "
                "(if approved before then)."
            ) % {"list": name, "monday": monday}
        elif item.reason_code == "too_small":
            text = _("%(list)s: will not count, fewer than %(n)d players.") % {"list": name, "n": item.minimum}
        elif item.reason_code == "waiting":
            text = _("%(list)s: will be rated in the weekly publication of Monday %(monday)s at 06:00.") % {
                "list": name,
                "monday": monday,
            }
        else:
            text = _("%(list)s: will not count until its places run 1..U and K is set.") % {"list": name}
        lines.append(text)
    return lines
