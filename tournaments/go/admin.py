"""Go tournaments in the admin: settings, registrations, rounds with their boards, standings (DIRS: ratings.dirs).

The round-by-round work happens on the director's pages (``go:tournament``); the admin shows the rows.
"""

from django.contrib import admin

from federation.admin_security import FederationInline, FederationModelAdmin

from .models import Board, Bye, GoTournament, Registration, Round, StandingRow


class RegistrationInline(FederationInline):
    model = Registration
    extra = 0
    fields = ["name", "player", "rating", "rating_source", "first_round", "withdrawn_after"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(GoTournament)
class GoTournamentAdmin(FederationModelAdmin):
    list_display = ["tournament", "tiebreak", "komi_normal", "rate_in_club", "club"]
    search_fields = ["tournament__name"]
    autocomplete_fields = ["tournament"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(FederationModelAdmin):
    list_display = ["name", "tournament", "rating", "rating_source", "first_round", "withdrawn_after"]
    list_filter = ["rating_source"]
    search_fields = ["name", "name_latin", "tournament__tournament__name"]
    raw_id_fields = ["player", "tournament"]


class BoardInline(FederationInline):
    model = Board
    extra = 0
    fields = ["number", "white", "black", "handicap", "komi_kind", "komi", "result", "entered_by", "entered_at"]
    readonly_fields = fields
    can_delete = False


class ByeInline(FederationInline):
    model = Bye
    extra = 0
    readonly_fields = ["registration"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(FederationModelAdmin):
    list_display = ["tournament", "number", "status", "completed", "paired_at", "published_at"]
    list_filter = ["status", "completed"]
    readonly_fields = [
        "tournament",
        "number",
        "seed",
        "status",
        "paired_at",
        "published_at",
        "completed",
        "issues",
        "overrides",
    ]
    inlines = [BoardInline, ByeInline]

    def has_add_permission(self, request):
        return False


@admin.register(StandingRow)
class StandingRowAdmin(FederationModelAdmin):
    list_display = ["round", "place", "registration", "start_level", "level", "tiebreak"]
    readonly_fields = [f.name for f in StandingRow._meta.fields]

    def has_add_permission(self, request):
        return False
