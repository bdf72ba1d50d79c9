"""Admin of the preferans rating: game servers (a token shown once), games with seats and deals, CSV import."""

from __future__ import annotations

import base64
import hashlib
import hmac

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count
from django.forms.models import BaseInlineFormSet
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from federation.models import Player
from ratings.preferans.importing import ImportFileError, deals_parse
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.services import (
    DealInput,
    PreferansError,
    deals_apply,
    deals_import_rows,
    game_server_token_rotate,
    ratings_ensure,
)

IMPORT_TEMPLATE = "admin/preferans/game/import.html"
DEAL_TEMPLATE = "admin/preferans/game/add_deal.html"
IMPORT_MAX_BYTES = 2 * 1024 * 1024
EXAMPLE_CSV = (
    "game;date;deal;player_id;whists\nclub-1;2026-03-07;1;12;-5\nclub-1;2026-03-07;1;15;3\nclub-1;2026-03-07;1;17;2\n"
)


@admin.register(GameServer)
class GameServerAdmin(admin.ModelAdmin):
    list_display = ["name", "token_prefix", "is_active", "created_at"]
    readonly_fields = ["token_prefix", "created_at"]
    fields = ["name", "is_active", "token_prefix", "created_at"]
    actions = ["issue_new_token"]

    def save_model(self, request, obj, form, change):
        if not change:
            token = obj.set_new_token()
            super().save_model(request, obj, form, change)
            self._show_token(request, obj, token)
        else:
            super().save_model(request, obj, form, change)

    def _show_token(self, request, server, token):
        self.message_user(
            request,
            format_html(
                _("The token of {server} is <code>{token}</code>. Copy it now: it is shown only once."),
                server=server.name,
                token=token,
            ),
            messages.WARNING,
        )

    @admin.action(description=gettext_lazy("Issue a new token (the old one stops working)"))
    def issue_new_token(self, request, queryset):
        for server in queryset:
            self._show_token(request, server, game_server_token_rotate(server=server))


class SeatFormSet(BaseInlineFormSet):
    def clean(self):
        super().clean()
        players = [
            form.cleaned_data.get("player")
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        ]
        if not 2 <= len(players) <= 4:
            raise forms.ValidationError(
                _("A table has 2 to 4 players, this one has %(count)d.") % {"count": len(players)}
            )


