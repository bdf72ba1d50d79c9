"""Admin of the preferans rating: game servers (a token shown once), games with seats and deals, CSV import."""

from __future__ import annotations

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

from federation import bounds
from federation.admin_security import (
    FederationInline,
    FederationModelAdmin,
    PublishedRecordAdmin,
    StaffOnlyFieldsMixin,
)
from federation.models import Player
from federation.uploads import Checked, UploadFlow
from ratings.preferans.importing import deals_parse
from ratings.preferans.models import Deal, DealResult, Game, GameServer, PreferansRating, Seat
from ratings.preferans.services import (
    STAFF_PERMISSION,
    DealInput,
    PreferansError,
    deals_apply,
    deals_import_rows,
    game_owned,
    game_server_create,
    game_server_token_rotate,
    games_owned,
    ratings_ensure,
)

IMPORT_TEMPLATE = "admin/preferans/game/import.html"
DEAL_TEMPLATE = "admin/preferans/game/add_deal.html"
EXAMPLE_CSV = (
    "game;date;deal;player_id;whists\nclub-1;2026-03-07;1;12;-5\nclub-1;2026-03-07;1;15;3\nclub-1;2026-03-07;1;17;2\n"
)


@admin.register(GameServer)
class GameServerAdmin(FederationModelAdmin):
    list_display = ["name", "token_prefix", "is_active", "created_at"]
    readonly_fields = ["token_prefix", "created_at"]
    fields = ["name", "is_active", "token_prefix", "created_at"]
    actions = ["issue_new_token"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        server, token = game_server_create(name=obj.name, is_active=obj.is_active)
        for column in GameServer._meta.concrete_fields:
            setattr(obj, column.attname, getattr(server, column.attname))
        obj._state.adding, obj._state.db = False, server._state.db
        self._show_token(request, obj, token)

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


class SeatInline(FederationInline):
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


class DealInline(FederationInline):
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
                label=_("Whists of %(player)s") % {"player": seat.player.full_name},
                required=False,
                help_text=_("Empty: the player has left the game."),
            )


@admin.register(Game)
class GameAdmin(StaffOnlyFieldsMixin, FederationModelAdmin):
    """Organisers enter games by hand; which server a game came from, and whether it is finished, are staff's.

    A finished server game reopened, or moved to another server, would let the same deal be rated twice; the
    servers' names are not shown to organisers at all. A game ends for an organiser through its last deal
    ("The game ends with this deal").

    Each game has an owner (``Game.owner``): an organiser sees, changes and rates deals into their own games only,
    at every door (the list, the change page, the deal page, the import, the actions), as a tournament is its
    organiser's; staff see them all and may hand a game to another organiser.
    """

    staff_permission = STAFF_PERMISSION
    staff_only_fields = ("finished",)
    staff_hidden_fields = ("server", "owner")
    list_display = ["__str__", "played_at", "server", "owner", "finished", "deal_count"]
    list_filter = ["finished", "server"]
    list_select_related = ["server", "owner"]
    search_fields = ["external_id", "seats__player__last_name", "seats__player__last_name_latin"]
    date_hierarchy = "played_at"
    fields = ["server", "owner", "external_id", "played_at", "finished", "deal_link"]
    readonly_fields = ["deal_link"]
    inlines = [SeatInline, DealInline]

    def get_queryset(self, request):
        games = games_owned(user=request.user, games=super().get_queryset(request))
        return games.select_related("server").annotate(n_deals=Count("deals"))

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or game_owned(game=obj, user=request.user))

    def has_delete_permission(self, request, obj=None):
        allowed = super().has_delete_permission(request, obj)
        return allowed and (obj is None or game_owned(game=obj, user=request.user))

    def save_model(self, request, obj, form, change):
        if not change and obj.owner_id is None:
            obj.owner = request.user
        super().save_model(request, obj, form, change)

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
        game = self.get_object(request, str(pk))  # within the user's games (``get_queryset``): another's is a 404
        if game is None:
            raise Http404(_("No such game."))
        if not self.has_change_permission(request, game) or not request.user.has_perm("preferans.add_deal"):
            raise PermissionDenied
        if game.server_id is not None and not self.is_staff_for_fields(request):
            raise PermissionDenied  # a server's game gets its deals from the server (else one deal is rated twice)
        seats = list(game.seats.select_related("player").order_by("seat", "id"))
        form = DealForm(request.POST or None, seats=seats)
        if request.method == "POST" and form.is_valid():
            # A seat left empty is a player who has left the game (`RATE_CLI.md`): the deal is rated without them.
            whists = {
                seat.player_id: form.cleaned_data[f"whists_{seat.player_id}"]
                for seat in seats
                if form.cleaned_data[f"whists_{seat.player_id}"] is not None
            }
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
        return DealsUpload(model_admin=self, request=request).response()


