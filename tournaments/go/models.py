"""Go tournaments run round by round on the site (rules/go.md, part 1; DIRS tournaments, part 2).

A Go tournament is a ``tournaments.Tournament`` (discipline go: system, rounds, half-stone step, acceleration and
draws are its fields) with a one-to-one ``GoTournament`` for what only a round-by-round tournament needs. The
pairing and the levels come from the pure engine ``tournaments.pairing``; the rows here store its input
(registrations, absences, boards, results) and, per finished round, its output (``StandingRow``), so the pages read
rows instead of replaying the tournament.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from federation.latin import display
from federation.models import Club, Player
from ratings.dirs.models import Komi
from tournaments.models import Tournament

#: The tournament scale (rules/go.md, scales): 0 = 21 kyu, 2100 = 1 dan; 9 dan is 2899; nothing above 3000.
TOURNAMENT_RATING_MAX = 3000


class EgdClass(models.TextChoices):
    """The EGD tournament classes (`rules/go.md`, part 3: chosen by the director; the EGF sets the time limits)."""

    A = "A", _("A: well organised, adjusted time at least 75 minutes")
    B = "B", _("B: well organised, adjusted time at least 50 minutes")
    C = "C", _("C: casual or club tournament, adjusted time at least 30 minutes")
    D = "D", _("D: not rated by the EGF (shorter games)")


class GoTournament(models.Model):
    """The round-by-round settings of a Go tournament beyond those on ``Tournament``."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, primary_key=True, related_name="go"
    )
    tiebreak = models.BooleanField(_("tie-break"), default=True)
    komi_normal = models.DecimalField(_("normal komi"), max_digits=4, decimal_places=1, default=6.5)
    komi_none = models.DecimalField(_("komi of a 'no komi' game"), max_digits=4, decimal_places=1, default=0.5)
    komi_reverse = models.DecimalField(_("reverse komi"), max_digits=4, decimal_places=1, default=6.5)
    rate_in_club = models.BooleanField(
        _("rate games in the DIRS club rating"),
        default=True,
        help_text=_("DIRS tournaments only: each game is also rated in the club rating, without the step cap."),
    )
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    egd_class = models.CharField(
        _("EGD class"),
        max_length=1,
        choices=EgdClass.choices,
        blank=True,
        default="",
        help_text=_("Chosen by the director before the results table is sent to the European Go Database."),
    )
    time_minutes = models.PositiveSmallIntegerField(_("main time, minutes"), default=60)

    class Meta:
        verbose_name = _("Go tournament settings")
        verbose_name_plural = _("Go tournament settings")

    def __str__(self) -> str:
        return str(self.tournament)

    def get_absolute_url(self) -> str:
        return reverse("go:tournament", args=[self.pk])


class RatingSource(models.TextChoices):
    DIRS = "dirs", _("DIRS club rating")
    TYPED = "typed", _("typed")


