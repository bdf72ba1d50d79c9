from importlib import import_module

from axes.admin import AccessAttemptAdmin
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django import forms
from django.apps import apps
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import models
from django.db.models import Count, Q
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.module_loading import module_has_submodule
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from federation.admin_security import AuditedHistoryAdmin, FederationModelAdmin
from federation.logo import LOGO_MAX_BYTES, logo_from_upload
from federation.models import BotLevel, CityName, Club, Player, SiteIdentity
from federation.selectors import player_label, player_likely_duplicates, player_search
from federation.services import player_merge


def installed_admin_hooks(name: str) -> list:
    """``name`` from the ``admin`` module of every installed app that defines it, in ``INSTALLED_APPS`` order.

    How a rating system's home adds its staff actions and pages to a shared model's admin (``RatingList``,
    ``Tournament``) without the shared admin importing the homes: each home's ``admin.py`` defines, e.g.,
    ``RATING_LIST_ACTIONS``, ``rating_list_urls(model_admin)`` or ``TOURNAMENT_ACTIONS``.
    """
    found = []
    for config in apps.get_app_configs():
        if module_has_submodule(config.module, "admin"):
            hook = getattr(import_module(f"{config.name}.admin"), name, None)
            if hook is not None:
                found.append(hook)
    return found


@admin.register(Club)
class ClubAdmin(AuditedHistoryAdmin):
    """Clubs are federation staff's to edit (``federation.roles``: organisers only view them); the meeting place,
    contact and website are shown on the club's public page, which is fresh at once after a save
    (``federation.versions``: the registry scope). The English name is what the English pages show (blank: the
    Russian one transliterated, ``federation.latin.display``)."""

    list_display = ["name", "name_en", "city", "country", "website"]
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    list_filter = ["country"]
    search_fields = ["name", "name_en", "city"]
    fieldsets = [
        (None, {"fields": [("name", "name_en"), ("city", "country")]}),
        (
            _("On the club's page"),
            {"fields": [("meeting_place", "meeting_place_en"), ("contact", "contact_en"), "website"]},
        ),
    ]


@admin.register(CityName)
class CityNameAdmin(AuditedHistoryAdmin):
    """The English names of cities (issue 28): typed once, shown on the English pages for every player, club and
    tournament written in that city; a city without one is shown transliterated."""

    list_display = ["name", "name_en"]
    search_fields = ["name", "name_en"]


@admin.register(BotLevel)
class BotLevelAdmin(AuditedHistoryAdmin):
    list_display = ["name", "max_rating"]


class PlayerAdminForm(forms.ModelForm):
    """A new player is checked against the registry first: likely duplicates (the same surname in any spelling and
    a matching first name, ``player_likely_duplicates``) are listed, and the profile is created only once the person
    ticks that it is someone else."""

    not_a_duplicate = forms.BooleanField(
        label=_("This is a different person from the players listed above"), required=False
    )

    def clean(self):
        cleaned = super().clean()
        self.duplicates = []
        if self.instance.pk is None and cleaned.get("last_name"):
            self.duplicates = player_likely_duplicates(
                last_name=cleaned["last_name"], first_name=cleaned.get("first_name", "")
            )
            if self.duplicates and not cleaned.get("not_a_duplicate"):
                names = "; ".join(player_label(p) for p in self.duplicates)
                self.add_error(
                    "not_a_duplicate",
                    _(
                        "Possible duplicates: %(players)s. Use the existing profile, or tick the box if this is "
                        "someone else."
                    )
                    % {"players": names},
                )
        return cleaned


