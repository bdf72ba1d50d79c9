"""Writes for Go tournaments, one module a stage of a tournament's life.

``registrations``: the tournament, its players, absences and withdrawals; ``rounds``: pairing a round and the
director's changes to the draft (by hand, publish, unpublish, delete); ``results``: results and the completion of a
round; ``corrections``: a result corrected in any round, the later rounds recomputed; ``backup``: the director's
backup file of the whole tournament, and a tournament loaded from one. Every service turns rows into the engines'
plain data (``selectors.tournament_data``), calls the engine (``tournaments.pairing``, ``dirs_mode``) and stores
what comes back; DIRS club games are written by ``ratings.dirs.services``. Bad input raises ``GoError`` naming the
field; nothing is saved then. Writes to a round lock its row (``select_for_update``), so two people entering
results for one round at once lose nothing.
"""

from .backup import go_backup, go_backup_load
from .common import GoError
from .corrections import Correction, go_result_correct
from .history import go_history_import
from .imports import go_players_import
from .registrations import (
    go_absence_set,
    go_egd_class_set,
    go_registration_add,
    go_registration_withdraw,
    go_tournament_create,
)
from .results import go_result_enter
from .rounds import (
    go_round_bye,
    go_round_delete,
    go_round_pair,
    go_round_pair_by_hand,
    go_round_publish,
    go_round_repair,
    go_round_swap,
    go_round_unpair,
    go_round_unpublish,
)

__all__ = [
    "Correction",
    "GoError",
    "go_absence_set",
    "go_backup",
    "go_backup_load",
    "go_egd_class_set",
    "go_history_import",
    "go_players_import",
    "go_registration_add",
    "go_registration_withdraw",
    "go_result_correct",
    "go_result_enter",
    "go_round_bye",
    "go_round_delete",
    "go_round_pair",
    "go_round_pair_by_hand",
    "go_round_publish",
    "go_round_repair",
    "go_round_swap",
    "go_round_unpair",
    "go_round_unpublish",
    "go_tournament_create",
]
