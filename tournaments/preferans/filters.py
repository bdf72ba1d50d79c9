import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.selectors import player_search
from tournaments.preferans.models import PreferansRating


class LeaderboardFilter(django_filters.FilterSet):
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
        model = PreferansRating
        fields = ["q", "city", "club", "country"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        rated = Player.objects.filter(is_bot=False, preferans_rating__isnull=False)
        cities = rated.exclude(city="").order_by("city").values_list("city", flat=True).distinct()
        self.filters["city"].extra["choices"] = [(c, c) for c in cities]
        countries = rated.order_by("country").values_list("country", flat=True).distinct()
        self.filters["country"].extra["choices"] = [(c, c) for c in countries]

    def search(self, queryset, name, value):
        players = player_search(queryset=Player.objects.filter(is_bot=False), search=value)
        return queryset.filter(player__in=players)
