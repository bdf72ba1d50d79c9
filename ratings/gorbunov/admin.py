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
