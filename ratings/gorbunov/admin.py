"""Staff actions on Gorbunov lists in the admin: publish now and rebuild, as recorded job runs (``ratings.jobs``)
followed on the run's page (``ratings.admin``, which adds ``RATING_LIST_ACTIONS`` to the rating lists' actions).

The rebuild rewrites every published week of a list, so it asks for confirmation first, naming the weeks.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.admin import PUBLISH, job_start_message, job_url
from ratings.jobs import job_start
from ratings.models import Engine, RatingSnapshot


def _lists(modeladmin, request, queryset):
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
    return lists


def _start(modeladmin, request, lists, kind):
    runs = []
    for rating_list in lists:
        run = job_start_message(
            modeladmin, request, lambda rl=rating_list: job_start(kind=kind, args=[rl.pk], user=request.user)
        )
        if run is not None:
            runs.append(run)
    if len(runs) == 1:
        return redirect(job_url(runs[0]))
    return None


@admin.action(description=gettext_lazy("Gorbunov: publish now (this week's list)"))
def gorbunov_publish_now(modeladmin, request, queryset):
    lists = _lists(modeladmin, request, queryset)
    if lists:
        return _start(modeladmin, request, lists, "gorbunov_publish")
    return None


@admin.action(description=gettext_lazy("Gorbunov: rebuild the whole history"))
def gorbunov_rebuild(modeladmin, request, queryset):
    """Asks first: the rebuild deletes and rewrites every published week of the chosen lists (late results then
    move weeks that staff and players have already seen)."""
    lists = _lists(modeladmin, request, queryset)
    if not lists:
        return None
    if request.POST.get("confirm") == "yes":
        return _start(modeladmin, request, lists, "gorbunov_rebuild")
    rows = []
    for rating_list in lists:
        weeks = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("as_of").values_list("as_of", flat=True)
        weeks = list(weeks)
        rows.append(
            {
                "list": rating_list,
                "count": len(weeks),
                "first": weeks[0] if weeks else None,
                "last": weeks[-1] if weeks else None,
            }
        )
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": _("Rebuild the whole history?"),
        "rows": rows,
        "queryset": queryset,
        "action": "gorbunov_rebuild",
        "opts": modeladmin.model._meta,
        "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
    }
    return TemplateResponse(request, "gorbunov/admin_rebuild_confirm.html", context)


RATING_LIST_ACTIONS = [gorbunov_publish_now, gorbunov_rebuild]


def tournament_counting(tournament) -> list[str]:
    """For the tournament's admin page: in which Gorbunov lists it counts, and from which Monday's publication
    (``selectors.tournament_ratings``, the reasons the public page gives, worded for its organiser and staff)."""
    from django.utils import timezone

    from federation.i18n import current_language
    from ratings.gorbunov import selectors

    lines = []
    for item in selectors.tournament_ratings(tournament=tournament, today=timezone.localdate()):
        name = item.rating_list.display_name(current_language())  # Latin letters on the English pages
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
