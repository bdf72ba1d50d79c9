"""The member registry: clubs and players (bots included), with their names in Cyrillic and in Latin."""

from django.conf import settings
from django.core.cache import cache
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce, Lower, NullIf, Upper
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from federation.i18n import current_language
from federation.latin import display

country_code_validator = RegexValidator(r"^[A-Z]{2}$", _("Use the two-letter country code, e.g. RU."))


def normalize_name(text: str) -> str:
    """Lower case with ё folded into е and single spaces: how names are compared in search and import."""
    return " ".join(text.lower().replace("ё", "е").split())


#: The English name staff may type for a club, a tournament or a rating list; left blank, the English pages show the
#: passport transliteration of the Russian name (``federation.latin.display``).
ENGLISH_NAME_HELP = _("Leave blank to show the Russian name in Latin letters (passport transliteration).")


class Club(models.Model):
    """A club: its page (``/clubs/<id>/``) shows where and when it meets and how to reach it, as federation staff
    enter them in the admin (organisers only read clubs), with an English version of each text for ``/en/``."""

    name = models.CharField(_("name"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True, help_text=ENGLISH_NAME_HELP)
    city = models.CharField(_("city"), max_length=100, blank=True)
    country = models.CharField(_("country"), max_length=2, default="RU", validators=[country_code_validator])
    meeting_place = models.TextField(
        _("meeting place (Russian)"),
        max_length=1000,
        blank=True,
        help_text=_("Where and when the club meets: the address, the days and hours."),
    )
    meeting_place_en = models.TextField(_("meeting place (English)"), max_length=1000, blank=True)
    contact = models.TextField(
        _("contact (Russian)"),
        max_length=1000,
        blank=True,
        help_text=_("Whom to ask and how: a name, a phone, a chat. Shown to everyone."),
    )
    contact_en = models.TextField(_("contact (English)"), max_length=1000, blank=True)
    website = models.URLField(_("website"), blank=True)

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["name", "city"], name="club_unique_name_city")]

    def __str__(self) -> str:
        """The name and city in the reader's alphabet (the filters' and the admin's choices show it)."""
        language = current_language()
        name = self.display_name(language)
        return f"{name} ({city_name(self.city, language)})" if self.city else name

    def get_absolute_url(self) -> str:
        return reverse("federation:club_detail", args=[self.pk])

    def localised(self, field: str, language: str) -> str:
        """``meeting_place`` or ``contact`` in the visitor's language: the English text on ``/en/`` when staff
        entered one, else the Russian in Latin letters (``federation.latin.display``: an address, a name and a phone
        number a foreign visitor can read and type; issue 28)."""
        return display(getattr(self, field), getattr(self, f"{field}_en", ""), language=language)

    def display_name(self, language: str) -> str:
        """The club's name in the reader's alphabet (``federation.latin.display``)."""
        return display(self.name, self.name_en, language=language)


#: The English names of cities in Django's cache (``city_name``), deleted when staff save or delete one
#: (``federation.apps``).
CITY_NAMES_KEY = "federation:city-names"
CITY_NAMES_SECONDS = 60


def english_city_names() -> dict[str, str]:
    """Every English name staff typed, by the city as written: a small table read on every English page that shows a
    city, so kept in the cache; a cache that is down makes it a query, never an error. The pages that show cities
    are in the "registry" scope, so a save gives them a new version at once (``federation.versions``)."""
    names = cache.get(CITY_NAMES_KEY)
    if names is None:
        names = dict(CityName.objects.values_list("name", "name_en"))
        cache.set(CITY_NAMES_KEY, names, CITY_NAMES_SECONDS)
    return names


def city_name(city: str | None, language: str) -> str:
    """A city as a page in ``language`` shows it: as written on the Russian pages; on the English ones the English
    name staff typed for it (``CityName``), else the passport transliteration (``federation.latin.display``). A city
    is a text on players, clubs and tournaments, not a row of its own, so its English name is found by that text."""
    if not city:
        return ""
    if not language.startswith("en"):
        return city
    return display(city, english_city_names().get(city, ""), language=language)


