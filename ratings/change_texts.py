"""A Gorbunov change's explanation, written by the engine from the numbers the change keeps (issue 29).

Ten years of a 20,000-player federation hold 300,000 changes; each kept its explanation in English and in Russian
beside the numbers it is written from (about 800 of its 1,200 bytes). A change now keeps the numbers only, the
exact base and raw numerators among them, and the engine writes the text when a person reads it
(``engines.gorbunov.explain_change``): the same text, word for word, in either language. A change written before
keeps its stored texts, which are read as they are.
"""

from __future__ import annotations

from ratings.engines import gorbunov as engine
from ratings.engines.common import Explanation


def explanation_of(details: dict, *, before: int, delta: int) -> Explanation | None:
    """The explanation of a change from its ``details``, its rating before and its change; None for a change that
    does not keep its numerators (written before issue 29: its texts are stored)."""
    if "base_n" not in details:
        return None
    context = engine.TournamentContext(
        tournament_id="",
        participants=details["U"],
        strength_total=details["Rt_total"],
        k_given=details["K_given"],
        k=details["K"],
        draft_bonus=details["draft_bonus"],
        sealed=details["sealed"],
        sqrt_rule=details["sqrt_rule"],
    )
    change = engine.Change(
        context=context,
        player="",
        place=details["M"],
        before=int(before),
        delta=int(delta),
        base_numerator=details["base_n"],
        raw_numerator=details["raw_n"],
        rules=tuple(details["rules"]),
    )
    return engine.explain_change(change)


def text_of(stored: str, details: dict, *, before, delta, language: str) -> str:
    """The explanation in ``language``: the stored text when there is one, else the engine's from the numbers."""
    if stored:
        return stored
    explained = explanation_of(details or {}, before=before, delta=delta)
    return "" if explained is None else explained.in_language(language)
