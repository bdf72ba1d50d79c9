"""DIRS in the admin: ratings and club games. Both go through the services, as on the pages.

A rating added here is set from the declared rank (``dirs_rating_set_initial``); a game added here is recorded and
rated (or not, with the reason) by ``dirs_game_record``; games are not edited after.
"""

from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from federation.admin_security import FederationModelAdmin

from . import services
from .models import DirsGame, DirsRating


@admin.register(DirsRating)
class DirsRatingAdmin(FederationModelAdmin):
    list_display = ["player", "rating", "acceleration", "declared_rank", "club", "games"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    list_filter = ["club"]
    raw_id_fields = ["player"]
    readonly_fields = ["rating", "acceleration", "initial_rating", "games"]
    fields = ["player", "declared_rank", "club", "rating", "acceleration", "initial_rating", "games"]

    def get_readonly_fields(self, request, obj=None):
        """The player of a rating is chosen once: the club games stay with the player they were played by, so a
        rating moved to someone else would carry a 6d to a player who never played for it. Decision: nobody
        changes it afterwards, staff included (a mistaken rating is corrected by a new one for the right player)."""
        fields = list(super().get_readonly_fields(request, obj))
        return ["player", *fields] if obj is not None else fields

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        try:
            created = services.dirs_rating_set_initial(player=obj.player, rank=obj.declared_rank, club=obj.club)
        except services.DirsError as error:
            messages.error(request, error.message)
            return
        obj.pk = created.pk


@admin.register(DirsGame)
class DirsGameAdmin(FederationModelAdmin):
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
        except services.DirsError as error:
            messages.error(request, error.message)
            return
        obj.pk = game.pk
        if not game.rated:
            messages.warning(request, _("Recorded, not rated: %(reason)s") % {"reason": game.reason_en})
