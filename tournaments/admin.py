from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from federation.admin import installed_admin_hooks
from federation.admin_security import AuditedHistoryAdmin, FederationInline
from tournaments import services
from tournaments.calendar import services as calendar_services
from tournaments.models import (
    AnnouncementStatus,
    Discipline,
    Registration,
    RegistrationStatus,
    Stage,
    Tournament,
    TournamentStatus,
)

STAFF_ONLY_FIELDS = [
    "status",
    "submitted_at",
    "approved_at",
    "approved_by",
    "accredited",
    "accredited_by",
    "accredited_at",
    "open_ema_judged_by",
    "open_ema_judged_at",
    "announcement",
    "announcement_approved_by",
    "announcement_approved_at",
]
#: A card-game tournament's own optional Gorbunov rules (rules/gorbunov.md), overriding its list's: staff only.
STAFF_RULE_FIELDS = ["sqrt_rule", "sealed_cap"]
#: Judgements of federation staff, editable by them only.
STAFF_JUDGEMENT_FIELDS = ["accreditation_note", "rank_restriction_legitimate", "is_open", "ema"]


class TournamentAdminForm(forms.ModelForm):
    """Guards the coefficient with the one K rule (``services.tournament_k_check``), the judges at K >= 4
    (``services.judge_problems``), a card tournament's format and the dates."""

    def clean(self):
        cleaned = super().clean()
        if "k" in self.fields:
            try:
                services.tournament_k_check(user=self.request_user, tournament=self.instance, k=cleaned.get("k"))
            except ValidationError as error:
                self.add_error(None, error)
        discipline = cleaned.get("discipline", self.instance.discipline)
        if "card_format" in self.fields and discipline == Discipline.CARD_GAMES and not cleaned.get("card_format"):
            self.add_error(
                "card_format", _("Choose the format: a card tournament without a format counts in no rating list.")
            )
        if "judges" in self.fields and self.instance.pk and discipline == Discipline.CARD_GAMES:
            judges = cleaned.get("judges")
            problems = services.judge_problems(
                tournament=self.instance,
                k=cleaned.get("k", self.instance.k),
                judge_ids=[j.pk for j in judges] if judges is not None else None,
            )
            for problem in problems:
                self.add_error("judges", problem)
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return cleaned


def locked_for(request, obj) -> bool:
    """A submitted or approved tournament is changed by federation staff only (submitted = locked for its
    organiser until staff return it to draft)."""
    return (
        obj is not None
        and obj.status in (TournamentStatus.SUBMITTED, TournamentStatus.APPROVED)
        and not request.user.has_perm("tournaments.approve_tournament")
    )


class LockedWhenApprovedMixin:
    """A submitted or approved tournament's stages are changed by federation staff only."""

    def _locked(self, request, obj) -> bool:
        return locked_for(request, obj)

    def has_add_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_delete_permission(request, obj)


