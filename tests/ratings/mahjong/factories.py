"""Mahjong tournaments for the tests: approved, accredited and open unless told otherwise."""

from __future__ import annotations

import datetime

from tests.factories import PlayerFactory, ResultFactory, TournamentFactory
from tournaments.models import Discipline, Stage


def mahjong_tournament(
    *,
    players=None,
    n: int | None = None,
    end: datetime.date = datetime.date(2025, 3, 10),
    hanchans: int = 8,
    stages: list[tuple[int, int]] | None = None,
    played: list[int] | None = None,
    **kwargs,
):
    """A tournament with ``players`` placed 1, 2, 3 … and N = ``n`` (default: the number of players)."""
    players = list(players) if players is not None else [PlayerFactory() for _ in range(n or 16)]
    fields = {
        "discipline": Discipline.MAHJONG,
        "k": None,
        "card_format": "",
        "start_date": end,
        "end_date": end,
        "hanchans": hanchans,
        "participants": n or len(players),
        "accredited": True,
        "is_open": True,
        **kwargs,
    }
    tournament = TournamentFactory(**fields)
    for index, player in enumerate(players):
        ResultFactory(
            tournament=tournament,
            player=player,
            place=index + 1,
            hanchans_played=played[index] if played else None,
        )
    for number, (stage_hanchans, stage_players) in enumerate(stages or [], start=1):
        Stage.objects.create(tournament=tournament, number=number, hanchans=stage_hanchans, players=stage_players)
    return tournament


def explained_by_the_full_list(entry) -> dict:
    """The explanation of a stored entry as the engine's whole list of the entry's date gives it (``compute_list``,
    not the one-player computation the pages use): issue 29 keeps the numbers only, the pages explain them again."""
    from ratings.engines import mahjong as engine
    from ratings.mahjong.explain import entry_details
    from ratings.mahjong.selectors import mahjong_data, mahjong_settings

    as_of = entry.snapshot.as_of
    data = mahjong_data(start=as_of, end=as_of)
    full = engine.compute_list(
        settings=mahjong_settings(entry.snapshot.rating_list),
        as_of=as_of,
        tournaments=data.window(as_of),
        players=data.players.values(),
    )
    return next(entry_details(item) for item in full.entries if item.player == str(entry.player_id))
