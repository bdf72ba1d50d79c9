"""Rating lists in the admin: parameters validated by the engine; snapshots, entries and changes read-only and
undeletable for everyone (``PublishedRecordAdmin``); a list with a snapshot cannot be deleted.

Each rating system's home adds its own staff actions and pages on ``RatingList`` in its ``admin.py``
(``RATING_LIST_ACTIONS`` and ``rating_list_urls(model_admin)``, found by ``federation.admin.installed_admin_hooks``).
Every long job they start is followed on the one progress page here (``ratings.progress``).
"""

from django.contrib import admin
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied
from django.db.models.fields.json import KT
from django.http import JsonResponse
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _

from federation.admin import installed_admin_hooks
from federation.admin_security import AuditedHistoryAdmin, PublishedRecordAdmin
from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
from ratings.progress import task_state

PUBLISH = "ratings.publish_ratinglist"


def progress_url(task_id: str, rating_lists) -> str:
    """The progress page of a task on these lists (it shows their newest snapshots beside the task's state)."""
    ids = ",".join(str(rating_list.pk) for rating_list in rating_lists)
    return reverse("admin:ratings_ratinglist_progress", args=[task_id]) + f"?lists={ids}"


@admin.register(RatingList)
class RatingListAdmin(AuditedHistoryAdmin):
    list_display = ["name", "slug", "engine", "is_active", "ordering"]
    list_filter = ["engine", "is_active"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "name_en", "slug"]

    def has_delete_permission(self, request, obj=None):
        """A list is deleted only before anything is published in it (deleting it would delete its snapshots);
        the changelist's bulk delete, which cannot tell, is not offered."""
        if obj is None or obj.snapshots.exists():
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request):
        actions = super().get_actions(request)
        if IS_POPUP_VAR in request.GET:
            return actions
        for home_actions in installed_admin_hooks("RATING_LIST_ACTIONS"):
            for action in home_actions:
                actions[action.__name__] = self.get_action(action)
        return actions

    def get_urls(self):
        extra = [
            path(
                "progress/<str:task_id>/",
                self.admin_site.admin_view(self.progress_view),
                name="ratings_ratinglist_progress",
            )
        ]
        for urls in installed_admin_hooks("rating_list_urls"):
            extra += urls(self)
        return extra + super().get_urls()

    def progress_view(self, request, task_id: str):
        """A publication's or a rebuild's state; the page polls ``?format=json`` until the task ends."""
        if not request.user.has_perm(PUBLISH):
            raise PermissionDenied
        state = task_state(task_id)
        if request.GET.get("format") == "json":
            return JsonResponse(state)
        ids = [int(part) for part in request.GET.get("lists", "").split(",") if part.strip().isdigit()]
        lists = list(RatingList.objects.filter(pk__in=ids))
        snapshots = (
            RatingSnapshot.objects.filter(rating_list__in=lists)
            .select_related("rating_list")
            .annotate(mode=KT("summary__mode"))
            .defer("summary")
            .order_by("-as_of", "rating_list__ordering")[:10]
        )
        percent = 100 * state["done"] // state["total"] if state["total"] else (0 if state["running"] else 100)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": _("Rating lists: progress"),
            "task": state,
            "percent": percent,
            "lists": lists,
            "snapshots": snapshots,
        }
        return TemplateResponse(request, "admin/ratings/ratinglist/progress.html", context)


@admin.register(RatingSnapshot)
class RatingSnapshotAdmin(PublishedRecordAdmin):
    list_display = ["rating_list", "as_of", "computed_at"]
    list_filter = ["rating_list"]
    date_hierarchy = "as_of"


@admin.register(RatingEntry)
class RatingEntryAdmin(PublishedRecordAdmin):
    list_display = ["snapshot", "rank", "player", "rating", "delta", "events"]
    list_select_related = ["snapshot__rating_list", "player"]
    list_filter = ["snapshot__rating_list"]
    autocomplete_fields = ["player"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    show_full_result_count = False


@admin.register(RatingChange)
class RatingChangeAdmin(PublishedRecordAdmin):
    list_display = ["rating_list", "player", "tournament", "event_date", "before", "delta", "after"]
    list_select_related = ["rating_list", "player", "tournament"]
    list_filter = ["rating_list"]
    search_fields = ["player__last_name", "player__last_name_latin", "tournament__name"]
    show_full_result_count = False


@admin.register(StartingRating)
class StartingRatingAdmin(AuditedHistoryAdmin):
    """Ratings carried over from the federation's own list (staff only, through the ``ratings`` permissions): every
    rebuild of the list starts from them. Who recorded each row and when is kept, and its history."""

    list_display = ["player", "rating_list", "rating", "acceleration", "max_rating", "league", "list_date"]
    list_filter = ["rating_list", "list_date"]
    list_select_related = ["player", "rating_list"]
    search_fields = ["player__search_name", "player__external_id"]
    autocomplete_fields = ["player"]
    readonly_fields = ["recorded_by", "recorded_at"]
    fields = ["rating_list", "player", "list_date", "rating", "acceleration", "max_rating", "league", *readonly_fields]

    def save_model(self, request, obj, form, change):
        obj.recorded_by = request.user
        super().save_model(request, obj, form, change)
