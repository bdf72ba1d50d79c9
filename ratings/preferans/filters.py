from federation.filters import PlayerRowFilter
from ratings.preferans.models import PreferansRating


class LeaderboardFilter(PlayerRowFilter):
    class Meta:
        model = PreferansRating
        fields = ["q", "city", "club", "country"]
