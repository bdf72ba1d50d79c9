import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from tournaments.models import Result, Tournament


class TournamentTable(tables.Table):
    end_date = tables.Column(verbose_name=_("Date"))
    name = tables.Column(verbose_name=_("Tournament"), linkify=True)
    discipline = tables.Column(verbose_name=_("Discipline"), accessor="get_discipline_display", order_by="discipline")
    city = tables.Column(verbose_name=_("City"))
    result_count = tables.Column(verbose_name=_("Participants"), attrs={"td": {"class": "text-end"}})

    class Meta:
        model = Tournament
        fields = ["end_date", "name", "discipline", "city", "result_count"]
        order_by = ("-end_date",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "tournaments"}


class ResultTable(tables.Table):
    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "text-end"}})
    name = tables.Column(
        verbose_name=_("Player"),
        accessor="player__last_name",
        order_by=("player__last_name", "participant_name"),
        linkify=lambda record: record.player.get_absolute_url() if record.player_id else None,
    )
    city = tables.Column(verbose_name=_("City"), accessor="player__city", default="")
    club = tables.Column(verbose_name=_("Club"), accessor="player__club__name", default="")
    hanchans_played = tables.Column(verbose_name=_("Hanchans"), default="")
    substitute = tables.BooleanColumn(verbose_name=_("Substitute"), yesno=("✓", ""))

    class Meta:
        model = Result
        fields = ["place", "name", "city", "club", "hanchans_played", "substitute"]
        order_by = ("place",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "results"}

    def render_name(self, record):
        if record.player_id:
            return record.player.display_name(current_language())
        return record.participant_name

    def value_name(self, record):
        return self.render_name(record)
