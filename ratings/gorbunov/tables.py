import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from federation.i18n import current_language
from federation.tables import (
    FOLD,
    NAME,
    NUMBER,
    NUMBER_FOLD,
    RATING,
    CityColumn,
    NameColumn,
    PlayerIdColumn,
    order_by_name,
)
from ratings.gorbunov.selectors import ListRows
from ratings.models import RatingEntry


class ListTable(tables.Table):
    """One Gorbunov list as of a week: the entries of ``list_rows`` (``selectors.list_rows``), with their ranks and
    changes. The page's rows are written by the table's template, the downloads by the ``value_*`` methods."""

    rank = tables.Column(verbose_name=_("Rank"), attrs=NUMBER)
    player_id = PlayerIdColumn()
    name = tables.Column(verbose_name=_("Player"), accessor="player__last_name", attrs=NAME)
    city = CityColumn(verbose_name=_("City"), accessor="player__city", attrs=FOLD)
    club = NameColumn(
        verbose_name=_("Club"), accessor="player__club", order_by=("player__club__name",), default="", attrs=FOLD
    )
    rating = tables.Column(verbose_name=_("Rating"), attrs=RATING)
    delta = tables.Column(verbose_name=_("Change"), accessor="change", orderable=False, empty_values=(), attrs=NUMBER)
    events = tables.Column(verbose_name=_("Tournaments"), attrs=NUMBER_FOLD)

    class Meta:
        model = RatingEntry
        fields = ["rank", "player_id", "name", "city", "club", "rating", "delta", "events"]
        # Place, player, rating first (phone-first): the rest folds away below 768 px.
        sequence = ["rank", "player_id", "name", "rating", "delta", "events", "city", "club"]
        order_by = ("rank",)
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "gorbunov-list"}
        template_name = "gorbunov/list_table.html"

    def __init__(self, *args, list_rows: ListRows, **kwargs):
        self.list_rows = list_rows
        super().__init__(*args, **kwargs)

    @property
    def page_entries(self):
        """The page's entries, each given its ``shown_rank``, for the template."""
        for row in self.paginated_rows:
            row.record.shown_rank = self.list_rows.rank(row.record)
            yield row.record

    def order_rank(self, queryset, is_descending):
        # The newest list has its ranks stored (and indexed); an older week ranks by rating.
        keys = ("rank", "player_id") if self.list_rows.newest else ("-rating", "player_id")
        if is_descending:
            keys = ("-rank", "-player_id") if self.list_rows.newest else ("rating", "-player_id")
        return queryset.order_by(*keys), True

    def order_name(self, queryset, is_descending):
        return order_by_name(queryset, is_descending, prefix="player__")

    def value_rank(self, record):
        return self.list_rows.rank(record)

    def value_name(self, record):
        return record.player.display_name(current_language())

    def value_rating(self, value):
        return int(value)

    def value_delta(self, value):
        return None if value is None else int(value)