class Registration(models.Model):
    """A player in a tournament: a member or a typed name, the rating the start level comes from.

    The surname and the given name are kept apart, in Cyrillic (or as typed) and in Latin letters, as EGD's table
    writes them (`rules/go.md`, part 3: two fields). ``name`` and ``name_latin`` are the full names the pages show
    and sort, surname first, written by the services from the parts (``names.join_name``) so the pages read one
    column.
    """

    tournament = models.ForeignKey(
        GoTournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    surname = models.CharField(_("surname"), max_length=100, default="")
    given_name = models.CharField(_("given name"), max_length=100, blank=True, default="")
    surname_latin = models.CharField(_("surname (Latin)"), max_length=100, blank=True, default="")
    given_name_latin = models.CharField(_("given name (Latin)"), max_length=100, blank=True, default="")
    name = models.CharField(_("name"), max_length=200)
    name_latin = models.CharField(_("name (Latin)"), max_length=200, blank=True)
    rating = models.IntegerField(_("rating"))
    rating_source = models.CharField(_("rating from"), max_length=10, choices=RatingSource.choices)
    country = models.CharField(_("country"), max_length=2, default="RU")
    club_name = models.CharField(_("club"), max_length=100, blank=True)
    egd_pin = models.CharField(_("EGD PIN"), max_length=20, blank=True)
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1, validators=[MinValueValidator(1)])
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True, help_text=_("Not paired from the next round on.")
    )
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=models.Q(player__isnull=False), name="go_reg_unique_player"
            ),
            models.UniqueConstraint(
                fields=["tournament", "name"], condition=models.Q(player__isnull=True), name="go_reg_unique_name"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        """The id the engine knows this registration by ("r" + pk, so ids in its explanations can be named)."""
        return f"r{self.pk}"

    def display_name(self, language: str) -> str:
        """The name in the reader's alphabet: the Latin name typed, else the passport transliteration."""
        return display(self.name, self.name_latin, language=language)

    def present_in(self, round_number: int, absent_rounds: set[int] | frozenset[int] = frozenset()) -> bool:
        if round_number < self.first_round or round_number in absent_rounds:
            return False
        return self.withdrawn_after is None or round_number <= self.withdrawn_after


class Absence(models.Model):
    """A round a registered player sits out (their choice or the director's).

    ``requested``: a bye by request, the player's own announced wish not to be paired in that round (as OpenGotha
    offers). Decision (`rules/go.md` is silent): it is a round not played, so it counts as an absence does: no
    points, the winning streak ends (the pairing package's Decision: nobody banks a streak by skipping a round),
    nothing in the tie-break; EGD's table writes ``0-``, and DIRS rates nothing. Only the label differs (the
    crosstable, the player's games, the director's record), so the record says why the player was not paired.
    Unlike the bye the pairing gives an odd field (a win worth 1 point), it is the player's choice.
    """

    registration = models.ForeignKey(
        Registration, verbose_name=_("registration"), on_delete=models.CASCADE, related_name="absences"
    )
    round_number = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    requested = models.BooleanField(_("bye by request"), default=False)

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        constraints = [
            models.UniqueConstraint(fields=["registration", "round_number"], name="go_absence_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.registration}: {self.round_number}"


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")


class Round(models.Model):
    """A round: its seed (colour draws), status, the rules the pairing had to break and the director's overrides."""

    tournament = models.ForeignKey(
        GoTournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(_("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    paired_at = models.DateTimeField(_("paired at"))
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    completed = models.BooleanField(_("all results in"), default=False)
    issues = models.JSONField(_("rules broken"), default=list, blank=True)
    overrides = models.JSONField(_("changes by hand"), default=list, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="go_round_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.number}"

    @property
    def is_published(self) -> bool:
        return self.status == RoundStatus.PUBLISHED


class BoardResult(models.TextChoices):
    """A board's result; the last three are OpenGotha's special results, for both players at once (see
    ``tournaments.pairing.GameResult.both``, ``dirs_mode`` and ``egd`` for what each counts as)."""

    NONE = "", _("not played yet")
    WHITE = "white", _("white wins")
    BLACK = "black", _("black wins")
    DRAW = "draw", _("draw")
    WHITE_FORFEIT = "white_forfeit", _("white wins by forfeit")
    BLACK_FORFEIT = "black_forfeit", _("black wins by forfeit")
    BOTH_LOSE = "both_lose", _("both lose")
    BOTH_WIN = "both_win", _("both win")
    DOUBLE_FORFEIT = "double_forfeit", _("both lose by forfeit")


#: The special results and what each is to the engine (``GameResult.both``): both win, or both lose.
BOTH = {BoardResult.BOTH_WIN: "win", BoardResult.BOTH_LOSE: "loss", BoardResult.DOUBLE_FORFEIT: "loss"}
#: Results of a game not played: EGD's table writes them as rounds without a game, DIRS rates none of them.
UNPLAYED = frozenset({BoardResult.WHITE_FORFEIT, BoardResult.BLACK_FORFEIT, BoardResult.DOUBLE_FORFEIT})


class Board(models.Model):
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"), validators=[MinValueValidator(1)])
    white = models.ForeignKey(Registration, verbose_name=_("white"), on_delete=models.PROTECT, related_name="+")
    black = models.ForeignKey(Registration, verbose_name=_("black"), on_delete=models.PROTECT, related_name="+")
    white_level = models.IntegerField(_("white's level"))
    black_level = models.IntegerField(_("black's level"))
    handicap = models.PositiveSmallIntegerField(_("handicap"), validators=[MaxValueValidator(9)])
    komi_kind = models.CharField(_("komi"), max_length=10, choices=Komi.choices)
    komi = models.DecimalField(_("komi points"), max_digits=4, decimal_places=1)
    result = models.CharField(_("result"), max_length=20, choices=BoardResult.choices, blank=True, default="")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("entered by"), on_delete=models.SET_NULL, null=True, blank=True
    )
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)

    class Meta:
        verbose_name = _("board")
        verbose_name_plural = _("boards")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="go_board_unique_number")]

    def __str__(self) -> str:
        return f"{self.round}: {self.number}"

    @property
    def winner_colour(self) -> str | None:
        """The colour that won (a forfeit included); None for a draw, a special result or no result yet."""
        return {"white": "white", "white_forfeit": "white", "black": "black", "black_forfeit": "black"}.get(self.result)

    @property
    def both(self) -> str | None:
        """A special result for both players: "win" or "loss" (``BOTH``); None otherwise."""
        return BOTH.get(self.result)

    @property
    def unplayed(self) -> bool:
        return self.result in UNPLAYED

    def outcome(self, colour: str) -> str:
        """What the result is for the player of ``colour``: win, loss, draw, or "" (no result yet)."""
        if self.result in BOTH:
            return BOTH[self.result]
        if self.result == BoardResult.DRAW:
            return "draw"
        winner = self.winner_colour
        if winner is None:
            return ""
        return "win" if winner == colour else "loss"


class Bye(models.Model):
    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="byes")
    registration = models.ForeignKey(Registration, verbose_name=_("player"), on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        constraints = [models.UniqueConstraint(fields=["round", "registration"], name="go_bye_unique")]

    def __str__(self) -> str:
        return f"{self.round}: {self.registration}"


class StandingRow(models.Model):
    """A player's line of the standings after a finished round, as the engine computed it (levels per round)."""

    round = models.ForeignKey(Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="standings")
    registration = models.ForeignKey(
        Registration, verbose_name=_("player"), on_delete=models.CASCADE, related_name="standings"
    )
    place = models.PositiveIntegerField(_("place"))
    shared = models.BooleanField(_("shared place"), default=False)
    start_level = models.IntegerField(_("start level"))
    level = models.IntegerField(_("level"))
    tiebreak = models.IntegerField(_("tie-break"), null=True, blank=True)
    streak = models.PositiveSmallIntegerField(_("winning streak"), default=0)
    explanation_en = models.TextField(blank=True)
    explanation_ru = models.TextField(blank=True)

    class Meta:
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        ordering = ["round", "place", "id"]
        constraints = [models.UniqueConstraint(fields=["round", "registration"], name="go_standing_unique")]

    def __str__(self) -> str:
        return f"{self.round}: {self.place}. {self.registration}"


class DirectorLog(models.Model):
    """The director's record: every change by hand, correction and decision on a tournament, who and when.

    Rows are never rewritten: re-pairing a round or deleting its pairing keeps them (a round's ``overrides`` list
    only the hand changes of its current pairing, which the public sees without the director's login).
    """

    tournament = models.ForeignKey(
        GoTournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="log"
    )
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("who"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    username = models.CharField(_("login"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=20)
    text_en = models.TextField(_("what (English)"))
    text_ru = models.TextField(_("what (Russian)"))

    class Meta:
        verbose_name = _("director's record")
        verbose_name_plural = _("director's record")
        ordering = ["tournament", "at", "id"]
        indexes = [models.Index(fields=["tournament", "round_number", "at"], name="go_log_round_idx")]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.username}: {self.text_en}"

    def text(self, language: str) -> str:
        return self.text_ru if language.startswith("ru") else self.text_en
