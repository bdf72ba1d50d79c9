import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from federation.models import Player
from tournaments.models import Result


class PlayerTable(tables.Table):
    name = tables.Column(verbose_name=_("Player"), accessor="last_name", order_by=("search_name", "id"), linkify=True)
    city = tables.Column(verbose_name=_("City"))
    club = tables.Column(verbose_name=_("Club"), accessor="club__name", order_by=("club__name",))
    country = tables.Column(verbose_name=_("Country"))
    tournament_count = tables.Column(verbose_name=_("Tournaments"), attrs={"td": {"class": "text-end"}})

    class Meta:
        model = Player
        fields = ["name", "city", "club", "country", "tournament_count"]
        order_by = ("name",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "players"}

    def render_name(self, record):
        return record.display_name(current_language())

    def value_name(self, record):
        return record.display_name(current_language())


class PlayerResultTable(tables.Table):
    # Plain columns on purpose: a DateColumn compiles a template for every cell, and callables in linkify or
    # render_* are inspected for every cell; on a page of 50 rows that is most of the rendering time.
    date = tables.Column(verbose_name=_("Date"), accessor="tournament__end_date")
    tournament = tables.Column(
        verbose_name=_("Tournament"),
        accessor="tournament__name",
        linkify=("tournaments:tournament_detail", {"pk": tables.A("tournament_id")}),
    )
    discipline = tables.Column(verbose_name=_("Discipline"), accessor="tournament__get_discipline_display")
    city = tables.Column(verbose_name=_("City"), accessor="tournament__city")
    place = tables.Column(verbose_name=_("Place"), attrs={"td": {"class": "text-end"}})
    result_count = tables.Column(verbose_name=_("of"), attrs={"td": {"class": "text-end text-muted"}}, orderable=False)

    class Meta:
        model = Result
        fields = ["date", "tournament", "place", "result_count", "discipline", "city"]
        sequence = fields
        order_by = ("-date",)
