"""Rating lists in the admin: parameters validated by the engine; snapshots, entries and changes read-only and
undeletable for everyone (``PublishedRecordAdmin``); a list with a snapshot cannot be deleted.

Each rating system's home adds its own staff actions and pages on ``RatingList`` in its ``admin.py``
(``RATING_LIST_ACTIONS`` and ``rating_list_urls(model_admin)``, found by ``federation.admin.installed_admin_hooks``).
Every long job they start is a recorded run (``ratings.jobs``), followed on its page here (``JobRunAdmin``).
"""

from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied
from django.db.models.fields.json import KT
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from federation.admin import installed_admin_hooks
from federation.admin_security import AuditedHistoryAdmin, FederationModelAdmin, PublishedRecordAdmin
from ratings.jobs import JOBS, JobNotStarted, job_again, job_command, job_label, job_refresh, job_summary
from ratings.models import JobRun, JobState, RatingChange, RatingEntry, RatingList, RatingSnapshot, StartingRating
from ratings.params_form import RatingListParamsForm, params_fields

PUBLISH = "ratings.publish_ratinglist"


def job_url(run: JobRun) -> str:
    """The page of a job's run: its state while it runs, then what it changed or why it failed."""
    return reverse("admin:ratings_jobrun_change", args=[run.pk])


def job_start_message(modeladmin, request, start) -> JobRun | None:
    """Call ``start()`` (a ``ratings.jobs.job_start``) and tell staff what happened, in their language: queued,
    done in this request, or not started because the queue is down."""
    try:
        run = start()
    except JobNotStarted as refusal:
        modeladmin.message_user(request, str(refusal), messages.ERROR)
        return None
    level = messages.ERROR if run.state in (JobState.FAILED, JobState.LOST) else messages.SUCCESS
    modeladmin.message_user(request, f"{job_label(run.kind)}: {job_summary(run)}", level)
    return run


@admin.register(RatingList)
class RatingListAdmin(AuditedHistoryAdmin):
    list_display = ["name", "slug", "engine", "is_active", "ordering"]
    list_filter = ["engine", "is_active"]
    prepopulated_fields = {"slug": ["name"]}
    search_fields = ["name", "name_en", "slug"]

    def get_form(self, request, obj=None, change=False, **kwargs):
        """An existing list's parameters as labelled fields (``ratings.params_form``); a new list's as JSON until
        its engine is chosen."""
        if obj is not None:
            fields = params_fields(obj.engine, obj.params or {})
            if fields:
                kwargs["form"] = type("RatingListParamsForm", (RatingListParamsForm,), fields)
                kwargs["exclude"] = ["params"]
        return super().get_form(request, obj, change=change, **kwargs)

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
        extra.append(
            path(
                "import-history/",
                self.admin_site.admin_view(self.import_history_view),
                name="ratings_ratinglist_import_history",
            )
        )
        for urls in installed_admin_hooks("rating_list_urls"):
            extra += urls(self)
        return extra + super().get_urls()

    def import_history_view(self, request):
        """A federation's history from a document (``ratings.movein``): staff who publish lists only."""
        from ratings.movein.upload import HistoryUploadFlow

        if not request.user.has_perms([PUBLISH, "ratings.add_startingrating"]):
            raise PermissionDenied
        return HistoryUploadFlow(model_admin=self, request=request).response()

    def progress_view(self, request, task_id: str):
        """The old address of a task's progress: the page of its run."""
        if not request.user.has_perm(PUBLISH):
            raise PermissionDenied
        run = get_object_or_404(JobRun, task_id=task_id)
        return HttpResponseRedirect(job_url(run))


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


@admin.register(JobRun)
class JobRunAdmin(FederationModelAdmin):
    """Every run of a long job, newest first, for federation staff: who started it, when, what it changed or why it
    failed; a run's page follows it while it runs and offers to run a failed or lost one again."""

    list_display = ["created_at", "job", "started", "state", "summary"]
    list_filter = ["state", "kind", "source"]
    list_select_related = ["started_by"]
    date_hierarchy = "created_at"
    list_per_page = 50
    show_full_result_count = False

    def has_module_permission(self, request):
        return request.user.has_perm(PUBLISH)

    def has_view_permission(self, request, obj=None):
        return request.user.has_perm(PUBLISH)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def changelist_view(self, request, extra_context=None):
        if request.user.has_perm(PUBLISH):
            job_refresh(JobRun.objects.filter(state__in=[JobState.QUEUED, JobState.RUNNING]))
        return super().changelist_view(request, extra_context)

    @admin.display(description=gettext_lazy("job"), ordering="kind")
    def job(self, obj):
        return job_label(obj.kind)

    @admin.display(description=gettext_lazy("started by"))
    def started(self, obj):
        if obj.started_by_id:
            return obj.started_by.get_username()
        return obj.get_source_display()

    @admin.display(description=gettext_lazy("what it did"))
    def summary(self, obj):
        return job_summary(obj)

    def get_urls(self):
        again = path("<int:pk>/again/", self.admin_site.admin_view(self.again_view), name="ratings_jobrun_again")
        return [again, *super().get_urls()]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        if not request.user.has_perm(PUBLISH):
            raise PermissionDenied
        if not str(object_id).isdigit():
            raise Http404
        run = get_object_or_404(JobRun.objects.select_related("started_by"), pk=object_id)
        job_refresh([run])
        state = {
            "state": run.state,
            "state_display": run.get_state_display(),
            "running": run.running,
            "done": run.done,
            "total": run.total,
            "step": run.step,
            "summary": job_summary(run),
        }
        if request.GET.get("format") == "json":
            return JsonResponse(state)
        percent = 100 * run.done // run.total if run.total else (0 if run.running else 100)
        job = JOBS.get(run.kind)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": job_label(run.kind),
            "run": run,
            "task": state,
            "percent": percent,
            "again": run.state in (JobState.FAILED, JobState.LOST) and job is not None,
            "destructive": job is not None and job.destructive,
            "command": job_command(run),
            "lists": _run_lists(run),
        }
        return TemplateResponse(request, "admin/ratings/jobrun/run.html", context)

    def again_view(self, request, pk):
        """Run a failed or lost run again (POST only; a destructive job asks once more on the run's page)."""
        if not request.user.has_perm(PUBLISH) or request.method != "POST":
            raise PermissionDenied
        run = get_object_or_404(JobRun, pk=pk)
        job = JOBS.get(run.kind)
        if job is None or run.state not in (JobState.FAILED, JobState.LOST):
            raise PermissionDenied
        if job.destructive and request.POST.get("confirm") != "yes":
            self.message_user(request, _("Tick the confirmation to run this job again."), messages.ERROR)
            return HttpResponseRedirect(job_url(run))
        again = job_start_message(self, request, lambda: job_again(run=run, user=request.user))
        return HttpResponseRedirect(job_url(again or run))


