"""Self-handicap Go tournaments (PROFS / FUS): levels, handicaps, standings and the next round's pairing.

The rules are `rules/go.md`, part 1; this package is their executable form. It imports nothing from Django: the
tournament services turn registrations, rounds and results into its plain dataclasses, call :func:`replay`,
:func:`standings` and :func:`pair_round`, and store what comes back. ``manage.py rate`` calls :func:`rate_document`.
It is split along those steps: :mod:`.options` (the per-game arithmetic), :mod:`.standings` (the replay and the
tie-break), :mod:`.matcher` (maximum matching), :mod:`.pairing` (the next round) and :mod:`.selfhandicap` (the
document); callers import from here.

Decisions taken here where `rules/go.md` is silent (the rules' own Decisions are followed as written):

- **9 stones as a level gap.** A game may be played on at most 9 stones, so the largest level gap that may be
  paired is 18 in half-stone mode (18 -> 9 stones and reverse komi; 19 would need 10 stones) and 9 in one-stone mode.
  A director who pairs a wider gap by hand gets a game at that limit (:func:`playable_handicap`), reported as a
  ``handicap_limit`` issue.
- **Absence ends a winning streak.** The rules make only the bye neutral for a streak (it is not the player's
  choice); a round the player chose to sit out interrupts the series of wins, so nobody banks a streak by skipping.
  An absent round changes no level and adds nothing to the tie-break.
- **"Had white more often"** compares the number of games each player had white so far.
- **The colour draw** at equal levels and equal white counts is a coin derived from the round's seed, the round
  number and the two ids, so it does not depend on board order and re-pairing the round gives the same colours. When
  no seed is given the seed is derived from the round number and the present players' ids (so ``manage.py rate``
  is reproducible); the site should draw a random seed once and store it with the round.
- **Byes when the field cannot be paired legally.** The number of games is maximised first (a game is the point of a
  round); among the players who could be left over, byes go to those with the fewest byes so far and, among them,
  to the lowest-ranked (a matroid greedy, so it is the best choice in that order). A second bye while another
  present player has had none is then reported as an issue, not avoided at the cost of a game.
- **Tie-break off** (an option for PROFS) drops only the Buchholz analogue: equal levels are still ordered by start
  rating and then share the place, as the pairing ranks them; the tie-break column is then ``None``.
- **Draws** are written as a game whose ``winner`` is ``None`` (``null`` in JSON).
- **Board order**: board 1 is the top-ranked player's game, and so on down the field.
"""

from tournaments.pairing.options import (
    KOMI_KINDS,
    KOMI_NONE,
    KOMI_NORMAL,
    KOMI_REVERSE,
    MAX_STONES,
    Options,
    handicap_for,
    max_level_gap,
    playable_handicap,
    start_level,
    win_points,
)
from tournaments.pairing.pairing import (
    RULE_ABSENT,
    RULE_BYE_EXTRA,
    RULE_BYE_REPEAT,
    RULE_COLOUR,
    RULE_FIELD_UNPAIRABLE,
    RULE_HANDICAP,
    RULE_HANDICAP_LIMIT,
    RULE_REMATCH,
    RULE_UNPAIRED,
    PairedBoard,
    Pairing,
    PairingIssue,
    board_for,
    check_pairing,
    pair_round,
)
from tournaments.pairing.selfhandicap import (
    rate_document,
)
from tournaments.pairing.standings import (
    BOTH_LOSE,
    BOTH_WIN,
    ByeResult,
    Entrant,
    GameResult,
    PlayerState,
    RoundEntry,
    Standing,
    TiebreakTerm,
    TournamentState,
    replay,
    standings,
    tiebreak_terms,
)

__all__ = [
    "BOTH_LOSE",
    "BOTH_WIN",
    "KOMI_KINDS",
    "KOMI_NONE",
    "KOMI_NORMAL",
    "KOMI_REVERSE",
    "MAX_STONES",
    "RULE_ABSENT",
    "RULE_BYE_EXTRA",
    "RULE_BYE_REPEAT",
    "RULE_COLOUR",
    "RULE_FIELD_UNPAIRABLE",
    "RULE_HANDICAP",
    "RULE_HANDICAP_LIMIT",
    "RULE_REMATCH",
    "RULE_UNPAIRED",
    "ByeResult",
    "Entrant",
    "GameResult",
    "Options",
    "PairedBoard",
    "Pairing",
    "PairingIssue",
    "PlayerState",
    "RoundEntry",
    "Standing",
    "TiebreakTerm",
    "TournamentState",
    "board_for",
    "check_pairing",
    "handicap_for",
    "max_level_gap",
    "pair_round",
    "playable_handicap",
    "rate_document",
    "replay",
    "standings",
    "start_level",
    "tiebreak_terms",
    "win_points",
]
