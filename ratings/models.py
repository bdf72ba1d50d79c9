"""Rating lists as data, their snapshots, and the per-event changes that explain them (DESIGN.md).

A ``RatingList`` names its engine and carries that engine's parameters, validated by the engine's parameter
spec (``ratings.params``), so a federation can keep "Gorbunov, constructed" beside "Gorbunov, limited" without
code. Every computed or published list is a ``RatingSnapshot(rating_list, as_of)``. Its newest snapshot holds one
``RatingEntry`` per listed player; an older one only the players whose entry changed on its date, and a row with
``listed`` unticked for each player who left the list then (issue 29: a decade of history in a small database).
The list as of any date is each player's newest entry up to it (``ratings.gorbunov.selectors``,
``ratings.mahjong.storage``); history pages and charts are queries over those rows. ``RatingChange`` rows carry,
per event (tournament, game or deal), the rating before and after and the breakdown with its explanation in both
languages.
"""

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from federation.latin import display
from federation.models import ENGLISH_NAME_HELP, Player
from tournaments.models import Tournament


class Engine(models.TextChoices):
    GORBUNOV = "gorbunov", _("Gorbunov (card games)")
    MAHJONG_RR = "mahjong-rr", _("Mahjong RR")
    MAHJONG_CRR = "mahjong-crr", _("Mahjong CRR")
    MAHJONG_ONLINE = "mahjong-online", _("Mahjong online")
    PREFERANS = "preferans", _("Preferans")
    DIRS = "dirs", _("DIRS (Go club rating)")


class RatingList(models.Model):
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    name = models.CharField(_("name (Russian)"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True, help_text=ENGLISH_NAME_HELP)
    engine = models.CharField(_("engine"), max_length=20, choices=Engine.choices)
    params = models.JSONField(
        _("parameters"), default=dict, blank=True, help_text=_("The engine's parameters; unknown keys are refused.")
    )
    is_active = models.BooleanField(_("active"), default=True)
    ordering = models.PositiveSmallIntegerField(_("order"), default=0)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        ordering = ["ordering", "slug"]
        permissions = [
            ("publish_ratinglist", _("Can publish and rebuild rating lists")),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        """The list's public page, as the home of its engine names it (``rating_list_pages`` on its AppConfig)."""
        for config in apps.get_app_configs():
            url_name = getattr(config, "rating_list_pages", {}).get(self.engine)
            if url_name is None:
                continue
            try:
                return reverse(url_name, kwargs={"slug": self.slug})
            except NoReverseMatch:  # one page for every list of the engine
                return reverse(url_name)
        return reverse("federation:home")

    def clean(self) -> None:
        from ratings.params import check_change, validate_params

        try:
            self.params = validate_params(self.engine, self.params)
            check_change(self, self.params)
        except ValueError as error:
            raise ValidationError({"params": str(error)}) from None

    def display_name(self, language: str) -> str:
        """The list's name in the reader's alphabet: the English name, else the Russian one transliterated."""
        return display(self.name, self.name_en, language=language)


class RatingSnapshot(models.Model):
    """One list as of one date (a Gorbunov week's Monday, a mahjong rating date)."""

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="snapshots"
    )
    as_of = models.DateField(_("as of"))
    computed_at = models.DateTimeField(_("computed at"), auto_now_add=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)

    class Meta:
        verbose_name = _("rating snapshot")
        verbose_name_plural = _("rating snapshots")
        ordering = ["rating_list", "-as_of"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "as_of"], name="snapshot_unique_list_date"),
        ]

    def __str__(self) -> str:
        return f"{self.rating_list} {self.as_of:%Y-%m-%d}"

    def get_absolute_url(self) -> str:
        return self.rating_list.get_absolute_url() + f"?date={self.as_of:%Y-%m-%d}"


