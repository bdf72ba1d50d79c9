"""Riichi mahjong ratings of the Russian federation: RR, CRR and the online rating (`rules/mahjong.md`).

Plain data in, plain data out: the caller (a Django service, ``manage.py rate``, a benchmark) turns its rows into the
frozen dataclasses of :mod:`.inputs`, calls :func:`compute_list` (or a :class:`ListState` for a run of dates, or
:func:`player_entries` for a few players' entries without the whole list), and stores or shows what comes back. The
package is split along the rules: :mod:`.coefficients` (one tournament's R, K, W, A and deltas, exact integers),
:mod:`.lists` (which tournaments count, parts A and B, the rating), :mod:`.state` (the list over many dates, one
player's entry) and :mod:`.document` (``manage.py rate``). Callers import from here.

Decisions taken here where `rules/mahjong.md` is silent (each also said where it applies):

- A tournament abroad (its country is not the list's) counts in RR and CRR only with EMA status and a player of the
  list's country among its results, in every period; it still needs the list's minimum players and hanchans, while
  EMA status stands in for the federation's accreditation and openness.
- Online tournaments never count in RR or CRR, and only online tournaments count in the online list.
- RR's "until 2017-12-31" rule and the online list's 2021-05-19 start for rank-restricted tournaments are decided
  by the tournament's end date, the date its A is counted from.
- A rank-restricted tournament needs the staff flag ``rank_restriction_legitimate`` as well; lists without a start
  date for rank-restricted tournaments (RR, CRR) never take them.
- A tournament that ends after the rating date does not count yet; one whose A is 0 no longer counts. Both are
  listed among the excluded tournaments with that reason.
- A "rated player" (a tournament needs one to fill a MAXK place) is a result with a profile who is counted in this
  list (of the country for RR and CRR, anyone for online), whether or not that player reaches 2 tournaments.
- The first stage of a cut-off tournament has N1 = N players. Its W_avg needs the hanchans of all N1 players: they
  come from the stages' player counts when every later stage gives one, otherwise from the results, where a
  participant missing from the results is taken to have played the first stage only.
- Among subsets of part A (or deltas of part B) that tie exactly, the tournament with the larger delta, then the
  later end date, then the smaller id is taken, so that a snapshot never changes between two runs.
"""

from ratings.engines.mahjong.coefficients import (
    A_FULL,
    CENT,
    WA_UNIT,
    Coefficients,
    age_bp,
    age_bp_by_steps,
    age_bp_for_months,
    age_coefficient,
    age_months,
    age_steps,
    base_rank,
    base_rank_cents,
    cutoff_w_avg_cents,
    cutoff_w_cents,
    delta_cents,
    k_hanchans,
    k_hanchans_cents,
    k_players,
    k_players_cents,
    tournament_coefficients,
)
from ratings.engines.mahjong.document import rate_document
from ratings.engines.mahjong.inputs import (
    CRR,
    ONLINE,
    PRESETS,
    RR,
    CutoffStage,
    ListSettings,
    Placement,
    PlayerInfo,
    RatedTournament,
    list_settings_from_params,
    validate_tournament,
)
from ratings.engines.mahjong.lists import (
    FULL_WEIGHT_TOURNAMENTS,
    Entry,
    Exclusion,
    ListOutcome,
    MaxK,
    Score,
    best_subset,
    eligibility,
    is_rated,
    part_a_size,
    score_line,
)
from ratings.engines.mahjong.state import ListState, compute_list, player_entries

__all__ = [
    "A_FULL",
    "CENT",
    "CRR",
    "FULL_WEIGHT_TOURNAMENTS",
    "ONLINE",
    "PRESETS",
    "RR",
    "WA_UNIT",
    "Coefficients",
    "CutoffStage",
    "Entry",
    "Exclusion",
    "ListOutcome",
    "ListSettings",
    "ListState",
    "MaxK",
    "Placement",
    "PlayerInfo",
    "RatedTournament",
    "Score",
    "age_bp",
    "age_bp_by_steps",
    "age_bp_for_months",
    "age_coefficient",
    "age_months",
    "age_steps",
    "base_rank",
    "base_rank_cents",
    "best_subset",
    "compute_list",
    "cutoff_w_avg_cents",
    "cutoff_w_cents",
    "delta_cents",
    "eligibility",
    "is_rated",
    "k_hanchans",
    "k_hanchans_cents",
    "k_players",
    "k_players_cents",
    "list_settings_from_params",
    "part_a_size",
    "player_entries",
    "rate_document",
    "score_line",
    "tournament_coefficients",
    "validate_tournament",
]
