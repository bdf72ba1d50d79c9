"""Staff actions of the mahjong lists in the admin.

On ``RatingList`` (``RATING_LIST_ACTIONS`` and ``rating_list_urls``, added by ``ratings.admin``): compute today's
lists now, and rebuild a range of dates as a Celery task followed on the shared progress page. On ``Tournament``
(``TOURNAMENT_ACTIONS``, added by ``tournaments.admin``): accredit, withdraw the accreditation with a reason, judge a
rank restriction, and show what stops a submission. Every action calls one service.
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.admin import PUBLISH, job_start_message, job_url
from ratings.jobs import job_start
from ratings.mahjong import services
from ratings.mahjong.forms import RebuildForm, WithdrawForm
from ratings.mahjong.selectors import MAHJONG_ENGINES, mahjong_lists


def _error_text(error: Exception) -> str:
    return "; ".join(getattr(error, "messages", [str(error)]))


# ---------------------------------------------------------------------------------------------------------------
# RatingList
# ---------------------------------------------------------------------------------------------------------------


@admin.action(description=gettext_lazy("Mahjong: compute today's lists now (if anything changed)"))
def mahjong_compute_today(modeladmin, request, queryset):
    """The nightly job, now: a job run for a worker (in the request only when there is no broker at all)."""
    if not request.user.has_perm(PUBLISH):
        raise PermissionDenied
    run = job_start_message(
        modeladmin,
        request,
        lambda: job_start(kind="mahjong_daily", args=[timezone.localdate().isoformat()], user=request.user),
    )
    return HttpResponseRedirect(job_url(run)) if run is not None else None


@admin.action(description=gettext_lazy("Mahjong: rebuild a range of dates"))
def mahjong_rebuild_dates(modeladmin, request, queryset):
    ids = [str(pk) for pk in queryset.filter(engine__in=MAHJONG_ENGINES).values_list("pk", flat=True)]
    if not ids:
        modeladmin.message_user(request, _("Choose at least one mahjong list."), messages.WARNING)
        return None
    return HttpResponseRedirect(reverse("admin:ratings_mahjong_rebuild") + "?lists=" + ",".join(ids))


RATING_LIST_ACTIONS = [mahjong_compute_today, mahjong_rebuild_dates]


def _selected_lists(raw: str):
    ids = [int(part) for part in raw.split(",") if part.strip().isdigit()]
    return list(mahjong_lists(active_only=False).filter(pk__in=ids).order_by("pk"))


def rebuild_view(model_admin):
    def view(request):
        if not request.user.has_perm(PUBLISH):
            raise PermissionDenied
        raw = request.POST.get("lists") or request.GET.get("lists", "")
        lists = _selected_lists(raw) if raw else list(mahjong_lists())
        form = RebuildForm(request.POST or None)
        if request.method == "POST" and form.is_valid() and lists:
            start, end = form.cleaned_data["start"], form.cleaned_data["end"]
            ids = [rating_list.pk for rating_list in lists]
            run = job_start_message(
                model_admin,
                request,
                lambda: job_start(
                    kind="mahjong_rebuild", args=[ids, start.isoformat(), end.isoformat()], user=request.user
                ),
            )
            if run is not None:
                return HttpResponseRedirect(job_url(run))
        context = {
            **model_admin.admin_site.each_context(request),
            "title": _("Rebuild mahjong lists"),
            "form": form,
            "lists": lists,
            "lists_raw": ",".join(str(rating_list.pk) for rating_list in lists),
            "opts": model_admin.model._meta,
        }
        return TemplateResponse(request, "mahjong/admin_rebuild.html", context)

    return view


def rating_list_urls(model_admin):
    return [
        path(
            "mahjong/rebuild/",
            model_admin.admin_site.admin_view(rebuild_view(model_admin)),
            name="ratings_mahjong_rebuild",
        ),
    ]


# ---------------------------------------------------------------------------------------------------------------
# Tournament (for TournamentAdmin.actions)
# ---------------------------------------------------------------------------------------------------------------


def _each(modeladmin, request, queryset, call, done_message) -> None:
    done = 0
    for tournament in queryset:
        try:
            call(tournament)
            done += 1
        except (ValidationError, PermissionDenied) as error:
            modeladmin.message_user(request, f"{tournament}: {_error_text(error)}", messages.ERROR)
    if done:
        modeladmin.message_user(request, done_message % {"count": done}, messages.SUCCESS)


@admin.action(description=gettext_lazy("Mahjong: accredit"))
def mahjong_accredit(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda t: services.mahjong_accredit(tournament=t, user=request.user),
        _("Accredited: %(count)d."),
    )


@admin.action(description=gettext_lazy("Mahjong: withdraw accreditation with a reason"))
def mahjong_withdraw_accreditation(modeladmin, request, queryset):
    if not request.user.has_perm("tournaments.accredit_tournament"):
        modeladmin.message_user(request, _("Only federation staff may withdraw an accreditation."), messages.ERROR)
        return None
    form = WithdrawForm(request.POST if "apply" in request.POST else None)
    if form.is_bound and form.is_valid():
        reason = form.cleaned_data["reason"]
        _each(
            modeladmin,
            request,
            queryset,
            lambda t: services.mahjong_accreditation_withdraw(tournament=t, user=request.user, reason=reason),
            _("Accreditation withdrawn: %(count)d."),
        )
        return None
    context = {
        **modeladmin.admin_site.each_context(request),
        "title": _("Withdraw accreditation"),
        "form": form,
        "queryset": queryset,
        "action": "mahjong_withdraw_accreditation",
        "opts": modeladmin.model._meta,
        "selected": request.POST.getlist(admin.helpers.ACTION_CHECKBOX_NAME),
    }
    return TemplateResponse(request, "mahjong/admin_withdraw.html", context)


@admin.action(description=gettext_lazy("Mahjong: judge the rank restriction legitimate"))
def mahjong_rank_restriction_legitimate(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda t: services.mahjong_rank_restriction_judge(tournament=t, user=request.user, legitimate=True),
        _("Rank restriction judged legitimate: %(count)d."),
    )


@admin.action(description=gettext_lazy("Mahjong: judge the rank restriction not legitimate"))
def mahjong_rank_restriction_not_legitimate(modeladmin, request, queryset):
    _each(
        modeladmin,
        request,
        queryset,
        lambda t: services.mahjong_rank_restriction_judge(tournament=t, user=request.user, legitimate=False),
        _("Rank restriction judged not legitimate: %(count)d."),
    )


@admin.action(description=gettext_lazy("Mahjong: check what stops a submission"))
def mahjong_check(modeladmin, request, queryset):
    for tournament in queryset:
        problems = services.mahjong_tournament_problems(tournament)
        if problems:
            modeladmin.message_user(request, f"{tournament}: " + " ".join(problems), messages.ERROR)
        else:
            modeladmin.message_user(request, _("%(tournament)s: ready.") % {"tournament": tournament}, messages.SUCCESS)


TOURNAMENT_ACTIONS = [
    mahjong_accredit,
    mahjong_withdraw_accreditation,
    mahjong_rank_restriction_legitimate,
    mahjong_rank_restriction_not_legitimate,
    mahjong_check,
]


def tournament_counting(tournament) -> list[str]:
    """For the tournament's admin page: whether the mahjong lists will take it, and when (the nightly job)."""
    from tournaments.models import Discipline, TournamentStatus

    if tournament.discipline != Discipline.MAHJONG:
        return []
    if tournament.status != TournamentStatus.APPROVED or not tournament.accredited:
        return [
            _(
                "Mahjong lists (RR, CRR, online): taken once the tournament is approved and accredited, in the "
                "nightly computation at 03:00 after that."
            )
        ]
    return [_("Mahjong lists (RR, CRR, online): counted from the nightly computation at 03:00 after its approval.")]