def _run_lists(run: JobRun):
    """The rating lists a run is about and their newest snapshots, for its page."""
    args = run.args.get("args", [])
    ids: list[int] = []
    if run.kind.startswith("gorbunov") and args:
        ids = [args[0]]
    elif run.kind == "mahjong_rebuild" and args:
        ids = list(args[0])
    if not ids:
        return []
    snapshots = (
        RatingSnapshot.objects.filter(rating_list_id__in=ids)
        .select_related("rating_list")
        .annotate(mode=KT("summary__mode"))
        .defer("summary")
        .order_by("-as_of", "rating_list__ordering")[:10]
    )
    return list(snapshots)


# ---------------------------------------------------------------------------------------------------------------
# The schedules (django-celery-beat), as staff read them: the job's name in their language, the time in words.
# ---------------------------------------------------------------------------------------------------------------

#: The schedules ``migrate`` creates, by their stored names (translated when shown).
SCHEDULE_NAMES = [
    gettext_noop("Gorbunov rating: weekly publication (Monday 06:00)"),
    gettext_noop("mahjong: today's RR, CRR and online lists"),
]

WEEKDAYS = {
    "1": gettext_lazy("every Monday at %(time)s"),
    "2": gettext_lazy("every Tuesday at %(time)s"),
    "3": gettext_lazy("every Wednesday at %(time)s"),
    "4": gettext_lazy("every Thursday at %(time)s"),
    "5": gettext_lazy("every Friday at %(time)s"),
    "6": gettext_lazy("every Saturday at %(time)s"),
    "0": gettext_lazy("every Sunday at %(time)s"),
    "7": gettext_lazy("every Sunday at %(time)s"),
}


def crontab_words(crontab) -> str:
    """ "every Monday at 06:00 (Europe/Moscow)" rather than "0 6 * * 1 (m/h/dM/MY/d)"; a schedule of another shape
    is said by cron-descriptor in English, with the raw fields beside it."""
    minute, hour = crontab.minute, crontab.hour
    zone = str(crontab.timezone)
    if minute.isdigit() and hour.isdigit() and crontab.day_of_month == "*" and crontab.month_of_year == "*":
        time = f"{int(hour):02d}:{int(minute):02d}"
        if crontab.day_of_week == "*":
            text = _("every day at %(time)s") % {"time": time}
        elif crontab.day_of_week in WEEKDAYS:
            text = WEEKDAYS[crontab.day_of_week] % {"time": time}
        else:
            text = ""
        if text:
            return f"{text} ({zone})"
    return f"{crontab.human_readable} — {crontab}"


def task_label(task_name: str) -> str:
    for job in JOBS.values():
        if job.task == task_name:
            return str(job.label)
    return task_name


def _install_schedule_admin() -> None:
    from django_celery_beat.admin import CrontabScheduleAdmin, PeriodicTaskAdmin
    from django_celery_beat.models import CrontabSchedule, PeriodicTask

    class FederationPeriodicTaskAdmin(PeriodicTaskAdmin):
        list_display = ("schedule_name", "job", "when", "enabled", "last_run_at")
        list_select_related = ("crontab", "interval")

        @admin.display(description=gettext_lazy("name"), ordering="name")
        def schedule_name(self, obj):
            return _(obj.name) if obj.name in SCHEDULE_NAMES else obj.name

        @admin.display(description=gettext_lazy("job"), ordering="task")
        def job(self, obj):
            return task_label(obj.task)

        @admin.display(description=gettext_lazy("when"))
        def when(self, obj):
            if obj.crontab_id:
                return crontab_words(obj.crontab)
            return str(obj.schedule) if obj.interval_id or obj.clocked_id or obj.solar_id else "—"

    class FederationCrontabAdmin(CrontabScheduleAdmin):
        list_display = ("words",)

        @admin.display(description=gettext_lazy("when"))
        def words(self, obj):
            return crontab_words(obj)

    for model, model_admin in ((PeriodicTask, FederationPeriodicTaskAdmin), (CrontabSchedule, FederationCrontabAdmin)):
        if admin.site.is_registered(model):
            admin.site.unregister(model)
        admin.site.register(model, model_admin)


_install_schedule_admin()


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