class RatingEntry(models.Model):
    snapshot = models.ForeignKey(
        RatingSnapshot, verbose_name=_("snapshot"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+")
    rank = models.PositiveIntegerField(_("rank"))
    rating = models.DecimalField(_("rating"), max_digits=12, decimal_places=4)
    delta = models.DecimalField(_("change"), max_digits=12, decimal_places=4, null=True, blank=True)
    events = models.PositiveIntegerField(_("events counted"), default=0)
    details = models.JSONField(_("details"), default=dict, blank=True)
    listed = models.BooleanField(
        _("in the list"),
        default=True,
        db_default=True,  # the lists written by COPY without the column (Gorbunov's) are listed
        help_text=_("Unticked: the player left the list on this date (kept in a list's older publications only)."),
    )

    class Meta:
        verbose_name = _("rating entry")
        verbose_name_plural = _("rating entries")
        ordering = ["snapshot", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["snapshot", "player"], name="entry_unique_player"),
        ]
        indexes = [
            models.Index(fields=["snapshot", "rank"], name="entry_snapshot_rank_idx"),
            models.Index(fields=["player", "snapshot"], name="entry_player_idx"),
            # An older week's list, a page at a time in rating order (ratings.gorbunov.selectors.past_week_page).
            models.Index(fields=["snapshot", "-rating", "player"], name="entry_snapshot_rating_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id} {self.rating}"


class RatingChange(models.Model):
    """One event's effect on one player's rating in one list, with the explanation a player can follow."""

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="changes"
    )
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    snapshot = models.ForeignKey(
        RatingSnapshot,
        verbose_name=_("snapshot"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="changes",
        help_text=_("The publication that applied this change."),
    )
    event_date = models.DateField(_("date"))
    before = models.DecimalField(_("before"), max_digits=12, decimal_places=4)
    after = models.DecimalField(_("after"), max_digits=12, decimal_places=4)
    delta = models.DecimalField(_("change"), max_digits=12, decimal_places=4)
    details = models.JSONField(_("details"), default=dict, blank=True)
    explanation_en = models.TextField(_("explanation (English)"), blank=True)
    explanation_ru = models.TextField(_("explanation (Russian)"), blank=True)

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["rating_list", "player", "event_date", "id"]
        indexes = [
            models.Index(fields=["rating_list", "player", "event_date"], name="change_player_idx"),
            models.Index(fields=["tournament", "rating_list"], name="change_tournament_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.delta:+}"

    def explanation(self, language: str) -> str:
        """The stored text, or the engine's from ``details`` for a Gorbunov change (issue 29 keeps its numbers only)."""
        from ratings.change_texts import text_of

        stored = self.explanation_ru if language.startswith("ru") else self.explanation_en
        return text_of(stored, self.details, before=self.before, delta=self.delta, language=language)


class JobState(models.TextChoices):
    QUEUED = "queued", _("queued, waiting for a worker")
    RUNNING = "running", _("running")
    SUCCEEDED = "succeeded", _("done")
    FAILED = "failed", _("failed")
    LOST = "lost", _("lost (the worker stopped)")


class JobSource(models.TextChoices):
    ADMIN = "admin", _("the admin")
    SCHEDULE = "schedule", _("the schedule")
    COMMAND = "command", _("the command line")


class JobRun(models.Model):
    """One run of a long job (publish, rebuild, the nightly computation): who started it, when, how far it got, and
    what it changed or why it failed, for staff to read (``ratings.jobs`` writes it; the admin shows it)."""

    task_id = models.CharField(_("task id"), max_length=64, unique=True)
    kind = models.CharField(_("job"), max_length=40)
    args = models.JSONField(_("arguments"), default=dict, blank=True)
    source = models.CharField(_("started from"), max_length=10, choices=JobSource.choices, default=JobSource.ADMIN)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    state = models.CharField(_("state"), max_length=10, choices=JobState.choices, default=JobState.QUEUED)
    in_process = models.BooleanField(
        _("run in the web process"), default=False, help_text=_("No worker: the job ran inside the request.")
    )
    created_at = models.DateTimeField(_("queued at"), default=timezone.now, db_index=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    done = models.PositiveIntegerField(_("steps done"), default=0)
    total = models.PositiveIntegerField(_("steps"), default=0)
    step = models.CharField(_("step"), max_length=200, blank=True)
    outcome = models.JSONField(_("outcome"), default=dict, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("job run")
        verbose_name_plural = _("job runs")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} ({timezone.localtime(self.created_at):%Y-%m-%d %H:%M})"

    @property
    def running(self) -> bool:
        return self.state in (JobState.QUEUED, JobState.RUNNING)


class JobStep(models.Model):
    """A step of a run that was written: recorded by the job's service in the very transaction that writes the step's
    data (``ratings.jobs.RunProgress.written``), so it is committed exactly when the data are. What a run that died
    wrote is read from these rows, never from its heartbeat: a mahjong rebuild killed 4 s in had committed 21 dates
    while its heartbeat still said none (issue 27)."""

    run = models.ForeignKey(JobRun, verbose_name=_("job run"), on_delete=models.CASCADE, related_name="steps")
    step = models.CharField(_("step"), max_length=200)
    detail = models.JSONField(_("what was written"), default=dict, blank=True)
    written_at = models.DateTimeField(_("written at"), default=timezone.now)

    class Meta:
        verbose_name = _("step written")
        verbose_name_plural = _("steps written")
        ordering = ["run", "id"]

    def __str__(self) -> str:
        return f"{self.run_id}: {self.step}"


class StartingRating(models.Model):
    """A rating held before the site's history of the list begins: the federation's own list, carried over.

    Every rebuild of the list starts from these rows (a Gorbunov list per list; DIRS with the acceleration; preferans
    with the peak and the league). ``list_date`` is the date of the federation's list they come from, shown on the
    player's page; who recorded them and when is kept.
    """

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="starting_ratings"
    )
    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+")
    list_date = models.DateField(_("federation's list of"))
    rating = models.DecimalField(_("rating"), max_digits=12, decimal_places=4)
    acceleration = models.PositiveSmallIntegerField(_("acceleration"), null=True, blank=True)
    max_rating = models.DecimalField(_("highest rating"), max_digits=12, decimal_places=4, null=True, blank=True)
    league = models.CharField(_("league"), max_length=10, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("starting rating")
        verbose_name_plural = _("starting ratings")
        ordering = ["rating_list", "player"]
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="starting_rating_unique_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating} ({self.list_date:%Y-%m-%d})"


class HistoryUpload(models.Model):
    """A history document staff uploaded in the admin and confirmed: the job that imports it reads it from here (a
    task takes ids only), and the row keeps who brought which history in and when."""

    system = models.CharField(_("system"), max_length=20)
    list_slug = models.CharField(_("rating list"), max_length=60, blank=True)
    name = models.CharField(_("file"), max_length=200, blank=True)
    sha256 = models.CharField(max_length=64)
    content = models.TextField(_("document"))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("uploaded by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("history upload")
        verbose_name_plural = _("history uploads")
        ordering = ["-uploaded_at"]

    def __str__(self) -> str:
        return f"{self.system}: {self.name}"
