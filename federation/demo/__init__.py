"""A believable federation for the local demo site (``manage.py demo_data``, run by ``make run``).

Clubs, players, bots and the three demo users (``people``), three years of card-game and mahjong tournaments
(``tournaments``), Go (``go``) and preferans (``preferans``), then every rating fed through its own services
(``lists`` for Gorbunov and mahjong; ``go`` and ``preferans`` for theirs). ``build`` puts them together in one
transaction. Everything comes from the seed and a fixed anchor date, so two runs give the same federation.
"""

from federation.demo.build import (
    DEFAULT_PLAYERS,
    DEFAULT_SEED,
    DEFAULT_TODAY,
    DEFAULT_YEARS,
    demo_data_create,
    demo_data_exists,
)

__all__ = ["DEFAULT_PLAYERS", "DEFAULT_SEED", "DEFAULT_TODAY", "DEFAULT_YEARS", "demo_data_create", "demo_data_exists"]
