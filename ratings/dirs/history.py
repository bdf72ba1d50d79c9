"""The DIRS club history in and out as a ``dirs`` document of ``manage.py rate`` (``ratings.history``).

A ``dirs`` document is the starting ratings (and accelerations) and the games in the order played; the site rates
them one by one in that order, as ``dirs_game_record`` does, and stores every game, rated or not, with its reason:
a historical game of any handicap is recorded (10 stones or more: never rated, as ``rate`` says).

**Decisions** where the issue is silent:
- Games have no ids in the format, so a second import is recognised by order: the site's games must be the first
  games of the document (same players, winner, handicap and komi), and only the games after them are added. A
  document that disagrees with the site's history is refused at the first game that differs.
- A player the site already rates must start in the document from the rating the site started them from
  (``initial_rating``, and the carried-over acceleration), since the site's games were rated from it.
- A game's optional ``date`` dates it; without one it takes the previous game's date, then ``ratings_date``, then
  today. ``club`` is not part of the format; imported games have none.
- A player new to DIRS gets a DIRS rating whose declared rank is the label of their starting rating.

Each batch is rated in memory from one locked read of its players' states and written in bulk
(``ratings.bulk``: the games by ``COPY``, the states by one ``UPDATE``), with no query per game.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from federation import versions
from federation.models import Player
from ratings.bulk import copy_rows, update_rows
from ratings.engines import dirs
from ratings.engines.common import EngineError, FieldError
from ratings.engines.parse import parse_date
from ratings.history import (
    ID_MAX,
    HistoryError,
    ImportReport,
    parse_people,
    parse_ratings_date,
    people_entries,
    player_ids_map,
    players_ensure,
)
from ratings.models import Engine, RatingList, StartingRating
from ratings.progress import Progress

from .models import DirsGame, DirsRating
from .services import game_outcome_fields

BATCH = 5000
RATING_COLUMNS = (
    "player_id",
    "rating",
    "acceleration",
    "initial_rating",
    "declared_rank",
    "club_id",
    "games",
    "updated_at",
)
STARTING_COLUMNS = (
    "rating_list_id",
    "player_id",
    "list_date",
    "rating",
    "acceleration",
    "league",
    "recorded_by_id",
    "recorded_at",
)

Game = tuple[str, str, str, int, str]  # white, black, winner ("white" / "black"), handicap, komi


def _site_history() -> tuple[list[Game], dict[str, tuple[int, int]]]:
    """The site's games in the order rated (as document ids) and every rated player's starting point."""
    starting_acceleration = dict(
        StartingRating.objects.filter(rating_list__engine=Engine.DIRS, acceleration__isnull=False).values_list(
            "player_id", "acceleration"
        )
    )
    rows = list(DirsRating.objects.values_list("player_id", "initial_rating"))
    games = list(DirsGame.objects.order_by("id").values_list("white_id", "black_id", "winner", "handicap", "komi"))
    ids = player_ids_map([pk for pk, _r in rows] + [p for g in games for p in g[:2]])
    starts = {ids[pk]: (rating, starting_acceleration.get(pk, 0)) for pk, rating in rows}
    return [(ids[w], ids[b], winner, handicap, komi) for w, b, winner, handicap, komi in games], starts


def _check(doc: Any) -> dict[str, Any]:
    errors: list[FieldError] = list(dirs.document_errors(doc))
    if not isinstance(doc, dict):
        raise HistoryError(errors)
    people = parse_people(doc, errors)
    ratings_date = parse_ratings_date(doc, errors)
    dates: list[dt.date | None] = []
    raw_games = doc.get("games", []) if isinstance(doc.get("games", []), list) else []
    for index, raw in enumerate(raw_games):
        value = raw.get("date") if isinstance(raw, dict) else None
        if value is None:
            dates.append(None)
            continue
        try:
            dates.append(parse_date(value, f"games[{index}].date"))
        except EngineError as error:
            errors.append(error)
            dates.append(None)
    for key in ("ratings", "accelerations"):
        values = doc.get(key, {})
        for person in values if isinstance(values, dict) else {}:
            if len(person) > ID_MAX:
                errors.append(EngineError(f"{key}.{person[:20]}…", f"a player id is longer than {ID_MAX} characters"))
    for index, raw in enumerate(raw_games):
        for side in ("white", "black"):
            person = raw.get(side) if isinstance(raw, dict) else None
            if isinstance(person, str) and len(person) > ID_MAX:
                errors.append(EngineError(f"games[{index}].{side}", f"longer than {ID_MAX} characters"))
    if errors:
        raise HistoryError(errors)
    ratings = {p: int(v) for p, v in doc.get("ratings", {}).items()}
    accelerations = {p: int(v) for p, v in doc.get("accelerations", {}).items()}
    games: list[Game] = []
    for raw in raw_games:
        white, black = raw["white"], raw["black"]
        colour = "white" if raw["winner"] == white else "black"
        games.append((white, black, colour, int(raw.get("handicap", 0)), raw.get("komi", dirs.KOMI_NORMAL)))
    named = list(dict.fromkeys([*ratings, *accelerations, *(p for g in games for p in g[:2])]))
    site_games, site_starts = _site_history()
    for index, game in enumerate(site_games):
        if index >= len(games):
            errors.append(EngineError("games", f"the site holds {len(site_games)} games, the document {len(games)}"))
            break
        if games[index] != game:
            errors.append(
                EngineError(f"games[{index}]", "differs from the site's game in that place; the site's history is kept")
            )
            break
    for person_id in named:
        if person_id in site_starts:
            start = (ratings.get(person_id, dirs.START_RATING), accelerations.get(person_id, 0))
            if start != site_starts[person_id]:
                rating, acceleration = site_starts[person_id]
                errors.append(
                    EngineError(
                        f"ratings.{person_id}",
                        f"the site started this player at {rating:03d} (acceleration {acceleration}), "
                        f"not {start[0]:03d} (acceleration {start[1]})",
                    )
                )
    if errors:
        raise HistoryError(errors)
    return {
        "ratings": ratings,
        "accelerations": accelerations,
        "games": games,
        "dates": dates,
        "named": named,
        "people": people,
        "ratings_date": ratings_date,
        "known_games": len(site_games),
        "known_players": set(site_starts),
    }


def dirs_history_check(*, doc: dict[str, Any], rating_list: RatingList) -> dict[str, int]:
    plan = _check(doc)
    return {
        "players": len(plan["named"]),
        "starting ratings": len(set(plan["ratings"]) | set(plan["accelerations"])),
        "games": len(plan["games"]),
        "new games": len(plan["games"]) - plan["known_games"],
    }


def dirs_history_import(
    *,
    doc: dict[str, Any],
    rating_list: RatingList,
    user: AbstractBaseUser | None = None,
    progress: Progress | None = None,
) -> ImportReport:
    """Load a ``dirs`` document: players, starting ratings, then the new games rated in order (see module)."""
    plan = _check(doc)
    report = ImportReport("dirs")
    players, created = players_ensure(plan["named"], plan["people"])
    versions.changed(Player)  # created in bulk
    report.add("players", created, len(plan["named"]) - created)
    user_id = user.pk if user is not None and user.is_authenticated else None
    today = timezone.localdate()
    list_date = plan["ratings_date"] or next((d for d in plan["dates"] if d), today) - dt.timedelta(days=1)
    new_players = [p for p in plan["named"] if p not in plan["known_players"]]
    now = timezone.now()
    with transaction.atomic():
        clubs = dict(Player.objects.filter(pk__in=[players[p] for p in new_players]).values_list("pk", "club_id"))
        rows = []
        for person_id in new_players:
            rating = plan["ratings"].get(person_id, dirs.START_RATING)
            acceleration = plan["accelerations"].get(person_id, 0)
            pk = players[person_id]
            rows.append((pk, rating, acceleration, rating, dirs.rank_of(rating).short, clubs.get(pk), 0, now))
        copy_rows(DirsRating, RATING_COLUMNS, rows)
        carried = [p for p in new_players if p in plan["ratings"] or p in plan["accelerations"]]
        copy_rows(
            StartingRating,
            STARTING_COLUMNS,
            (
                (
                    rating_list.pk,
                    players[p],
                    list_date,
                    plan["ratings"].get(p, dirs.START_RATING),
                    plan["accelerations"].get(p, 0),
                    "",
                    user_id,
                    now,
                )
                for p in carried
            ),
        )
    report.add("DIRS ratings", len(rows), len(plan["named"]) - len(rows))
    report.add("starting ratings", len(carried))
    games, dates = plan["games"], plan["dates"]
    start = plan["known_games"]
    report.add("games", 0, start)
    date = plan["ratings_date"] or today
    for index in range(start):
        date = dates[index] or date
    for first in range(start, len(games), BATCH):
        last = min(first + BATCH, len(games))
        if progress:
            progress(first - start, len(games) - start, f"games {first + 1}-{last}")
        with transaction.atomic():
            date = _rate_batch(games, dates, first, last, players, date, user_id)
        report.add("games", last - first)
    if progress:
        progress(len(games) - start, len(games) - start, "done")
    return report


#: The columns of a game as the import writes them (``copy_rows``), in the order ``_rate_batch`` builds them.
GAME_COLUMNS = (
    "date",
    "white_id",
    "black_id",
    "handicap",
    "komi",
    "winner",
    "rated",
    "reason_en",
    "reason_ru",
    "explanation_en",
    "explanation_ru",
    "white_before",
    "black_before",
    "white_after",
    "black_after",
    "white_acceleration_before",
    "black_acceleration_before",
    "white_acceleration_after",
    "black_acceleration_after",
    "entered_by_id",
    "entered_at",
)


def _rate_batch(games, dates, first, last, players, date, user_id) -> dt.date:
    """Rate games ``first``..``last`` in order and write them in bulk: one read of the players' states (locked),
    one ``COPY`` of the games, one ``UPDATE`` of the states (``ratings.bulk``); no query per game."""
    involved = {players[p] for g in games[first:last] for p in g[:2]}
    states = {
        pk: [rating, acceleration, count]
        for pk, rating, acceleration, count in DirsRating.objects.select_for_update()
        .filter(player_id__in=involved)
        .values_list("player_id", "rating", "acceleration", "games")
    }
    now = timezone.now()
    rows = []
    for index in range(first, last):
        white_id, black_id, winner, handicap, komi = games[index]
        white_pk, black_pk = players[white_id], players[black_id]
        white, black = states[white_pk], states[black_pk]
        date = dates[index] or date
        white_before, black_before = dirs.DirsPlayer(white[0], white[1]), dirs.DirsPlayer(black[0], black[1])
        outcome = dirs.rate_game(white_before, black_before, winner=winner, handicap=handicap, komi=komi)
        fields = game_outcome_fields(outcome, white_before, black_before)
        outcome_values = [fields[name] for name in GAME_COLUMNS[6:19]]
        rows.append((date, white_pk, black_pk, handicap, komi, winner, *outcome_values, user_id, now))
        for state, after in ((white, outcome.white_after), (black, outcome.black_after)):
            state[0], state[1] = after.rating, after.acceleration
            if outcome.rated:
                state[2] += 1
    copy_rows(DirsGame, GAME_COLUMNS, rows)
    update_rows(
        DirsRating,
        "player_id",
        ("rating", "acceleration", "games", "updated_at"),
        [(pk, *state, now) for pk, state in states.items()],
    )
    return date


def dirs_history_export(*, rating_list: RatingList) -> dict[str, Any]:
    """The club history as a ``dirs`` document: every rated player's starting point and every game in order."""
    starting = StartingRating.objects.filter(rating_list__engine=Engine.DIRS)
    list_dates = list(starting.values_list("list_date", flat=True))
    accelerations = dict(starting.filter(acceleration__gt=0).values_list("player_id", "acceleration"))
    rows = list(DirsRating.objects.order_by("player_id").values_list("player_id", "initial_rating"))
    games = list(
        DirsGame.objects.order_by("id").values_list("white_id", "black_id", "winner", "handicap", "komi", "date")
    )
    pks = [pk for pk, _r in rows] + [p for g in games for p in g[:2]]
    ids = player_ids_map(pks)
    doc: dict[str, Any] = {"system": "dirs"}
    if list_dates:
        doc["ratings_date"] = min(list_dates).isoformat()
    doc["ratings"] = dict(sorted((ids[pk], rating) for pk, rating in rows))
    doc["accelerations"] = dict(sorted((ids[pk], value) for pk, value in accelerations.items()))
    doc["players"] = people_entries(pks)
    doc["games"] = [
        {
            "white": ids[w],
            "black": ids[b],
            "winner": ids[w] if winner == "white" else ids[b],
            "handicap": handicap,
            "komi": komi,
            "date": date.isoformat(),
        }
        for w, b, winner, handicap, komi, date in games
    ]
    return doc


history_check = dirs_history_check
history_import = dirs_history_import
history_export = dirs_history_export


def list_document(*, rating_list: RatingList, as_of: dt.date | None = None) -> dict[str, Any]:
    from ratings.dirs.selectors import dirs_list_document

    return dirs_list_document(as_of=as_of)
