import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.models import Club, Player
from federation.selectors import player_search


def _places() -> tuple[list[str], list[str]]:
    """The cities and countries players come from, in one query (the filter's choices)."""
    pairs = Player.objects.filter(is_bot=False).order_by().values_list("city", "country").distinct()
    cities, countries = set(), set()
    for city, country in pairs:
        if city:
            cities.add(city)
        countries.add(country)
    return sorted(cities), sorted(countries)


class PlayerFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(
        label=_("Name"),
        method="search",
        widget=forms.TextInput(attrs={"placeholder": _("Surname or name, either alphabet"), "type": "search"}),
    )
    city = django_filters.ChoiceFilter(label=_("City"), choices=[], empty_label=_("All cities"))
    club = django_filters.ModelChoiceFilter(
        label=_("Club"), queryset=Club.objects.order_by("name"), empty_label=_("All clubs")
    )
    country = django_filters.ChoiceFilter(label=_("Country"), choices=[], empty_label=_("All countries"))

    class Meta:
        model = Player
        fields = ["q", "city", "club", "country"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cities, countries = _places()
        self.filters["city"].extra["choices"] = [(c, c) for c in cities]
        self.filters["country"].extra["choices"] = [(c, c) for c in countries]

    def search(self, queryset, name, value):
        return player_search(queryset=queryset, search=value)
