"""DIRS, the Go club rating (rules/go.md, part 2): each player's current rating and the club games that moved it.

A ``DirsRating`` holds where a player stands now; the history is the ``DirsGame`` rows, rated one by one in the
order entered, each with the ratings before and after and why it counted or not. A game of a DIRS tournament that
is also rated in the club keeps a link to its board (``go.Board``, named by string so this app imports nothing of
the tournaments that feed it).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player

#: The DIRS scale: 000 = 21 kyu, 290 = 9 dan; "every rating from 290 up is 9 dan", typed ratings stop at 300.
DIRS_RATING_MAX = 300
#: A club game of any handicap is recorded (one of more than 9 stones is never rated, rules/go.md part 2); the
#: bound is only there to catch a typing slip (a 19x19 board holds far fewer handicap stones in practice).
MAX_RECORDED_STONES = 25


class Komi(models.TextChoices):
    """The three komi of a Go game, in a club game and on a tournament board alike."""

    NORMAL = "normal", _("normal komi")
    NONE = "none", _("no komi")
    REVERSE = "reverse", _("reverse komi")


class DirsRating(models.Model):
    """A player's current DIRS rating and acceleration; the history is the ``DirsGame`` rows."""

    player = models.OneToOneField(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="dirs")
    rating = models.PositiveIntegerField(_("DIRS rating"))
    acceleration = models.PositiveSmallIntegerField(_("acceleration"), default=0)
    initial_rating = models.PositiveIntegerField(_("initial rating"))
    declared_rank = models.CharField(_("declared rank"), max_length=10)
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    games = models.PositiveIntegerField(_("rated games"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    # Who set it from the declared rank: besides federation staff, the one organiser who may change it afterwards
    # (its club, the rank as declared). Empty: set by staff, the demo, an import, or before this was kept.
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("DIRS rating")
        verbose_name_plural = _("DIRS ratings")
        ordering = ["-rating", "player__last_name"]
        indexes = [
            models.Index(fields=["-rating"], name="dirs_rating_idx"),
            # The public API's list version reads MAX(updated_at) (federation.api.v1.lists).
            models.Index(fields=["updated_at"], name="dirs_rating_updated_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:03d}"


class DirsWinner(models.TextChoices):
    WHITE = "white", _("white")
    BLACK = "black", _("black")


class DirsGame(models.Model):
    """A club game, rated in the order entered; before/after for both players and why it counted or not."""

    date = models.DateField(_("date"))
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    white = models.ForeignKey(Player, verbose_name=_("white"), on_delete=models.PROTECT, related_name="+")
    black = models.ForeignKey(Player, verbose_name=_("black"), on_delete=models.PROTECT, related_name="+")
    # Any number of stones: a historical game above 9 is recorded, not rated (rules/go.md, part 2).
    handicap = models.PositiveSmallIntegerField(_("handicap"))
    komi = models.CharField(_("komi"), max_length=10, choices=Komi.choices)
    winner = models.CharField(_("winner"), max_length=5, choices=DirsWinner.choices)
    rated = models.BooleanField(_("rated"))
    reason_en = models.TextField(_("reason (English)"), blank=True)
    reason_ru = models.TextField(_("reason (Russian)"), blank=True)
    explanation_en = models.TextField(blank=True)
    explanation_ru = models.TextField(blank=True)
    white_before = models.PositiveIntegerField()
    white_after = models.PositiveIntegerField()
    black_before = models.PositiveIntegerField()
    black_after = models.PositiveIntegerField()
    white_acceleration_after = models.PositiveSmallIntegerField(default=0)
    black_acceleration_after = models.PositiveSmallIntegerField(default=0)
    # Kept so a tournament board's club game can be taken back when its result is corrected.
    white_acceleration_before = models.PositiveSmallIntegerField()
    black_acceleration_before = models.PositiveSmallIntegerField()
    board = models.OneToOneField(
        "go.Board",
        verbose_name=_("tournament board"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="dirs",
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("entered by"), on_delete=models.SET_NULL, null=True, blank=True
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("DIRS game")
        verbose_name_plural = _("DIRS games")
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["white", "id"], name="dirs_game_white_idx"),
            models.Index(fields=["black", "id"], name="dirs_game_black_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.date}: {self.white} - {self.black}"
