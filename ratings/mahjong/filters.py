import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.selectors import player_search
from ratings.models import RatingEntry


class MahjongEntryFilter(django_filters.FilterSet):
    """Search by name (either alphabet), city, club and country, on top of the list's date."""

    q = django_filters.CharFilter(
        label=_("Name"),
        method="search",
        widget=forms.TextInput(attrs={"placeholder": _("Surname or name, either alphabet"), "type": "search"}),
    )
    city = django_filters.ChoiceFilter(
        label=_("City"), field_name="player__city", choices=[], empty_label=_("All cities")
    )
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), field_name="player__club", queryset=Club.objects.order_by("name"), empty_label=_("All clubs")
    )
    country = django_filters.ChoiceFilter(
        label=_("Country"), field_name="player__country", choices=[], empty_label=_("All countries")
    )

    class Meta:
        model = RatingEntry
        fields = ["q", "city", "club", "country"]

    def __init__(self, *args, cities=(), countries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["city"].extra["choices"] = [(c, c) for c in cities]
        self.filters["country"].extra["choices"] = [(c, c) for c in countries]

    def search(self, queryset, name, value):
        return queryset.filter(player__in=player_search(queryset=Player.objects.all(), search=value))
