"""Staff actions on Gorbunov lists in the admin: publish now and rebuild (as Celery tasks), with a progress page.

``ratings.admin.RatingListAdmin`` adds ``ACTIONS`` to its actions and ``urls(model_admin)`` to its URLs.
"""

from __future__ import annotations

import uuid

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.gorbunov import tasks
from ratings.models import Engine, RatingList

PERMISSION = "ratings.publish_ratinglist"


def _start(modeladmin, request, queryset, task, done_text):
    if not request.user.has_perm(PERMISSION):
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
        task_id = uuid.uuid4().hex
        try:
            # Enqueued after the surrounding transaction (if any) commits; an eager task runs right here.
            transaction.on_commit(lambda pk=rating_list.pk, tid=task_id: task.apply_async(args=[pk], task_id=tid))
        except Exception as error:
            modeladmin.message_user(request, f"{rating_list}: {error}", messages.ERROR)
            continue
        started.append((rating_list, task_id))
        modeladmin.message_user(request, done_text % {"list": rating_list}, messages.SUCCESS)
    if len(started) == 1:
        rating_list, task_id = started[0]
        return redirect(
            reverse("admin:ratings_ratinglist_gorbunov_progress", args=[rating_list.pk]) + f"?task={task_id}"
        )
    return None


@admin.action(description=gettext_lazy("Gorbunov: publish now (this week's list)"))
def gorbunov_publish_now(modeladmin, request, queryset):
    return _start(modeladmin, request, queryset, tasks.gorbunov_publish, _("Publication of %(list)s started."))


@admin.action(description=gettext_lazy("Gorbunov: rebuild the whole history"))
def gorbunov_rebuild(modeladmin, request, queryset):
    return _start(modeladmin, request, queryset, tasks.gorbunov_rebuild, _("Rebuild of %(list)s started."))


ACTIONS = [gorbunov_publish_now, gorbunov_rebuild]


def _task_state(task_id: str) -> tuple[str, dict]:
    from celery import current_app
    from celery.result import AsyncResult

    if not task_id or current_app.conf.task_always_eager:  # an eager task ran inside the action's request
        return "", {}
    try:
        result = AsyncResult(task_id)
        state = result.state
        info = result.info if isinstance(result.info, dict) else {"error": str(result.info)} if result.info else {}
    except Exception:  # no result backend (tasks run eagerly): the task has already finished
        return "", {}
    return state, info


def urls(model_admin):
    def progress(request, pk: int):
        if not request.user.has_perm(PERMISSION):
            raise PermissionDenied
        rating_list = get_object_or_404(RatingList, pk=pk, engine=Engine.GORBUNOV)
        state, info = _task_state(request.GET.get("task", ""))
        snapshots = rating_list.snapshots.order_by("-as_of")[:10]
        running = state in {"PENDING", "STARTED", "PROGRESS", "RETRY"}
        context = {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.model._meta,
            "title": _("Gorbunov publication: %(list)s") % {"list": rating_list},
            "rating_list": rating_list,
            "state": state,
            "info": info,
            "running": running,
            "percent": int(100 * info.get("done", 0) / info["total"]) if info.get("total") else (0 if running else 100),
            "snapshots": snapshots,
        }
        return TemplateResponse(request, "ratings/gorbunov/admin_progress.html", context)

    return [
        path(
            "<int:pk>/gorbunov/progress/",
            model_admin.admin_site.admin_view(progress),
            name="ratings_ratinglist_gorbunov_progress",
        )
    ]