def forget_city_names(**kwargs) -> None:
    """Signal receiver: the next page reads the table again."""
    cache.delete(CITY_NAMES_KEY)


class CityName(models.Model):
    """A city's English name, typed by staff once for every player, club and tournament written in that city
    (``city_name``); a city without one is shown in Latin letters by the passport transliteration."""

    name = models.CharField(
        _("city"), max_length=100, unique=True, help_text=_("As players, clubs and tournaments write it, e.g. Москва.")
    )
    name_en = models.CharField(_("name (English)"), max_length=100, help_text=_("For the English pages, e.g. Moscow."))

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("English name of a city")
        verbose_name_plural = _("English names of cities")
        ordering = ["name"]

    def __str__(self) -> str:
        return f"{self.name} → {self.name_en}"


class BotLevel(models.Model):
    """A preferans bot's difficulty level; its maximum rating caps every bot of the level (rules/preferans.md)."""

    name = models.CharField(_("name"), max_length=50, unique=True)
    max_rating = models.DecimalField(
        _("maximum rating"), max_digits=9, decimal_places=2, validators=[MinValueValidator(0)]
    )

    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bot level")
        verbose_name_plural = _("bot levels")
        ordering = ["max_rating"]

    def __str__(self) -> str:
        return f"{self.name} ({self.max_rating})"


