"""The worked example of a whole tournament that several test modules replay: five rounds of FUS, six players."""

from __future__ import annotations

from tournaments.pairing import ByeResult, Entrant, GameResult, Options


def five_round_fus() -> tuple[Options, list[Entrant], list[list[GameResult | ByeResult]]]:
    options = Options.fus(5)
    entrants = [
        Entrant("ann", 2100),  # 42
        Entrant("bob", 2050),  # 41
        Entrant("cid", 1990),  # 39
        Entrant("dan", 1900),  # 38
        Entrant("eve", 1810),  # 36
        Entrant("fay", 1700),  # 34
    ]
    games = [
        [GameResult("ann", "bob", "bob"), GameResult("cid", "dan", "cid"), GameResult("eve", "fay", "fay")],
        [GameResult("bob", "cid", "cid"), GameResult("ann", "eve", "ann"), GameResult("dan", "fay", "fay")],
        [GameResult("ann", "cid", "ann"), GameResult("bob", "fay", "fay"), GameResult("dan", "eve", "eve")],
        [GameResult("ann", "fay", "fay"), GameResult("bob", "dan", "dan"), GameResult("cid", "eve", "cid")],
        [GameResult("ann", "dan", "dan"), GameResult("bob", "eve", "bob"), GameResult("cid", "fay", "fay")],
    ]
    return options, entrants, games