@admin.register(Player)
class PlayerAdmin(AuditedHistoryAdmin):
    form = PlayerAdminForm
    list_display = ["id", "last_name", "first_name", "last_name_latin", "first_name_latin", "city", "club", "country"]
    list_display_links = ["id", "last_name"]
    list_filter = ["country", "is_bot"]
    list_select_related = ["club"]
    search_fields = [
        "last_name",
        "first_name",
        "last_name_latin",
        "first_name_latin",
        "=ema_id",
        "=egd_pin",
        "=external_id",
        "city",
    ]
    search_help_text = _("Surname or first name in either alphabet, city, EMA id or EGD PIN.")
    autocomplete_fields = ["club", "user"]
    list_per_page = 50
    show_full_result_count = False
    actions = ["merge_players"]
    fieldsets = [
        (None, {"fields": [("last_name", "first_name"), ("last_name_latin", "first_name_latin")]}),
        (_("Where"), {"fields": [("city", "country"), "club"]}),
        (_("Identifiers"), {"fields": [("ema_id", "egd_pin"), "user"]}),
        (_("Bots"), {"fields": [("is_bot", "bot_level")], "classes": ["collapse"]}),
    ]

    def get_fieldsets(self, request, obj=None):
        if obj is None:
            return [*self.fieldsets, (_("Duplicates"), {"fields": ["not_a_duplicate"]})]
        return self.fieldsets

    def get_search_results(self, request, queryset, search_term):
        """The public search's matching (either alphabet, ё/е, transliteration, any case on SQLite too), or an id,
        EMA id or EGD PIN given exactly."""
        term = search_term.strip()
        if not term:
            return queryset, False
        exact = Q(ema_id=term) | Q(egd_pin=term)
        if term.isdigit():
            exact |= Q(pk=int(term))
        found = player_search(queryset=queryset, search=term)
        return queryset.filter(Q(pk__in=found.values("pk")) | exact | Q(city__iexact=term)), False

    @admin.action(description=_("Merge the selected duplicate players"), permissions=["delete"])
    def merge_players(self, request, queryset):
        players = list(queryset.annotate(result_count=Count("results")).select_related("club"))
        if len(players) < 2:
            self.message_user(request, _("Choose at least two players to merge."), messages.WARNING)
            return None
        if "keep" in request.POST:
            keep = next((p for p in players if str(p.pk) == request.POST["keep"]), None)
            if keep is None:
                self.message_user(request, _("Choose the profile to keep."), messages.ERROR)
                return None
            try:
                player_merge(keep=keep, duplicates=players, user=request.user)
            except (ValidationError, PermissionDenied) as error:
                self.message_user(request, " ".join(getattr(error, "messages", [str(error)])), messages.ERROR)
                return None
            count = len(players) - 1
            self.message_user(
                request,
                ngettext(
                    "%(count)d duplicate merged into %(player)s; all results kept.",
                    "%(count)d duplicates merged into %(player)s; all results kept.",
                    count,
                )
                % {"count": count, "player": keep},
                messages.SUCCESS,
            )
            return redirect("admin:federation_player_change", keep.pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Merge players"),
            "players": players,
            "queryset": queryset,
            "opts": self.model._meta,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/federation/player/merge.html", context)


class SiteIdentityForm(forms.ModelForm):
    logo_file = forms.FileField(
        label=_("logo"),
        required=False,
        help_text=_("PNG, JPEG, WebP or SVG, at most 200 KB; shown in the header of every page."),
    )
    remove_logo = forms.BooleanField(label=_("remove the logo"), required=False)

    class Meta:
        model = SiteIdentity
        fields = [
            "name",
            "name_en",
            "short_name",
            "description",
            "description_en",
            "primary_colour",
            "accent_colour",
            "about",
            "about_en",
            "contact",
            "contact_en",
            "email",
        ]

    def clean_logo_file(self):
        upload = self.cleaned_data.get("logo_file")
        if upload is None:
            return None
        try:
            return logo_from_upload(upload.name, upload.read(LOGO_MAX_BYTES + 1))
        except ValueError as error:
            raise ValidationError(str(error)) from None

    def save(self, commit=True):
        identity = super().save(commit=False)
        if self.cleaned_data.get("remove_logo"):
            identity.logo, identity.logo_type = b"", ""
        elif self.cleaned_data.get("logo_file"):
            identity.logo_type, identity.logo = self.cleaned_data["logo_file"]
        if commit:
            identity.save()
        return identity


@admin.register(SiteIdentity)
class SiteIdentityAdmin(FederationModelAdmin):
    """One row (the federation's identity); staff with the permission edit it, nobody deletes it."""

    form = SiteIdentityForm
    fieldsets = [
        (None, {"fields": ["name", "name_en", "short_name", "description", "description_en"]}),
        (_("Look"), {"fields": ["primary_colour", "accent_colour", "logo_file", "remove_logo"]}),
        (_("Pages"), {"fields": ["about", "about_en", "contact", "contact_en", "email"]}),
    ]

    def has_add_permission(self, request):
        return super().has_add_permission(request) and not SiteIdentity.objects.exists()

    def has_delete_permission(self, request, obj=None):
        return False


# The admin's header and title show the federation's own name (templates/admin/base_site.html, SiteIdentity);
# these are Django's fallbacks, e.g. for pages rendered without the site's context processors.
class LoginAttemptAdmin(AccessAttemptAdmin):
    """django-axes' failed logins (staff unlock a name by deleting its attempts).

    Its "clean up expired attempts" action reads a request attribute that only a login request carries, and
    answered 500 in the admin (django-axes 8.3.1); the attribute is set here first.
    """

    @admin.action(description=_("Clean up expired attempts"))
    def cleanup_expired_attempts(self, request, queryset):
        AxesProxyHandler.update_request(request)
        return super().cleanup_expired_attempts(request, queryset)


admin.site.unregister(AccessAttempt)
admin.site.register(AccessAttempt, LoginAttemptAdmin)

admin.site.site_header = _("Federation ratings: administration")
admin.site.site_title = _("Federation ratings")
admin.site.index_title = _("Administration")