class SeatInline(admin.TabularInline):
    model = Seat
    formset = SeatFormSet
    extra = 3
    max_num = 4
    autocomplete_fields = ["player"]

    def _locked(self, obj):
        return obj is not None and obj.deals.exists()

    def has_add_permission(self, request, obj=None):
        return not self._locked(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request, obj=None):
        return not self._locked(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return not self._locked(obj) and super().has_delete_permission(request, obj)


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ["number", "external_id", "applied_at", "changes"]
    readonly_fields = fields
    can_delete = False
    ordering = ["number"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("results__player")

    @admin.display(description=gettext_lazy("whists and changes"))
    def changes(self, obj):
        return "; ".join(
            f"{row.player.full_name}: {row.whists:+d} → {row.delta:+.4f} ({row.rating_after:.2f})"
            for row in obj.results.all()
        )


class DealForm(forms.Form):
    external_id = forms.CharField(label=gettext_lazy("Deal id"), max_length=100, required=False)
    finish = forms.BooleanField(label=gettext_lazy("The game ends with this deal"), required=False)

    def __init__(self, *args, seats, **kwargs):
        super().__init__(*args, **kwargs)
        self.seats = seats
        for seat in seats:
            self.fields[f"whists_{seat.player_id}"] = forms.IntegerField(
                label=_("Whists of %(player)s") % {"player": seat.player.full_name}
            )


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "played_at", "server", "finished", "deal_count"]
    list_filter = ["finished", "server"]
    search_fields = ["external_id", "seats__player__last_name", "seats__player__last_name_latin"]
    date_hierarchy = "played_at"
    fields = ["server", "external_id", "played_at", "finished", "deal_link"]
    readonly_fields = ["deal_link"]
    inlines = [SeatInline, DealInline]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("server").annotate(n_deals=Count("deals"))

    @admin.display(description=gettext_lazy("deals"), ordering="n_deals")
    def deal_count(self, obj):
        return obj.n_deals

    @admin.display(description=gettext_lazy("new deal"))
    def deal_link(self, obj):
        if obj is None or obj.pk is None:
            return _("Save the game with its table first.")
        if obj.finished:
            return _("The game is finished.")
        return format_html(
            '<a class="button" href="{}">{}</a>', reverse("admin:preferans_game_deal", args=[obj.pk]), _("Enter a deal")
        )

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        ratings_ensure(player_ids=list(form.instance.seats.values_list("player_id", flat=True)))

    def get_urls(self):
        own = [
            path("import/", self.admin_site.admin_view(self.import_view), name="preferans_game_import"),
            path("<int:pk>/deal/", self.admin_site.admin_view(self.deal_view), name="preferans_game_deal"),
        ]
        return own + super().get_urls()

    def deal_view(self, request, pk):
        game = self.get_object(request, str(pk))
        if game is None:
            raise Http404(_("No such game."))
        if not self.has_change_permission(request, game) or not request.user.has_perm("preferans.add_deal"):
            raise PermissionDenied
        seats = list(game.seats.select_related("player").order_by("seat", "id"))
        form = DealForm(request.POST or None, seats=seats)
        if request.method == "POST" and form.is_valid():
            whists = {seat.player_id: form.cleaned_data[f"whists_{seat.player_id}"] for seat in seats}
            try:
                with transaction.atomic():  # a refused deal leaves the request's connection usable
                    deals_apply(
                        deals=[
                            DealInput(
                                game=game,
                                whists=whists,
                                external_id=form.cleaned_data["external_id"],
                                finish=form.cleaned_data["finish"],
                                where="deal",
                            )
                        ]
                    )
            except PreferansError as error:
                form.add_error(None, f"{error.field}: {error.message}")
            else:
                self.message_user(request, _("The deal was rated."), messages.SUCCESS)
                return redirect("admin:preferans_game_change", game.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Enter a deal"),
            "opts": self.model._meta,
            "original": game,
            "game": game,
            "form": form,
        }
        return TemplateResponse(request, DEAL_TEMPLATE, context)

    def import_view(self, request):
        if not request.user.has_perms(["preferans.add_game", "preferans.add_deal"]):
            raise PermissionDenied
        if request.GET.get("example"):
            response = HttpResponse(EXAMPLE_CSV.encode("utf-8-sig"), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = 'attachment; filename="preferans-deals-example.csv"'
            return response
        context = {
            **self.admin_site.each_context(request),
            "title": _("Import deals"),
            "opts": self.model._meta,
            "form": ImportForm(),
            "example": EXAMPLE_CSV,
        }
        if request.method != "POST":
            return TemplateResponse(request, IMPORT_TEMPLATE, context)
        if "confirm" in request.POST:
            stored = request.session.get("preferans_import")
            if not stored or not hmac.compare_digest(stored.get("sha256", ""), request.POST.get("sha256", "")):
                self.message_user(
                    request, _("The file on the page is not the one last uploaded; upload it again."), messages.ERROR
                )
                return redirect("admin:preferans_game_import")
            content = base64.b64decode(stored["content"])
            outcome = _preview(content, dry_run=False, context=context)
            if outcome is None:
                return TemplateResponse(request, IMPORT_TEMPLATE, context)
            del request.session["preferans_import"]
            applied = sum(1 for item in outcome.applied if item.applied)
            self.message_user(
                request,
                ngettext("%(count)d deal imported and rated.", "%(count)d deals imported and rated.", applied)
                % {"count": applied},
                messages.SUCCESS,
            )
            return redirect("admin:preferans_game_changelist")
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if not form.is_valid():
            return TemplateResponse(request, IMPORT_TEMPLATE, context)
        content = form.cleaned_data["file"].read()
        outcome = _preview(content, dry_run=True, context=context)
        if outcome is not None:
            sha256 = hashlib.sha256(content).hexdigest()
            request.session["preferans_import"] = {"sha256": sha256, "content": base64.b64encode(content).decode()}
            context["sha256"] = sha256
        return TemplateResponse(request, IMPORT_TEMPLATE, context)


class ImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Deals file"), help_text=gettext_lazy(".csv, UTF-8, comma or semicolon"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload


def _preview(content: bytes, *, dry_run: bool, context: dict):
    """Parse and rate (rolled back when ``dry_run``); put the rows or the errors into ``context``."""
    try:
        parsed = deals_parse(content)
    except ImportFileError as error:
        context["file_error"] = error.message
        return None
    context["errors"] = [f"{_('Row')} {e.row}, {e.field}: {e.message}" for e in parsed.errors]
    if parsed.errors:
        return None
    try:
        outcome = deals_import_rows(deals=parsed.deals, dry_run=dry_run)
    except PreferansError as error:
        context["errors"] = [f"{error.field}: {error.message}"]
        return None
    names = dict(
        Player.objects.filter(pk__in={pid for d in parsed.deals for pid in d.whists}).values_list("pk", "last_name")
    )
    context["preview"] = [
        {
            "game": deal.game,
            "deal": deal.deal,
            "rows": ", ".join(str(r) for r in deal.rows),
            "applied": item.applied,
            "changes": [(names.get(r.player_id, r.player_id), r.whists, r.delta, r.rating_after) for r in item.results],
        }
        for deal, item in zip(parsed.deals, outcome.applied, strict=True)
    ]
    context["games_created"] = outcome.games_created
    return outcome


@admin.register(PreferansRating)
class PreferansRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "rating", "max_rating", "league", "deals", "updated_at"]
    list_filter = ["league", "player__is_bot"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    list_select_related = ["player"]
    readonly_fields = ["player", "rating", "max_rating", "league", "deals", "updated_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(DealResult)
class DealResultAdmin(admin.ModelAdmin):
    list_display = ["deal", "player", "whists", "rating_before", "delta", "rating_after"]
    list_select_related = ["deal__game", "player"]
    raw_id_fields = ["deal", "player"]
    search_fields = ["player__last_name", "deal__game__external_id"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
