"""A member with a DIRS rating set from the declared rank, as an organiser sets it."""

from ratings.dirs import services
from tests.factories import PlayerFactory


def rated_player(rank, **kwargs):
    player = PlayerFactory(**kwargs)
    services.dirs_rating_set_initial(player=player, rank=rank)
    return player
