"""Preferans games and deals, rated per deal (rules/preferans.md).

A ``Game`` seats 2 to 4 federation players (bots are players flagged ``is_bot`` with a ``BotLevel``); each ``Deal``
moves the rating of everyone at the table at once, and each player's change in it is a ``DealResult`` row with the
numbers the engine needs to explain it again. ``PreferansRating`` holds each player's current state: rating, peak,
league. A ``GameServer`` posts games and deals over the JSON API with its own token, stored only as a hash.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from federation.latin import display
from federation.models import Player


class League(models.TextChoices):
    AMATEUR = "amateur", _("Amateur")
    PRO = "pro", _("Pro")


def hash_token(token: str) -> str:
    """Tokens are long random strings, so one SHA-256 is enough to keep them unreadable in the database."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class GameServer(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    token_hash = models.CharField(_("token hash"), max_length=64, unique=True, editable=False)
    token_prefix = models.CharField(_("token begins with"), max_length=8, editable=False)
    is_active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("game server")
        verbose_name_plural = _("game servers")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def set_new_token(self) -> str:
        """Give the server a new token and return it: it is shown once and only its hash is kept."""
        token = secrets.token_urlsafe(32)
        self.token_hash = hash_token(token)
        self.token_prefix = token[:8]
        return token


class Game(models.Model):
    server = models.ForeignKey(
        GameServer,
        verbose_name=_("game server"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="games",
        help_text=_("Empty for a game entered by hand."),
    )
    external_id = models.CharField(_("game id"), max_length=100, blank=True, help_text=_("The server's own id."))
    played_at = models.DateTimeField(_("date"), default=timezone.now)
    finished = models.BooleanField(_("finished"), default=False)
    # Who may change the game and rate its deals besides federation staff (``services.games.game_owned``): the
    # organiser who entered it by hand or imported it. Empty: a game server's game, one imported by staff from the
    # command line, or one entered before owners were kept (migration 0004): the federation's, staff's alone.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text=_("The organiser who entered the game: they and federation staff change it and enter its deals."),
    )
    players = models.ManyToManyField(Player, through="Seat", related_name="preferans_games", verbose_name=_("players"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("preferans game")
        verbose_name_plural = _("preferans games")
        ordering = ["-played_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["server", "external_id"], condition=Q(server__isnull=False), name="pref_game_unique_server_id"
            ),
            models.UniqueConstraint(
                fields=["external_id"],
                condition=Q(server__isnull=True) & ~Q(external_id=""),
                name="pref_game_unique_manual_id",
            ),
        ]

    def __str__(self) -> str:
        """The server's name in the reader's alphabet and the game's own id (the game's page and the admin)."""
        label = self.external_id or f"#{self.pk}"
        return f"{display(self.server.name, language=current_language())}: {label}" if self.server_id else label

    def get_absolute_url(self) -> str:
        return reverse("preferans:game_detail", args=[self.pk])


class Seat(models.Model):
    # Indexed by the unique (game, player) constraint.
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="seats", verbose_name=_("game"), db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="preferans_seats", verbose_name=_("player")
    )
    seat = models.PositiveSmallIntegerField(_("seat"), default=1)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["game", "seat", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="pref_seat_unique_player")]

    def __str__(self) -> str:
        return f"{self.game}: {self.player}"


class Deal(models.Model):
    # Indexed by the unique (game, number) constraint.
    game = models.ForeignKey(
        Game, on_delete=models.PROTECT, related_name="deals", verbose_name=_("game"), db_index=False
    )
    # The game's server, kept on the deal too so that the server's deal id is unique per server in the database
    # (that unique index also serves the lookups by server).
    server = models.ForeignKey(
        GameServer,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("game server"),
        db_index=False,
    )
    external_id = models.CharField(_("deal id"), max_length=100, blank=True)
    number = models.PositiveIntegerField(_("number in the game"))
    applied_at = models.DateTimeField(_("applied"), default=timezone.now)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="pref_deal_unique_number"),
            models.UniqueConstraint(
                fields=["server", "external_id"], condition=Q(server__isnull=False), name="pref_deal_unique_server_id"
            ),
            models.UniqueConstraint(
                fields=["game", "external_id"],
                condition=Q(server__isnull=True) & ~Q(external_id=""),
                name="pref_deal_unique_manual_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} · {self.number}"


class DealResult(models.Model):
    """One player's change in one deal: enough to explain it again with the engine (``selectors.deal_explanations``)."""

    # Both keys are indexed by the unique (deal, player) constraint and the (player, -deal) index: a million deals
    # write three indexes, not five.
    deal = models.ForeignKey(
        Deal, on_delete=models.CASCADE, related_name="results", verbose_name=_("deal"), db_index=False
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="preferans_deal_results",
        verbose_name=_("player"),
        db_index=False,
    )
    whists = models.IntegerField(_("whists"))
    rating_before = models.FloatField(_("before"))
    rating_after = models.FloatField(_("after"))
    delta = models.FloatField(_("change"))
    pro_before = models.BooleanField(_("Pro before the deal"), default=False)
    bot_max = models.FloatField(_("bot's maximum"), null=True, blank=True)

    class Meta:
        verbose_name = _("deal result")
        verbose_name_plural = _("deal results")
        ordering = ["deal", "id"]
        constraints = [models.UniqueConstraint(fields=["deal", "player"], name="pref_result_unique_player")]
        indexes = [models.Index(fields=["player", "-deal"], name="pref_result_player_idx")]

    def __str__(self) -> str:
        return f"{self.deal}: {self.player_id} {self.delta:+.2f}"


class PreferansRating(models.Model):
    player = models.OneToOneField(
        Player, on_delete=models.CASCADE, primary_key=True, related_name="preferans_rating", verbose_name=_("player")
    )
    rating = models.FloatField(_("rating"))
    max_rating = models.FloatField(_("highest rating"))
    league = models.CharField(_("league"), max_length=10, choices=League.choices, default=League.AMATEUR)
    deals = models.PositiveIntegerField(_("deals"), default=0)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("preferans rating")
        verbose_name_plural = _("preferans ratings")
        ordering = ["-rating"]
        indexes = [
            models.Index(fields=["league", "-rating"], name="pref_rating_league_idx"),
            models.Index(fields=["league", "-max_rating"], name="pref_rating_league_max_idx"),
            # The public API's list version reads MAX(updated_at) (federation.api.v1.lists).
            models.Index(fields=["updated_at"], name="pref_rating_updated_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating:.2f}"
