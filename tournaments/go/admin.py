"""Go in the admin: tournaments' settings, registrations, rounds with their boards, DIRS ratings and games.

The round-by-round work happens on the director's pages (``go:tournament``); the admin shows the rows. A DIRS game
added here goes through ``services.dirs_game_record`` (rated or not, with the reason); games are not edited after.
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from . import services
from .models import Board, Bye, DirsGame, DirsRating, GoTournament, Registration, Round, StandingRow


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    fields = ["name", "player", "rating", "rating_source", "first_round", "withdrawn_after"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True


@admin.register(GoTournament)
class GoTournamentAdmin(admin.ModelAdmin):
    list_display = ["tournament", "tiebreak", "komi_normal", "rate_in_club", "club"]
    search_fields = ["tournament__name"]
    autocomplete_fields = ["tournament"]
    inlines = [RegistrationInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "rating", "rating_source", "first_round", "withdrawn_after"]
    list_filter = ["rating_source"]
    search_fields = ["name", "name_latin", "tournament__tournament__name"]
    raw_id_fields = ["player", "tournament"]


class BoardInline(admin.TabularInline):
    model = Board
    extra = 0
    fields = ["number", "white", "black", "handicap", "komi_kind", "komi", "result", "entered_by", "entered_at"]
    readonly_fields = fields
    can_delete = False


class ByeInline(admin.TabularInline):
    model = Bye
    extra = 0
    readonly_fields = ["registration"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
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
class StandingRowAdmin(admin.ModelAdmin):
    list_display = ["round", "place", "registration", "start_level", "level", "tiebreak"]
    readonly_fields = [f.name for f in StandingRow._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(DirsRating)
class DirsRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "rating", "acceleration", "declared_rank", "club", "games"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    list_filter = ["club"]
    raw_id_fields = ["player"]
    readonly_fields = ["rating", "acceleration", "initial_rating", "games"]
    fields = ["player", "declared_rank", "club", "rating", "acceleration", "initial_rating", "games"]

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        try:
            created = services.dirs_rating_set_initial(player=obj.player, rank=obj.declared_rank, club=obj.club)
        except services.GoError as error:
            messages.error(request, error.message)
            return
        obj.pk = created.pk


@admin.register(DirsGame)
class DirsGameAdmin(admin.ModelAdmin):
    """Organisers record club games here as on the page; a game is rated only on the handicap DIRS prescribes."""

    list_display = ["date", "white", "black", "handicap", "komi", "winner", "rated", "club"]
    list_filter = ["rated", "club"]
    search_fields = ["white__last_name", "black__last_name"]
    raw_id_fields = ["white", "black"]
    fields = ["date", "club", "white", "black", "handicap", "komi", "winner"]
    result_fields = [
        "rated",
        "reason_en",
        "explanation_en",
        "white_before",
        "white_after",
        "black_before",
        "black_after",
        "entered_by",
        "entered_at",
    ]

    def get_fields(self, request, obj=None):
        return self.fields + (self.result_fields if obj else [])

    def get_readonly_fields(self, request, obj=None):
        return (self.fields + self.result_fields) if obj else []

    def save_model(self, request, obj, form, change):
        if change:
            return
        try:
            game = services.dirs_game_record(
                date=obj.date,
                club=obj.club,
                white=obj.white,
                black=obj.black,
                handicap=obj.handicap,
                komi=obj.komi,
                winner=obj.winner,
                user=request.user,
            )
        except services.GoError as error:
            messages.error(request, error.message)
            return
        obj.pk = game.pk
        if not game.rated:
            messages.warning(request, _("Recorded, not rated: %(reason)s") % {"reason": game.reason_en})
