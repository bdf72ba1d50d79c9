from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import IS_POPUP_VAR
from django.core.exceptions import PermissionDenied, ValidationError
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from federation.admin import installed_admin_hooks
from federation.admin_security import AuditedHistoryAdmin
from tournaments import services
from tournaments.models import Result, Stage, Tournament, TournamentStatus

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
]
#: A card-game tournament's own optional Gorbunov rules (rules/gorbunov.md), overriding its list's: staff only.
STAFF_RULE_FIELDS = ["sqrt_rule", "sealed_cap"]
#: Judgements of federation staff, editable by them only.
STAFF_JUDGEMENT_FIELDS = ["accreditation_note", "rank_restriction_legitimate", "is_open", "ema"]


class TournamentAdminForm(forms.ModelForm):
    """Guards the coefficient with the one K rule (``services.tournament_k_check``) and the dates."""

    def clean(self):
        cleaned = super().clean()
        if "k" in self.fields:
            try:
                services.tournament_k_check(user=self.request_user, tournament=self.instance, k=cleaned.get("k"))
            except ValidationError as error:
                self.add_error(None, error)
        start, end = cleaned.get("start_date"), cleaned.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date is before the start date."))
        return cleaned


class ResultInlineFormSet(forms.BaseInlineFormSet):
    def clean(self):
        super().clean()
        seen: dict[int, int] = {}
        for index, form in enumerate(self.forms, start=1):
            if not form.cleaned_data or form.cleaned_data.get("DELETE"):
                continue
            player = form.cleaned_data.get("player")
            if player is None and not form.cleaned_data.get("participant_name"):
                form.add_error("player", _("Choose a player or type the name of a participant without a profile."))
            if player is not None and form.cleaned_data.get("participant_name"):
                form.add_error(
                    "participant_name", _("Row %(row)s names two people: a player and a name.") % {"row": index}
                )
            if player is not None:
                if player.pk in seen:
                    form.add_error(
                        "player",
                        _("%(player)s is already in row %(row)s.") % {"player": player, "row": seen[player.pk]},
                    )
                seen[player.pk] = index


class LockedWhenApprovedMixin:
    """An approved tournament's results and stages are changed by federation staff only."""

    def _locked(self, request, obj) -> bool:
        return (
            obj is not None
            and obj.status == TournamentStatus.APPROVED
            and not request.user.has_perm("tournaments.approve_tournament")
        )

    def has_add_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self._locked(request, obj) and super().has_delete_permission(request, obj)


class ResultInline(LockedWhenApprovedMixin, admin.TabularInline):
    model = Result
    formset = ResultInlineFormSet
    fields = ["place", "player", "participant_name", "hanchans_played", "substitute"]
    autocomplete_fields = ["player"]
    extra = 4
    ordering = ["place", "id"]


class StageInline(LockedWhenApprovedMixin, admin.TabularInline):
    model = Stage
    fields = ["number", "hanchans", "players"]
    extra = 0


@admin.register(Tournament)
class TournamentAdmin(AuditedHistoryAdmin):
    form = TournamentAdminForm
    inlines = [ResultInline, StageInline]
    list_display = ["name", "discipline", "end_date", "city", "status", "k", "accredited", "organiser"]
    list_filter = ["discipline", "status", "accredited", ("end_date", admin.DateFieldListFilter)]
    list_select_related = ["organiser"]
    search_fields = ["name", "city"]
    date_hierarchy = "end_date"
    autocomplete_fields = ["judges"]
    actions = ["submit", "approve", "return_to_draft"]
    fieldsets = [
        (None, {"fields": ["discipline", "name", ("start_date", "end_date"), ("city", "country"), "organiser"]}),
        (_("Status"), {"fields": [("status", "submitted_at"), ("approved_by", "approved_at")]}),
        (
            _("Card games"),
            {"fields": [("card_format", "k"), ("sqrt_rule", "sealed_cap"), "judges"], "classes": ["collapse"]},
        ),
        (
            _("Riichi mahjong"),
            {
                "fields": [
                    ("hanchans", "participants"),
                    ("accredited", "accredited_by", "accredited_at"),
                    "accreditation_note",
                    ("is_open", "ema", "open_ema_judged_by", "open_ema_judged_at"),
                    ("online", "online_platform"),
                    ("rank_restricted", "rank_restriction_legitimate"),
                ],
                "classes": ["collapse"],
            },
        ),
        (
            _("Go"),
            {
                "fields": [("go_system", "rounds"), ("half_stone", "acceleration", "draws_allowed")],
                "classes": ["collapse"],
            },
        ),
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.request_user = request.user
        return form

    def get_readonly_fields(self, request, obj=None):
        readonly = list(STAFF_ONLY_FIELDS)
        if not request.user.has_perm("tournaments.accredit_tournament"):
            readonly += STAFF_JUDGEMENT_FIELDS
        if not request.user.has_perm("tournaments.set_high_coefficient"):
            readonly += STAFF_RULE_FIELDS
        if not request.user.has_perm("tournaments.approve_tournament"):
            readonly.append("organiser")
        if (
            obj is not None
            and obj.status == TournamentStatus.APPROVED
            and not request.user.has_perm("tournaments.approve_tournament")
        ):
            return [f.name for f in Tournament._meta.fields] + ["judges"]
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
        super().save_model(request, obj, form, change)
        if {"is_open", "ema"} & set(form.changed_data):
            services.tournament_open_ema_judge(tournament=obj, user=request.user, is_open=obj.is_open, ema=obj.ema)

    def save_related(self, request, form, formsets, change):
        before = set()
        if change:
            before = set(form.instance.results.exclude(player=None).values_list("player_id", flat=True))
        super().save_related(request, form, formsets, change)
        services.tournament_results_changed(tournament=form.instance, player_ids_before=before)

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
        if not request.user.has_perm("tournaments.accredit_tournament"):
            for name in [name for name in actions if name.startswith("mahjong_")]:
                actions.pop(name, None)
        return actions

    def get_urls(self):
        from tournaments.admin_import import import_results_view

        urls = [
            path(
                "<int:pk>/import/",
                self.admin_site.admin_view(import_results_view(self)),
                name="tournaments_tournament_import",
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
