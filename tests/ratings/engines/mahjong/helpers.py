"""Tournaments for the mahjong engine's tests: one that counts in RR unless a test says otherwise."""

from __future__ import annotations

from datetime import date

from ratings.engines.mahjong import Placement, RatedTournament, eligibility

AS_OF = date(2025, 6, 1)


def make(
    tid: str = "t",
    *,
    end: date = date(2025, 3, 1),
    players: int = 40,
    hanchans: int = 8,
    country: str = "RU",
    results: tuple[Placement, ...] = (),
    **flags: bool,
) -> RatedTournament:
    """A tournament that counts in RR unless the test says otherwise."""
    flags = {"accredited": True, "open": True, **flags}
    return RatedTournament(
        id=tid, end_date=end, players=players, hanchans=hanchans, country=country, results=results, **flags
    )


def reasons_en(tournament: RatedTournament, list_settings, countries=None) -> list[str]:
    return [reason.en for reason in eligibility(tournament, list_settings, countries)]


def reasons_ru(tournament: RatedTournament, list_settings, countries=None) -> list[str]:
    return [reason.ru for reason in eligibility(tournament, list_settings, countries)]
