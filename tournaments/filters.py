import django_filters
from django.utils.translation import gettext_lazy as _

from tournaments.models import Discipline, Tournament


class TournamentFilter(django_filters.FilterSet):
    discipline = django_filters.ChoiceFilter(
        label=_("Discipline"), choices=Discipline.choices, empty_label=_("All disciplines")
    )
    year = django_filters.ChoiceFilter(
        label=_("Year"), field_name="end_date__year", choices=[], empty_label=_("All years")
    )
    name = django_filters.CharFilter(label=_("Name"), lookup_expr="icontains")

    class Meta:
        model = Tournament
        fields = ["discipline", "year", "name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        years = self.queryset.dates("end_date", "year", order="DESC")
        self.filters["year"].extra["choices"] = [(d.year, d.year) for d in years]
