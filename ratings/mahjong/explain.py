"""A mahjong rating's explanation, recomputed by the engine when a person opens it (issue 29).

A list's rows keep the numbers (``ratings.mahjong.storage``); every tournament's W, R, A and delta and the formula
lines are the engine's ``player_entries`` for the players asked, from the tournaments as they are: a few
milliseconds a player, where the whole list takes a hundred. **Decision:** a tournament corrected after a date's
list was published explains that date with its corrected data (the rating shown stays the one published; a staff
rebuild of the dates makes the two agree again).
"""

from __future__ import annotations

from datetime import date

from ratings.engines import mahjong as engine
from ratings.mahjong.params import list_settings
from ratings.models import RatingList


def _formula_lines(explanation: str) -> list[str]:
    """The last three lines of the engine's explanation: part A, part B and the rating with their numbers."""
    return explanation.split("\n")[-3:]


def score_rows(scores: tuple[engine.Score, ...]) -> list[dict]:
    return [
        {
            "t": score.tournament,
            "end": score.end_date.isoformat(),
            "place": score.place,
            "players": score.players,
            "hanchans": score.hanchans,
            "w": score.w,
            "r": engine.base_rank_cents(score.players, score.place) / engine.CENT,
            "a": score.a_percent,
            "wa": score.wa,
            "delta": score.delta,
            "in_a": score.in_part_a,
            "in_b": score.in_part_b,
        }
        for score in scores
    ]


def entry_details(entry: engine.Entry) -> dict:
    """An entry's explanation: both parts, every tournament's W, R, A and delta, and the formula lines."""
    return {
        "part_a": entry.part_a,
        "part_b": entry.part_b,
        "exact": entry.rating_unrounded,
        "n": entry.tournaments,
        "k": entry.part_a_size,
        "scores": score_rows(entry.scores),
        "formula": {
            "en": _formula_lines(entry.explanation.en),
            "ru": _formula_lines(entry.explanation.ru),
        },
    }


class Explainer:
    """The explanations of one list's entries on any dates, from one read of the tournaments (``data``: the
    ``selectors.mahjong_data`` of every date asked): the engine's state keeps each tournament's validation and
    coefficients from date to date."""

    def __init__(self, rating_list: RatingList, data) -> None:
        self.data = data
        settings = list_settings(rating_list.engine, rating_list.params)
        self.state = engine.ListState(settings=settings, players=data.players.values())

    def details(self, as_of: date, ranks: dict[int, int]) -> dict[int, dict]:
        """Player id -> the explanation of their entry as of ``as_of`` (a snapshot's date), for the players of
        ``ranks`` (id -> rank) listed on it."""
        if not ranks:
            return {}
        entries = self.state.player_entries(
            as_of=as_of,
            tournaments=self.data.window(as_of),
            ranks={str(player_id): rank for player_id, rank in ranks.items()},
        )
        return {int(player_id): entry_details(entry) for player_id, entry in entries.items()}
