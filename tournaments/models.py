"""Tournaments of every discipline, their stages and their results.

One ``Tournament`` model carries what each discipline's rules need (card-game format and K, mahjong hanchans and
flags, Go rounds and options); fields of other disciplines stay empty. The status workflow is
draft -> submitted (by the organiser) -> approved (by federation staff); services in ``tournaments.services`` own
every transition and the checks that go with it.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from federation.i18n import current_language
from federation.latin import display
from federation.models import ENGLISH_NAME_HELP, Player, country_code_validator

#: Organisers may choose K up to this themselves; above it only federation staff (rules/gorbunov.md, "K").
ORGANISER_MAX_K = 2


class Discipline(models.TextChoices):
    CARD_GAMES = "ccg", _("Collectible card games")
    MAHJONG = "mahjong", _("Riichi mahjong")
    GO = "go", _("Go")
    PREFERANS = "preferans", _("Preferans")


class CardFormat(models.TextChoices):
    CONSTRUCTED = "constructed", _("Constructed")
    LIMITED = "limited", _("Limited")
    SEALED = "sealed", _("Sealed")
    DRAFT = "draft", _("Draft")
    COMBINED = "combined", _("Combined (limited and constructed)")
    ARENA = "arena", _("Arena")


class GoSystem(models.TextChoices):
    PROFS = "profs", _("PROFS (one stone, no acceleration)")
    FUS = "fus", _("FUS (half stone, acceleration, tie-break)")
    DIRS = "dirs", _("DIRS tournament")


class TournamentStatus(models.TextChoices):
    DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
    SUBMITTED = "submitted", _("Submitted")
    APPROVED = "approved", _("Approved")


class AnnouncementStatus(models.TextChoices):
    """An announcement's own workflow, beside the results' one: the organiser submits it, staff approve it, and the
    calendar shows it from then on (``tournaments.calendar.services``)."""

    NONE = "", _("Not announced")
    SUBMITTED = "submitted", _("Announcement submitted")
    APPROVED = "approved", _("Announced")


class Schedule(models.TextChoices):
    """Whether an announced tournament takes place as announced."""

    AS_ANNOUNCED = "", _("As announced")
    MOVED = "moved", _("Moved")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    discipline = models.CharField(_("discipline"), max_length=20, choices=Discipline.choices, db_index=True)
    name = models.CharField(_("name"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True, help_text=ENGLISH_NAME_HELP)
    start_date = models.DateField(_("start date"))
    end_date = models.DateField(_("end date"), db_index=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=2, default="RU", validators=[country_code_validator])
    status = models.CharField(
        _("status"), max_length=20, choices=TournamentStatus.choices, default=TournamentStatus.DRAFT, db_index=True
    )
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organiser"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_tournaments",
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    approved_at = models.DateTimeField(_("approved at"), null=True, blank=True)
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("approved by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    # Collectible card games (rules/gorbunov.md)
    card_format = models.CharField(_("format"), max_length=20, choices=CardFormat.choices, blank=True)
    k = models.PositiveSmallIntegerField(
        _("coefficient K"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(16)],
        help_text=_("Organisers may set 1 or 2; higher values are set by federation staff before the tournament."),
    )
    judges = models.ManyToManyField(Player, verbose_name=_("judges"), blank=True, related_name="judged_tournaments")
    # rules/gorbunov.md, "Optional rules": empty follows the rating list; staff may switch a rule on or off here.
    sqrt_rule = models.BooleanField(
        _("square-root rule"),
        null=True,
        blank=True,
        help_text=_("Empty: as the rating list says. Set by federation staff only."),
    )
    sealed_cap = models.BooleanField(
        _("sealed cap"),
        null=True,
        blank=True,
        help_text=_("Empty: as the rating list says (the cap applies to sealed tournaments only). Staff only."),
    )

    # Riichi mahjong (rules/mahjong.md)
    hanchans = models.PositiveSmallIntegerField(_("hanchans"), null=True, blank=True)
    participants = models.PositiveIntegerField(
        _("participants (N)"), null=True, blank=True, help_text=_("Everyone who played, substitutes included.")
    )
    accredited = models.BooleanField(_("accredited"), default=False)
    accredited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("accredited by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    accredited_at = models.DateTimeField(_("accredited at"), null=True, blank=True)
    accreditation_note = models.TextField(
        _("accreditation note"), blank=True, help_text=_("Why the accreditation was withdrawn, or any remark by staff.")
    )
    is_open = models.BooleanField(
        _("open"),
        default=False,
        help_text=_("At least half of the seats open to anyone, directly or by qualification."),
    )
    ema = models.BooleanField(_("EMA tournament"), default=False)
    # Openness and EMA status are judgements of federation staff (rules/mahjong.md), kept with who and when.
    open_ema_judged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("open/EMA judged by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    open_ema_judged_at = models.DateTimeField(_("open/EMA judged at"), null=True, blank=True)
    online = models.BooleanField(_("online"), default=False)
    online_platform = models.CharField(_("online platform"), max_length=50, blank=True)
    rank_restricted = models.BooleanField(_("rank-restricted"), default=False)
    rank_restriction_legitimate = models.BooleanField(
        _("rank restriction judged legitimate"),
        default=False,
        help_text=_("Set by federation staff: the online list takes rank-restricted tournaments only when judged so."),
    )

    # Go (rules/go.md)
    go_system = models.CharField(_("Go system"), max_length=10, choices=GoSystem.choices, blank=True)
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    half_stone = models.BooleanField(_("half-stone step"), default=False)
    acceleration = models.BooleanField(_("acceleration"), default=False)
    draws_allowed = models.BooleanField(_("draws allowed"), default=False)

    # The announcement (tournaments/calendar): the same record takes the results later.
    announcement = models.CharField(
        _("announcement"), max_length=20, choices=AnnouncementStatus.choices, default="", blank=True, db_index=True
    )
    announcement_approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("announcement approved by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    announcement_approved_at = models.DateTimeField(_("announcement approved at"), null=True, blank=True)
    schedule = models.CharField(_("schedule"), max_length=20, choices=Schedule.choices, default="", blank=True)
    schedule_note = models.CharField(
        _("what changed"), max_length=300, blank=True, help_text=_("Shown on the page and in the feeds when moved.")
    )
    #: Bumped at every change of date or schedule: the iCalendar SEQUENCE, so calendars replace the old event.
    calendar_sequence = models.PositiveIntegerField(_("calendar revision"), default=0, editable=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True, null=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    rules_note = models.TextField(
        _("format and rules"), blank=True, help_text=_("Rounds, time control, rules and anything players must know.")
    )
    description = models.TextField(_("description (Russian)"), blank=True)
    description_en = models.TextField(_("description (English)"), blank=True)
    contact = models.CharField(
        _("organiser's contact"), max_length=200, blank=True, help_text=_("Public: a phone, an e-mail or a page.")
    )
    max_players = models.PositiveIntegerField(
        _("field limit"), null=True, blank=True, validators=[MinValueValidator(2), MaxValueValidator(5000)]
    )
    waiting_list = models.BooleanField(
        _("waiting list"), default=True, help_text=_("At the limit, further players join a waiting list.")
    )
    registration_online = models.BooleanField(_("online registration"), default=True)
    registration_deadline = models.DateField(
        _("registration deadline"), null=True, blank=True, help_text=_("The last day to register (inclusive).")
    )
    registration_closed = models.BooleanField(_("registration closed"), default=False)

    # The id the federation's history gave the tournament (``manage.py import_history``): a second import finds it.
    external_id = models.CharField(_("federation id"), max_length=100, blank=True, editable=False)

    history = HistoricalRecords(excluded_fields=["judges"])

    class Meta:
        verbose_name = _("tournament")
        # Its own context: the bare "tournaments" is a counter's heading ("турниров"), this is the model's plural.
        verbose_name_plural = pgettext_lazy("model", "tournaments")
        ordering = ["-end_date", "name"]
        indexes = [models.Index(fields=["discipline", "-end_date"], name="tournament_disc_date_idx")]
        permissions = [
            ("approve_tournament", _("Can approve tournaments")),
            ("accredit_tournament", _("Can accredit tournaments")),
            ("set_high_coefficient", _("Can set a coefficient K above 2")),
            ("approve_announcement", _("Can approve announcements")),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(end_date__gte=models.F("start_date")), name="tournament_end_not_before_start"
            ),
            models.UniqueConstraint(
                fields=["discipline", "external_id"],
                condition=~models.Q(external_id=""),
                name="tournament_unique_external_id",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name(current_language())} ({self.end_date:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("tournaments:tournament_detail", args=[self.pk])

    def get_calendar_url(self) -> str:
        return reverse("calendar:detail", args=[self.pk])

    @property
    def is_cancelled(self) -> bool:
        return self.schedule == Schedule.CANCELLED

    def description_in(self, language: str) -> str:
        """The English text on the English pages, else the Russian in Latin letters (issue 28: no Cyrillic there)."""
        return display(self.description, self.description_en, language=language)

    def display_name(self, language: str) -> str:
        """The tournament's name in the reader's alphabet (``federation.latin.display``)."""
        return display(self.name, self.name_en, language=language)


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("Awaiting e-mail confirmation")
    REGISTERED = "registered", _("Registered")
    WAITING = "waiting", _("Waiting list")
    CANCELLED = "cancelled", pgettext_lazy("registration", "Cancelled")


#: Registrations that hold (or wait for) a seat: shown on the public page.
ACTIVE_REGISTRATION = (RegistrationStatus.REGISTERED, RegistrationStatus.WAITING)


class Registration(models.Model):
    """A player's online registration for an announced tournament (``tournaments.calendar.services``).

    A member of the registry names themself (``player``); a newcomer types a name for staff to match later. The
    e-mail address is for the confirmation and cancel links only: no page and no API answer shows it.
    """

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="registrations"
    )
    player = models.ForeignKey(
        Player,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_registrations",
    )
    name = models.CharField(_("name"), max_length=200, help_text=_("Surname and name, as the player typed them."))
    city = models.CharField(_("city"), max_length=100, blank=True)
    email = models.EmailField(_("e-mail"), max_length=254)
    status = models.CharField(
        _("status"), max_length=20, choices=RegistrationStatus.choices, default=RegistrationStatus.PENDING
    )
    confirmed_by_organiser = models.BooleanField(_("confirmed by the organiser"), default=False)
    created_at = models.DateTimeField(_("registered at"), auto_now_add=True)
    email_confirmed_at = models.DateTimeField(_("e-mail confirmed at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(player__isnull=False) & ~models.Q(status="cancelled"),
                name="registration_unique_player",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"], name="registration_status_idx")]

    def __str__(self) -> str:
        return f"{self.name} — {self.tournament.name}"


class Stage(models.Model):
    """A stage of a mahjong tournament with cut-offs: its hanchans and how many players it starts with."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="stages"
    )
    number = models.PositiveSmallIntegerField(_("stage"), validators=[MinValueValidator(1)])
    hanchans = models.PositiveSmallIntegerField(_("hanchans"), validators=[MinValueValidator(1)])
    players = models.PositiveIntegerField(_("players"), validators=[MinValueValidator(1)])

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="stage_unique_number")]

    def __str__(self) -> str:
        return f"{self.tournament.name}: {self.number}"


class Result(models.Model):
    """One participant's final place. A participant without a profile is kept by name (they count in N)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="results"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, null=True, blank=True, related_name="results"
    )
    participant_name = models.CharField(_("participant without a profile"), max_length=200, blank=True)
    place = models.PositiveIntegerField(_("place"), validators=[MinValueValidator(1)])
    hanchans_played = models.PositiveSmallIntegerField(_("hanchans played"), null=True, blank=True)
    substitute = models.BooleanField(_("substitute"), default=False)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("result")
        verbose_name_plural = _("results")
        ordering = ["tournament", "place", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=models.Q(player__isnull=False), name="result_unique_player"
            ),
            models.CheckConstraint(
                condition=models.Q(player__isnull=False) | ~models.Q(participant_name=""),
                name="result_player_or_name",
            ),
        ]
        indexes = [models.Index(fields=["player", "tournament"], name="result_player_idx")]

    def __str__(self) -> str:
        return f"{self.place}. {self.name}"

    @property
    def name(self) -> str:
        return self.player.full_name if self.player_id else self.participant_name
