"""The incremental list: one mahjong list on a run of dates, recomputing only what changed from one to the next.

A daily job and a full rebuild walk a list through years of dates; :class:`ListState` makes each date cost what
changed since the previous one, and :func:`compute_list` (one date) is the same computation from an empty state, so
both give the very same lists. :func:`player_entries` gives a few players' entries of that list, equal to theirs in
it, without computing the others' (a page that explains one player's rating on a date it does not store).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from fractions import Fraction
from typing import Any

from ratings.engines.common import EngineError, Explanation
from ratings.engines.mahjong.coefficients import Coefficients, age_bp_by_steps, age_steps, tournament_coefficients
from ratings.engines.mahjong.inputs import ListSettings, PlayerInfo, RatedTournament, validate_tournament
from ratings.engines.mahjong.lists import (
    Entry,
    Exclusion,
    ListOutcome,
    MaxKCandidate,
    MaxKTotal,
    PlayerPart,
    RawScore,
    build_frozen,
    eligibility,
    is_rated,
    maxk_candidate,
    maxk_total,
    player_finish,
    player_part,
    rank_exactly,
    tournament_raws,
)


class ListState:
    """:func:`compute_list` for one list on a run of dates, recomputing only what changed since the previous date.

    Feed :meth:`compute` the dates in any order with each date's tournaments (the same objects while they do not
    change: a tournament is taken as corrected when a different object comes with its id). Between two calls, a
    player's part A and the deltas of part B change only when one of the player's tournaments starts or stops
    counting, is corrected, or changes its A; part B of everyone changes only with MAXK. Only those players are
    recomputed; the others keep their numbers, and every player is ranked again. The result of each call equals
    ``compute_list(settings=..., as_of=..., tournaments=..., players=...)`` exactly.

    ``players`` (countries and names) are fixed for the state's life: a player's new country means a new state.
    """

    def __init__(self, *, settings: ListSettings, players: Iterable[PlayerInfo] = ()) -> None:
        known = tuple(players)
        self.settings = settings
        self._countries = {player.id: player.country for player in known}
        self._names = {player.id: player.name or player.id for player in known}
        self._seen: dict[str, RatedTournament] = {}
        """Tournament id -> the object last given (validated, its eligibility and coefficients known)."""
        self._reasons: dict[str, tuple[Explanation, ...]] = {}
        self._coefficients: dict[str, Coefficients] = {}
        self._steps: dict[str, tuple[date, ...]] = {}
        self._counted: dict[str, tuple[RatedTournament, int, list[tuple[str, RawScore]], MaxKCandidate | None]]
        self._counted = {}
        """Tournament id -> (tournament, A, its rated results as (player, raw), its MAXK candidate or None)."""
        self._raws: dict[str, dict[str, RawScore]] = {}
        """Player -> tournament id -> raw, over the counted tournaments."""
        self._parts: dict[str, PlayerPart] = {}
        self._finished: dict[str, tuple[Fraction, dict[str, Any]]] = {}
        self._entries: dict[str, tuple[dict[str, Any], Entry]] = {}
        self._total: MaxKTotal | None = None

    def _count(
        self, as_of: date, tournaments: Sequence[RatedTournament]
    ) -> tuple[list[Exclusion], dict[str, tuple[RatedTournament, int]]]:
        """Validate ``tournaments`` and split them into those excluded as of ``as_of`` (with every reason) and those
        that count (id -> (tournament, A), in the input's order), keeping what a tournament object does not change."""
        settings = self.settings
        seen_ids: dict[str, int] = {}
        for index, tournament in enumerate(tournaments):
            if tournament.id in seen_ids:
                raise EngineError(
                    f"tournaments[{index}].id",
                    f"{tournament.id!r} appears twice (tournaments[{seen_ids[tournament.id]}])",
                )
            seen_ids[tournament.id] = index
            if self._seen.get(tournament.id) is not tournament:
                validate_tournament(tournament, f"tournaments[{index}]")

        excluded: list[Exclusion] = []
        now: dict[str, tuple[RatedTournament, int]] = {}
        for tournament in tournaments:
            tid = tournament.id
            if self._seen.get(tid) is not tournament:
                self._seen[tid] = tournament
                self._reasons[tid] = eligibility(tournament, settings, self._countries)
                self._coefficients.pop(tid, None)
                self._steps[tid] = age_steps(tournament.end_date)
            reasons = list(self._reasons[tid])
            a = age_bp_by_steps(tournament.end_date, self._steps[tid], as_of)
            if tournament.end_date > as_of:
                reasons.insert(0, Explanation("ends after the rating date", "завершается после даты рейтинга"))
            elif a == 0:
                reasons.insert(0, Explanation("older than two years", "старше двух лет"))
            if reasons:
                excluded.append(Exclusion(tid, tuple(reasons)))
                continue
            now[tid] = (tournament, a)
        return excluded, now

    def _coefficients_of(self, tournament: RatedTournament) -> Coefficients:
        coefficients = self._coefficients.get(tournament.id)
        if coefficients is None:
            coefficients = self._coefficients[tournament.id] = tournament_coefficients(tournament)
        return coefficients

    def compute(self, *, as_of: date, tournaments: Sequence[RatedTournament]) -> ListOutcome:
        """The list as of ``as_of``, as :func:`compute_list` returns it."""
        settings = self.settings
        excluded, now = self._count(as_of, tournaments)

        # What changed since the previous date: the players of those tournaments are recomputed.
        dirty: set[str] = set()
        for tid, (old, old_a, pairs, _candidate) in list(self._counted.items()):
            current = now.get(tid)
            if current is not None and current[0] is old and current[1] == old_a:
                continue
            del self._counted[tid]
            for player, _raw in pairs:
                raws = self._raws[player]
                del raws[tid]
                if not raws:
                    del self._raws[player]
                dirty.add(player)
        for tid, (tournament, a) in now.items():
            if tid in self._counted:
                continue
            coefficients = self._coefficients_of(tournament)
            pairs = tournament_raws(tournament, a, coefficients, settings, self._countries)
            candidate = maxk_candidate(tournament, a, coefficients) if pairs else None
            self._counted[tid] = (tournament, a, pairs, candidate)
            for player, raw in pairs:
                self._raws.setdefault(player, {})[tid] = raw
                dirty.add(player)

        total = maxk_total([item[3] for item in self._counted.values() if item[3] is not None], settings)
        if self._total is None or total.maxk != self._total.maxk:
            self._finished.clear()
        self._total = total

        for player in dirty:
            self._finished.pop(player, None)
            raws = self._raws.get(player)
            if raws is not None and len(raws) >= settings.min_tournaments:
                name = self._names.get(player, player)
                self._parts[player] = player_part(player, name, list(raws.values()), settings)
            else:
                self._parts.pop(player, None)

        ranked: list[tuple[float, str, str, tuple[Fraction, dict[str, Any]]]] = []
        unlisted: list[tuple[str, int]] = []
        for player, raws in self._raws.items():
            if len(raws) < settings.min_tournaments:
                unlisted.append((player, len(raws)))
                continue
            finished = self._finished.get(player)
            if finished is None:
                finished = self._finished[player] = player_finish(self._parts[player], total, settings)
            ranked.append((-finished[1]["rating_unrounded"], finished[1]["name"], player, finished))
        # `rules/mahjong.md`, "Result": ranked by the unrounded rating, then by name.
        ranked = rank_exactly(ranked)
        entries: list[Entry] = []
        kept: dict[str, tuple[dict[str, Any], Entry]] = {}
        for rank, (_, _, player, (_, entry_fields)) in enumerate(ranked, start=1):
            previous = self._entries.get(player)
            if previous is not None and previous[0] is entry_fields and previous[1].rank == rank:
                entry = previous[1]
            else:
                entry = build_frozen(Entry, entry_fields, rank=rank)
            kept[player] = (entry_fields, entry)
            entries.append(entry)
        self._entries = kept
        return ListOutcome(
            code=settings.code,
            as_of=as_of,
            entries=tuple(entries),
            excluded=tuple(excluded),
            counted=tuple(now),
            maxk=total.maxk,
            unlisted=tuple(sorted(unlisted)),
        )

    def player_entries(
        self, *, as_of: date, tournaments: Sequence[RatedTournament], ranks: Mapping[str, int]
    ) -> dict[str, Entry]:
        """:func:`player_entries`, keeping the tournaments' validation, eligibility and coefficients for the next call.

        It does not touch the list the state keeps for :meth:`compute`.
        """
        settings = self.settings
        countries = self._countries
        _excluded, now = self._count(as_of, tournaments)
        asked = {player for player in ranks if is_rated(player, settings, countries)}
        candidates: list[MaxKCandidate] = []
        raws: dict[str, list[RawScore]] = {}
        for tournament, a in now.values():
            results = tournament.results
            # MAXK needs every tournament that has a rated player, whoever is asked for (see :meth:`compute`).
            if not any(is_rated(result.player, settings, countries) for result in results):
                continue
            coefficients = self._coefficients_of(tournament)
            candidates.append(maxk_candidate(tournament, a, coefficients))
            mine = [result for result in results if result.player in asked]
            if mine:
                for player, raw in tournament_raws(tournament, a, coefficients, settings, countries, mine):
                    raws.setdefault(player, []).append(raw)
        total = maxk_total(candidates, settings)
        entries: dict[str, Entry] = {}
        for player, rank in ranks.items():
            found = raws.get(player)
            if found is None or len(found) < settings.min_tournaments:
                continue
            part = player_part(player, self._names.get(player, player), found, settings)
            _, entry_fields = player_finish(part, total, settings)
            entries[player] = build_frozen(Entry, entry_fields, rank=rank)
        return entries


def player_entries(
    *,
    settings: ListSettings,
    as_of: date,
    tournaments: Sequence[RatedTournament],
    players: Iterable[PlayerInfo] = (),
    ranks: Mapping[str, int],
) -> dict[str, Entry]:
    """The entries of the players in ``ranks`` (player id -> their rank, which the caller knows) as
    :func:`compute_list` gives them as of ``as_of``; a player who is not listed on that date (fewer than the
    minimum of counted tournaments, or no results) is absent from the answer.

    A player's entry depends on the others only through MAXK (the list's tournaments with a rated player) and the
    rank, so it costs the tournaments' validation, eligibility and coefficients plus the asked players' results,
    not every player's part A: a page can show one player's explanation without the whole list being stored.
    The inputs are those of :func:`compute_list`, validated the same way.
    """
    return ListState(settings=settings, players=players).player_entries(
        as_of=as_of, tournaments=tournaments, ranks=ranks
    )


def compute_list(
    *,
    settings: ListSettings,
    as_of: date,
    tournaments: Sequence[RatedTournament],
    players: Iterable[PlayerInfo] = (),
) -> ListOutcome:
    """The list as of ``as_of``: every listed player's rating, parts, chosen tournaments and numbers.

    ``players`` gives countries and names; a player id found only in results is of the list's country and is named
    by the id. Tournaments may be the whole history: those that do not count are returned as excluded with their
    reasons, including "older than two years" and "ends after the rating date". For many dates of one list,
    :class:`ListState` gives the same lists, recomputing only what changed from one date to the next.
    """
    return ListState(settings=settings, players=players).compute(as_of=as_of, tournaments=tournaments)
