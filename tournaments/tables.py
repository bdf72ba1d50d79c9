import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation import formatting
from federation.i18n import current_language
from federation.tables import FOLD, NAME, NUMBER, NUMBER_FOLD, CityColumn, NameColumn, PlayerIdColumn
from tournaments.models import Result, Tournament


class TournamentTable(tables.Table):
    """The tournaments' list: its rows written by ``tournaments/tournament_table.html``, the ``value_*`` methods for
    the downloads."""

    end_date = tables.Column(verbose_name=_("Date"), attrs={"td": {"class": "text-nowrap"}})
    name = tables.Column(verbose_name=_("Tournament"), attrs=NAME)
    discipline = tables.Column(
        verbose_name=_("Discipline"), accessor="get_discipline_display", order_by="discipline", attrs=FOLD
    )
    city = CityColumn(verbose_name=_("City"), attrs=FOLD)
    result_count = tables.Column(verbose_name=_("Participants"), attrs=NUMBER)

    class Meta:
        model = Tournament
        fields = ["end_date", "name", "discipline", "city", "result_count"]
        order_by = ("-end_date",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "tournaments"}
        template_name = "tournaments/tournament_table.html"

    def value_end_date(self, value):
        return formatting.day(value)

    def value_name(self, record):
        return record.display_name(current_language())


class ResultTable(tables.Table):
    """A tournament's results: its rows written by ``tournaments/result_table.html`` (the hanchans and substitutes
    of a mahjong tournament only: the view excludes them elsewhere), the ``value_*`` methods for the downloads."""

    place = tables.Column(verbose_name=_("Place"), attrs=NUMBER)
    player_id = PlayerIdColumn()
    # empty_values=(): a participant without a profile has no player__last_name, and the download must still ask
    # value_name for the stored name rather than write the default "—".
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "participant_name"),
        empty_values=(),
        attrs=NAME,
    )
    city = CityColumn(verbose_name=_("City"), accessor="player__city", default="", attrs=FOLD)
    club = NameColumn(
        verbose_name=_("Club"), accessor="player__club", order_by=("player__club__name",), default="", attrs=FOLD
    )
    hanchans_played = tables.Column(verbose_name=_("Hanchans"), default="", attrs=NUMBER_FOLD)
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"), yesno=("✓", ""), attrs=FOLD)

    class Meta:
        model = Result
        fields = ["place", "player_id", "name", "city", "club", "hanchans_played", "substitute"]
        order_by = ("place",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "results"}
        template_name = "tournaments/result_table.html"

    def value_name(self, record):
        if record.player_id:
            return record.player.display_name(current_language())
        return record.participant_name