class Player(models.Model):
    last_name = models.CharField(_("surname"), max_length=100)
    first_name = models.CharField(_("first name"), max_length=100, blank=True)
    last_name_latin = models.CharField(_("surname (Latin)"), max_length=100, blank=True)
    first_name_latin = models.CharField(_("first name (Latin)"), max_length=100, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True, db_index=True)
    country = models.CharField(_("country"), max_length=2, default="RU", validators=[country_code_validator])
    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.SET_NULL, null=True, blank=True, related_name="players"
    )
    ema_id = models.CharField(_("EMA id"), max_length=20, blank=True)
    egd_pin = models.CharField(_("EGD PIN"), max_length=20, blank=True)
    external_id = models.CharField(
        _("federation id"),
        max_length=100,
        blank=True,
        help_text=_("The id the federation's own records give this player (set by the history import)."),
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player",
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    bot_level = models.ForeignKey(
        BotLevel, verbose_name=_("bot level"), on_delete=models.PROTECT, null=True, blank=True, related_name="bots"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    # Approved tournaments played, kept by federation.services.player_tournament_counts_refresh: the players list
    # sorts and pages by it, which a per-row count cannot do fast on 20,000 players.
    tournament_count = models.PositiveIntegerField(_("tournaments"), default=0, editable=False)
    # Both alphabets, lower case, ё as е: what the name search matches (SQLite's LIKE folds only ASCII case), and
    # the alphabetical order of the lists whatever the database's collation (Ё sorts with Е, not before А).
    search_name = models.CharField(max_length=420, editable=False, default="")

    history = HistoricalRecords(excluded_fields=["search_name", "tournament_count"])

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name", "id"]
        indexes = [
            models.Index(fields=["last_name", "first_name"], name="player_name_idx"),
            models.Index(fields=["last_name_latin", "first_name_latin"], name="player_latin_idx"),
            models.Index(Upper("last_name"), name="player_upper_last_idx"),
            models.Index(fields=["-tournament_count", "last_name", "first_name"], name="player_count_idx"),
            models.Index(fields=["search_name", "id"], name="player_alphabet_idx"),
            # The English pages' order: the Latin name, else the Cyrillic (federation.tables.order_by_name).
            models.Index(
                Lower(Coalesce(NullIf("last_name_latin", Value("")), "last_name")),
                Lower(Coalesce(NullIf("first_name_latin", Value("")), "first_name")),
                F("id"),
                name="player_latin_alphabet_idx",
            ),
            # The list filters' places (federation.selectors.player_places).
            models.Index(fields=["city", "country"], name="player_place_idx", condition=Q(is_bot=False)),
            # The few bots, left out of counts by id (ratings.preferans.selectors.league_counts).
            models.Index(fields=["id"], name="player_bot_idx", condition=Q(is_bot=True)),
        ]
        constraints = [
            models.UniqueConstraint(fields=["ema_id"], condition=~models.Q(ema_id=""), name="player_unique_ema_id"),
            models.UniqueConstraint(fields=["egd_pin"], condition=~models.Q(egd_pin=""), name="player_unique_egd_pin"),
            models.UniqueConstraint(
                fields=["external_id"], condition=~models.Q(external_id=""), name="player_unique_external_id"
            ),
            models.CheckConstraint(
                condition=models.Q(is_bot=True) | models.Q(bot_level__isnull=True), name="player_bot_level_only_bots"
            ),
        ]

    def __str__(self) -> str:
        return self.full_name

    def save(self, *args, **kwargs) -> None:
        self.fill_search_name()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "search_name" not in update_fields:
            kwargs["update_fields"] = [*update_fields, "search_name"]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("federation:player_detail", args=[self.pk])

    def fill_search_name(self) -> None:
        """Set what the name search matches; ``save`` calls it, and so must code that writes with ``bulk_create``."""
        self.search_name = normalize_name(
            " ".join((self.last_name, self.first_name, self.last_name_latin, self.first_name_latin))
        )

    @property
    def full_name(self) -> str:
        return " ".join(part for part in (self.last_name, self.first_name) if part)

    @property
    def full_name_latin(self) -> str:
        return " ".join(part for part in (self.last_name_latin, self.first_name_latin) if part)

    def display_name(self, language: str) -> str:
        """The name in the visitor's alphabet: on the English pages the Latin name staff typed, else the passport
        transliteration of the Cyrillic one (``federation.latin.display``)."""
        return display(self.full_name, self.full_name_latin if self.last_name_latin else "", language=language)


colour_validator = RegexValidator(r"^#[0-9a-fA-F]{6}$", _("A colour as #RRGGBB, e.g. #1f4e79."))

#: The logo formats a browser shows; a logo is stored in the database (no media server needed, same on every web
#: process) and served by federation.views.identity_logo.
LOGO_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp", "svg": "image/svg+xml"}


class SiteIdentity(models.Model):
    """The federation's own name, logo, colours, about and contact texts: one row, edited by staff in the admin,
    shown on every page and in the admin's header. Without a row the site uses ``DEFAULT_IDENTITY``."""

    name = models.CharField(_("name (Russian)"), max_length=200)
    name_en = models.CharField(_("name (English)"), max_length=200, blank=True)
    short_name = models.CharField(
        _("short name"), max_length=40, blank=True, help_text=_("For the header on a phone, e.g. an abbreviation.")
    )
    description = models.CharField(
        _("description (Russian)"), max_length=300, blank=True, help_text=_("One sentence for search engines.")
    )
    description_en = models.CharField(_("description (English)"), max_length=300, blank=True)
    primary_colour = models.CharField(_("main colour"), max_length=7, default="#1f4e79", validators=[colour_validator])
    accent_colour = models.CharField(_("accent colour"), max_length=7, default="#c8102e", validators=[colour_validator])
    logo = models.BinaryField(_("logo"), blank=True, default=b"", editable=False)
    logo_type = models.CharField(_("logo format"), max_length=10, blank=True, editable=False)
    about = models.TextField(_("about (Russian)"), blank=True)
    about_en = models.TextField(_("about (English)"), blank=True)
    contact = models.TextField(_("contact (Russian)"), blank=True)
    contact_en = models.TextField(_("contact (English)"), blank=True)
    email = models.EmailField(_("e-mail"), blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("federation identity")
        verbose_name_plural = _("federation identity")

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        self.pk = 1  # one row
        super().save(*args, **kwargs)

    def localised(self, field: str, language: str) -> str:
        """A text (description, about, contact) in the reader's language: the English pages show only the English
        text, never the Russian one in its place (a page with no English text says so, ``federation.views``)."""
        if language.startswith("en"):
            return getattr(self, f"{field}_en", "")
        return getattr(self, field)

    def display_name(self, language: str) -> str:
        """The federation's name in the reader's alphabet: the English name, else the Russian one transliterated."""
        return display(self.name, self.name_en, language=language)
