"""DIRS in the admin: ratings and club games. Both go through the services, as on the pages.

A rating added here is set from the declared rank (``dirs_rating_set_initial``); a game added here is recorded and
rated (or not, with the reason) by ``dirs_game_record``; games are not edited after.
"""

from django import forms
from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from federation.admin_security import FederationModelAdmin

from . import services
from .models import DirsGame, DirsRating

#: Federation staff for DIRS: they hold every permission of the app, organisers never this one (``federation.roles``).
STAFF_PERMISSION = "dirs.delete_dirsrating"


@admin.register(DirsRating)
class DirsRatingAdmin(FederationModelAdmin):
    """Every organiser sees every rating (the leaderboard is public) and sets a newcomer's first one; afterwards
    only the organiser who set it (``entered_by``) and staff change it: another club's organiser does not move a
    player to their club or rewrite the rank they declared."""

    list_display = ["player", "rating", "acceleration", "declared_rank", "club", "games", "entered_by"]
    list_select_related = ["player", "club", "entered_by"]
    search_fields = ["player__last_name", "player__last_name_latin"]
    list_filter = ["club"]
    raw_id_fields = ["player"]
    readonly_fields = ["rating", "acceleration", "initial_rating", "games", "entered_by"]
    fields = ["player", "declared_rank", "club", "rating", "acceleration", "initial_rating", "games", "entered_by"]

    def has_change_permission(self, request, obj=None):
        allowed = super().has_change_permission(request, obj)
        if allowed and obj is not None and not request.user.has_perm(STAFF_PERMISSION):
            return obj.entered_by_id == request.user.pk
        return allowed

    def get_readonly_fields(self, request, obj=None):
        """The player of a rating is chosen once: the club games stay with the player they were played by, so a
        rating moved to someone else would carry a 6d to a player who never played for it. Decision: nobody
        changes it afterwards, staff included (a mistaken rating is corrected by a new one for the right player)."""
        fields = list(super().get_readonly_fields(request, obj))
        return ["player", *fields] if obj is not None else fields

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None:

            class AddForm(form):
                def clean_declared_rank(self):
                    """The rank the service will read, refused here with its reason rather than after the form."""
                    rank = self.cleaned_data.get("declared_rank", "")
                    try:
                        services.dirs_rank_parse(rank)
                    except services.DirsError as error:
                        raise forms.ValidationError(error.message) from None
                    return rank

            return AddForm
        return form

    def save_model(self, request, obj, form, change):
        if change:
            super().save_model(request, obj, form, change)
            return
        created = services.dirs_rating_set_initial(
            player=obj.player, rank=obj.declared_rank, club=obj.club, user=request.user
        )
        # The admin goes on with ``obj`` (its log, its message, its redirect): it becomes the row just created.
        for column in DirsRating._meta.concrete_fields:
            setattr(obj, column.attname, getattr(created, column.attname))
        obj._state.adding, obj._state.db = False, created._state.db


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