class DealsUpload(UploadFlow):
    """The admin's import of deals (``importing.deals_parse``): the preview rates every deal and rolls back, so it
    shows the very changes the confirmation makes; it lists the first ``bounds.PREFERANS_PREVIEW_DEALS`` of them
    (every deal is checked and rated; a page of 24,000 rows helps nobody read a 2 MB file)."""

    template_name = IMPORT_TEMPLATE
    session_key = "preferans_import"
    title = gettext_lazy("Import deals")
    file_label = gettext_lazy("Deals file")
    file_help = gettext_lazy(".csv, UTF-8, comma or semicolon")

    def extra_context(self) -> dict:
        return {"example": EXAMPLE_CSV}

    def done_url(self) -> str:
        return reverse("admin:preferans_game_changelist")

    def read(self, content: bytes, name: str, *, save: bool) -> Checked:
        parsed = deals_parse(content)
        row = _("Row")
        errors = [f"{row} {e.row}, {e.field}: {e.message}" for e in parsed.errors]
        if errors:
            return Checked(context={"errors": errors})
        try:
            outcome = deals_import_rows(deals=parsed.deals, dry_run=not save, user=self.request.user)
        except PreferansError as error:
            return Checked(context={"errors": [f"{error.field}: {error.message}"]})
        shown = list(zip(parsed.deals, outcome.applied, strict=True))[: bounds.PREFERANS_PREVIEW_DEALS]
        names = dict(
            Player.objects.filter(pk__in={pid for d, _item in shown for pid in d.whists}).values_list("pk", "last_name")
        )
        preview = [
            {
                "game": deal.game,
                "deal": deal.deal,
                "rows": ", ".join(str(r) for r in deal.rows),
                "applied": item.applied,
                "changes": [
                    (names.get(r.player_id, r.player_id), r.whists, r.delta, r.rating_after) for r in item.results
                ],
            }
            for deal, item in shown
        ]
        context = {
            "preview": preview,
            "games_created": outcome.games_created,
            "deal_count": len(parsed.deals),
            "not_shown": len(parsed.deals) - len(preview),
        }
        checked = Checked(context=context, clean=True)
        if save:
            applied = sum(1 for item in outcome.applied if item.applied)
            checked.saved = ngettext(
                "%(count)d deal imported and rated.", "%(count)d deals imported and rated.", applied
            ) % {"count": applied}
        return checked


@admin.register(PreferansRating)
class PreferansRatingAdmin(PublishedRecordAdmin):
    list_display = ["player", "rating", "max_rating", "league", "deals", "updated_at"]
    list_filter = ["league", "player__is_bot"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    list_select_related = ["player"]
    readonly_fields = ["player", "rating", "max_rating", "league", "deals", "updated_at"]


@admin.register(DealResult)
class DealResultAdmin(PublishedRecordAdmin):
    list_display = ["deal", "player", "whists", "rating_before", "delta", "rating_after"]
    list_select_related = ["deal__game", "player"]
    raw_id_fields = ["deal", "player"]
    search_fields = ["player__last_name", "deal__game__external_id"]
