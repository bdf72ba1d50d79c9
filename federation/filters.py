import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _

from federation.clubs import club_places
from federation.formatting import country as country_name
from federation.i18n import current_language
from federation.models import Club, Player, city_name
from federation.selectors import player_places, player_search


#: ``django_filters.FilterSet`` under the name the rating lists' filters imported before issue 25 (``ratings/dirs``);
#: the lead removes it once no branch uses it.
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
        _set_place_choices(self, *player_places())

    def search(self, queryset, name, value):
        return player_search(queryset=queryset, search=value)


def _set_place_choices(filterset: django_filters.FilterSet, cities, countries) -> None:
    # Cities in the reader's alphabet (``federation.latin.display``: Latin on the English pages), sorted as shown;
    # the value stays the city as stored, which is what the rows are filtered by.
    language = current_language()
    shown = sorted(((city, city_name(city, language)) for city in cities), key=lambda pair: pair[1].lower())
    filterset.filters["city"].extra["choices"] = shown
    # Countries by name in the reader's language, sorted by that name (federation.formatting.country).
    named = sorted(((code, country_name(code)) for code in countries), key=lambda pair: pair[1])
    filterset.filters["country"].extra["choices"] = named


class PlayerRowFilter(django_filters.FilterSet):
    """The filter of every rating list: rows with a ``player`` (entries, ratings), by name, city, club, country.

    The caller passes the cities and countries to offer (``federation.selectors.player_places``), so that each
    list can offer the places of its own players in one query.
    """

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

    def __init__(self, *args, cities=(), countries=(), **kwargs):
        super().__init__(*args, **kwargs)
        _set_place_choices(self, cities, countries)

    def search(self, queryset, name, value):
        return queryset.filter(player__in=player_search(queryset=Player.objects.filter(is_bot=False), search=value))


class ClubFilter(django_filters.FilterSet):
    """The clubs' list: by city (a visitor looks for a club near them first) and by country."""

    city = django_filters.ChoiceFilter(label=_("City"), choices=[], empty_label=_("All cities"))
    country = django_filters.ChoiceFilter(label=_("Country"), choices=[], empty_label=_("All countries"))

    class Meta:
        model = Club
        fields = ["city", "country"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _set_place_choices(self, *club_places())