class StageInline(LockedWhenApprovedMixin, FederationInline):
    model = Stage
    fields = ["number", "hanchans", "players"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(AuditedHistoryAdmin):
    form = TournamentAdminForm
    inlines = [StageInline]
    list_display = ["name", "discipline", "end_date", "city", "status", "coefficient", "accreditation", "organiser"]
    list_filter = ["discipline", "status", "accredited", ("end_date", admin.DateFieldListFilter)]
    list_select_related = ["organiser"]
    search_fields = ["name", "name_en", "city"]
    date_hierarchy = "end_date"
    actions = [
        "submit",
        "approve",
        "return_to_draft",
        "submit_announcement",
        "approve_announcement",
        "withdraw_announcement",
        "close_registration",
        "reopen_registration",
        "cancel_tournament",
    ]
    #: The announcement (tournaments/calendar): what the calendar shows before there are results.
    ANNOUNCEMENT_FIELDS = [
        ("announcement", "announcement_approved_by", "announcement_approved_at"),
        ("venue", "contact"),
        "description",
        "description_en",
        "rules_note",
        ("max_players", "waiting_list"),
        ("registration_online", "registration_deadline", "registration_closed"),
        ("schedule", "schedule_note"),
    ]
    #: The fieldsets of each discipline; the page shows only the tournament's own, open (a collapsed section hides
    #: its errors, e.g. the K refusal), and all of them, collapsed, only while the discipline is not chosen yet.
    DISCIPLINE_FIELDSETS = {
        Discipline.CARD_GAMES: (_("Card games"), [("card_format", "k"), ("sqrt_rule", "sealed_cap"), "judges"]),
        Discipline.MAHJONG: (
            _("Riichi mahjong"),
            [
                ("hanchans", "participants"),
                ("accredited", "accredited_by", "accredited_at"),
                "accreditation_note",
                ("is_open", "ema", "open_ema_judged_by", "open_ema_judged_at"),
                ("online", "online_platform"),
                ("rank_restricted", "rank_restriction_legitimate"),
            ],
        ),
        Discipline.GO: (_("Go"), [("go_system", "rounds"), ("half_stone", "acceleration", "draws_allowed")]),
    }

    def get_fieldsets(self, request, obj=None):
        discipline = (
            obj.discipline if obj is not None else request.POST.get("discipline", request.GET.get("discipline"))
        )
        common = [
            (
                None,
                {
                    "fields": [
                        "discipline",
                        ("name", "name_en"),
                        ("start_date", "end_date"),
                        ("city", "country"),
                        "organiser",
                    ]
                },
            ),
            (_("Status"), {"fields": [("status", "submitted_at"), ("approved_by", "approved_at")]}),
        ]
        announcement = (
            [*self.ANNOUNCEMENT_FIELDS, "registrations_summary"] if obj is not None else self.ANNOUNCEMENT_FIELDS
        )
        common.append((_("Announcement and registration"), {"fields": announcement}))
        if obj is not None:
            common.append((_("Results and rating lists"), {"fields": ["results_summary", "counting"]}))
        if discipline in self.DISCIPLINE_FIELDSETS:
            title, fields = self.DISCIPLINE_FIELDSETS[discipline]
            return [*common, (title, {"fields": fields})]
        if discipline in Discipline.values:
            return common
        return common + [
            (title, {"fields": fields, "classes": ["collapse"]}) for title, fields in self.DISCIPLINE_FIELDSETS.values()
        ]

    def get_inlines(self, request, obj):
        """Stages are mahjong's (cut-offs); results are edited on their own page (``results_editor``)."""
        if obj is not None and obj.discipline == Discipline.MAHJONG:
            return [StageInline]
        return []

    def view_on_site(self, obj):
        """The public page shows approved tournaments only: a draft's link would be a 404, so it has none (the
        "Results and rating lists" section says when it will be public)."""
        if obj.status == TournamentStatus.APPROVED:
            return obj.get_absolute_url()
        if obj.announcement == AnnouncementStatus.APPROVED:
            return obj.get_calendar_url()
        return None

    @admin.display(description=_("K"), ordering="k")
    def coefficient(self, obj):
        return obj.k if obj.discipline == Discipline.CARD_GAMES and obj.k else "—"

    @admin.display(description=_("accredited"), ordering="accredited")
    def accreditation(self, obj):
        if obj.discipline != Discipline.MAHJONG:
            return "—"
        return _("yes") if obj.accredited else _("no")

    @admin.display(description=_("Results"))
    def results_summary(self, obj):
        count = obj.results.count()
        url = reverse("admin:tournaments_tournament_results", args=[obj.pk])
        text = ngettext("%(count)d result", "%(count)d results", count) % {"count": count}
        return format_html('{} — <a href="{}" id="results-editor-link">{}</a>', text, url, _("open the results editor"))

    @admin.display(description=_("Registrations"))
    def registrations_summary(self, obj):
        counts = {status: 0 for status in RegistrationStatus.values}
        for status in obj.registrations.values_list("status", flat=True):
            counts[status] += 1
        url = reverse("admin:tournaments_registration_changelist") + f"?tournament__id__exact={obj.pk}"
        text = _("%(registered)d registered, %(waiting)d waiting, %(pending)d awaiting e-mail confirmation") % {
            "registered": counts[RegistrationStatus.REGISTERED],
            "waiting": counts[RegistrationStatus.WAITING],
            "pending": counts[RegistrationStatus.PENDING],
        }
        return format_html('{} — <a href="{}" id="registrations-link">{}</a>', text, url, _("open the list"))

    @admin.display(description=_("Where and when it counts"))
    def counting(self, obj):
        lines = []
        if obj.status != TournamentStatus.APPROVED:
            lines.append(_("Not on the public site until federation staff approve it."))
        for hook in installed_admin_hooks("tournament_counting"):
            lines += hook(obj)
        if not lines:
            return "—"
        return format_html_join("", "<p>{}</p>", ((line,) for line in lines))

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        """Judges are picked like players in the results editor: city, club and id beside each name."""
        if db_field.name == "judges":
            from tournaments.results_editor import PlayersPick

            kwargs["widget"] = PlayersPick(url=reverse("admin:tournaments_tournament_players"))
        return super().formfield_for_manytomany(db_field, request, **kwargs)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request_user = request.user
        return form

    def get_readonly_fields(self, request, obj=None):
        readonly = [*STAFF_ONLY_FIELDS, "results_summary", "counting", "registrations_summary"]
        if not request.user.has_perm("tournaments.accredit_tournament"):
            readonly += STAFF_JUDGEMENT_FIELDS
        if not request.user.has_perm("tournaments.set_high_coefficient"):
            readonly += STAFF_RULE_FIELDS
        if not request.user.has_perm("tournaments.approve_tournament"):
            readonly.append("organiser")
        if locked_for(request, obj):
            return [f.name for f in Tournament._meta.fields] + [
                "judges",
                "results_summary",
                "counting",
                "registrations_summary",
            ]
        return readonly

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.has_perm("tournaments.approve_tournament"):
            return queryset
        return queryset.filter(organiser=request.user)

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        if allowed and obj is not None and not request.user.has_perm("tournaments.approve_tournament"):
            return obj.organiser_id == request.user.pk
        return allowed

    def save_model(self, request, obj, form, change):
        if not change and obj.organiser_id is None:
            obj.organiser = request.user
        if change:
            before = Tournament.objects.filter(pk=obj.pk).first()
            calendar_services.tournament_schedule_changed(before=before, after=obj)
        super().save_model(request, obj, form, change)
        if {"is_open", "ema"} & set(form.changed_data):
            services.tournament_open_ema_judge(tournament=obj, user=request.user, is_open=obj.is_open, ema=obj.ema)

    def get_actions(self, request):
        """The workflow's actions, and those each rating system's home adds (``TOURNAMENT_ACTIONS`` in its admin)."""
        actions = super().get_actions(request)
        if IS_POPUP_VAR in request.GET:
            return actions
        for home_actions in installed_admin_hooks("TOURNAMENT_ACTIONS"):
            for action in home_actions:
                actions[action.__name__] = self.get_action(action)
        if not request.user.has_perm("tournaments.approve_tournament"):
            for name in ("approve", "return_to_draft"):
                actions.pop(name, None)
        if not request.user.has_perm("tournaments.approve_announcement"):
            for name in ("approve_announcement", "withdraw_announcement"):
                actions.pop(name, None)
        if not request.user.has_perm("tournaments.accredit_tournament"):
            for name in [name for name in actions if name.startswith("mahjong_")]:
                actions.pop(name, None)
        return actions

    def get_urls(self):
        from tournaments.admin_import import import_results_view
        from tournaments.results_editor import player_search_view, results_editor_view

        urls = [
            path(
                "<int:pk>/import/",
                self.admin_site.admin_view(import_results_view(self)),
                name="tournaments_tournament_import",
            ),
            path(
                "<int:pk>/results/",
                self.admin_site.admin_view(results_editor_view(self)),
                name="tournaments_tournament_results",
            ),
            path(
                "players/",
                self.admin_site.admin_view(player_search_view(self)),
                name="tournaments_tournament_players",
            ),
        ]
        return urls + super().get_urls()

    @admin.display(description=_("Import"))
    def import_link(self, obj):
        return format_html(
            '<a href="{}">{}</a>', reverse("admin:tournaments_tournament_import", args=[obj.pk]), _("Import results")
        )

    def _run(self, request, queryset, service, done_message, **kwargs):
        done = 0
        for tournament in queryset:
            try:
                service(tournament=tournament, user=request.user, **kwargs)
                done += 1
            except (ValidationError, PermissionDenied) as error:
                text = "; ".join(getattr(error, "messages", [str(error)]))
                self.message_user(request, f"{tournament}: {text}", messages.ERROR)
        if done:
            self.message_user(request, done_message % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Submit to federation staff"))
    def submit(self, request, queryset):
        self._run(request, queryset, services.tournament_submit, _("Submitted: %(count)d."))

    @admin.action(description=_("Approve"))
    def approve(self, request, queryset):
        self._run(request, queryset, services.tournament_approve, _("Approved: %(count)d."))

    @admin.action(description=_("Return to draft"))
    def return_to_draft(self, request, queryset):
        self._run(request, queryset, services.tournament_return_to_draft, _("Returned to draft: %(count)d."))

    @admin.action(description=_("Announce: submit the announcement to federation staff"))
    def submit_announcement(self, request, queryset):
        self._run(request, queryset, calendar_services.announcement_submit, _("Announcements submitted: %(count)d."))

    @admin.action(description=_("Approve the announcement (the calendar shows it)"))
    def approve_announcement(self, request, queryset):
        self._run(request, queryset, calendar_services.announcement_approve, _("Announcements approved: %(count)d."))

    @admin.action(description=_("Withdraw the announcement from the calendar"))
    def withdraw_announcement(self, request, queryset):
        self._run(request, queryset, calendar_services.announcement_withdraw, _("Announcements withdrawn: %(count)d."))

    @admin.action(description=_("Close registration"))
    def close_registration(self, request, queryset):
        self._run(request, queryset, calendar_services.registration_close, _("Registration closed: %(count)d."))

    @admin.action(description=_("Reopen registration"))
    def reopen_registration(self, request, queryset):
        self._run(
            request,
            queryset,
            calendar_services.registration_close,
            _("Registration reopened: %(count)d."),
            closed=False,
        )

    @admin.action(description=_("Cancel the tournament (the calendar and the feeds say so)"))
    def cancel_tournament(self, request, queryset):
        self._run(request, queryset, calendar_services.tournament_cancel, _("Cancelled: %(count)d."))


@admin.register(Registration)
class RegistrationAdmin(AuditedHistoryAdmin):
    """The organiser's list of a tournament's registrations: confirm, move to and from the waiting list, cancel;
    staff also match a newcomer to the registry (``player``). Organisers see their own tournaments' only."""

    list_display = ["name", "tournament", "status", "confirmed_by_organiser", "player", "city", "email", "created_at"]
    list_filter = ["status", "confirmed_by_organiser", "tournament__discipline"]
    list_select_related = ["tournament", "player"]
    search_fields = ["name", "email", "tournament__name"]
    raw_id_fields = ["player"]
    fields = [
        "tournament",
        "player",
        "name",
        "city",
        "email",
        "status",
        "confirmed_by_organiser",
        "created_at",
        "email_confirmed_at",
        "cancelled_at",
    ]
    readonly_fields = ["tournament", "status", "created_at", "email_confirmed_at", "cancelled_at"]
    actions = ["confirm", "to_field", "to_waiting_list", "cancel"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if request.user.has_perm("tournaments.approve_tournament"):
            return queryset
        return queryset.filter(tournament__organiser=request.user)

    def get_readonly_fields(self, request, obj=None):
        readonly = list(self.readonly_fields)
        if not request.user.has_perm("tournaments.approve_tournament"):
            readonly += ["player", "email"]
        return readonly

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        if allowed and obj is not None and not request.user.has_perm("tournaments.approve_tournament"):
            return obj.tournament.organiser_id == request.user.pk
        return allowed

    def _run(self, request, queryset, service, done_message, **kwargs):
        done = 0
        for registration in queryset.select_related("tournament"):
            try:
                service(registration=registration, user=request.user, **kwargs)
                done += 1
            except (ValidationError, PermissionDenied) as error:
                text = "; ".join(getattr(error, "messages", [str(error)]))
                self.message_user(request, f"{registration.name}: {text}", messages.ERROR)
        if done:
            self.message_user(request, done_message % {"count": done}, messages.SUCCESS)

    @admin.action(description=_("Confirm the selected registrations"))
    def confirm(self, request, queryset):
        self._run(request, queryset, calendar_services.registration_organiser_confirm, _("Confirmed: %(count)d."))

    @admin.action(description=_("Move to the field"))
    def to_field(self, request, queryset):
        self._run(
            request,
            queryset,
            calendar_services.registration_set_status,
            _("Moved to the field: %(count)d."),
            status=RegistrationStatus.REGISTERED,
        )

    @admin.action(description=_("Move to the waiting list"))
    def to_waiting_list(self, request, queryset):
        self._run(
            request,
            queryset,
            calendar_services.registration_set_status,
            _("Moved to the waiting list: %(count)d."),
            status=RegistrationStatus.WAITING,
        )

    @admin.action(description=_("Cancel the selected registrations"))
    def cancel(self, request, queryset):
        self._run(
            request,
            queryset,
            calendar_services.registration_set_status,
            _("Cancelled: %(count)d."),
            status=RegistrationStatus.CANCELLED,
        )
