"""Gorbunov lists on PostgreSQL: the full rebuild, one weekly publication, and the list page.

Targets (issue 4): rebuilding ten years of weekly history (20,000 players, 300,000 results) in under 60 s and in no
more than 3x the time of only reading those results and writing the same rows with COPY (both measured here, the
ratio printed); one weekly publication with 100 new tournaments in under 2 s; the list page for 20,000 players in
under 100 ms at the median. The data (``bench.bench_gorbunov.make_tournaments``) is loaded once into the
``bench_gorbunov`` database (or DATABASE_URL when it is PostgreSQL) and reused while the counts match.

    python -m bench.bench_gorbunov_lists
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time

from bench._postgres import setup_django

SLUG = "bench-gorbunov"
PLAYERS = 20_000
REQUESTS = 30


def _setup() -> None:
    setup_django("bench_gorbunov")


def _ensure_data():
    """Players, tournaments and results of ``bench_gorbunov.make_tournaments``, loaded with COPY once."""
    from django.db import connection, transaction

    from bench.bench_gorbunov import make_tournaments
    from federation.models import Club, Player
    from ratings.gorbunov.params import validate
    from ratings.models import RatingList
    from tournaments.models import Result, Tournament

    made = make_tournaments()
    results = sum(len(t.results) for t in made)
    rating_list, _ = RatingList.objects.get_or_create(
        slug=SLUG,
        defaults={
            "name": "Горбунов (bench)",
            "name_en": "Gorbunov (bench)",
            "engine": "gorbunov",
            "params": validate({"sqrt_rule": True}),
        },
    )
    marker = "bench-gorbunov"
    if (
        Tournament.objects.filter(city=marker).count() == len(made)
        and Result.objects.filter(tournament__city=marker).count() == results
    ):
        return rating_list, made
    rng = random.Random(7)
    with transaction.atomic():
        Result.objects.filter(tournament__city=marker).delete()
        Tournament.objects.filter(city=marker).delete()
        clubs = [Club.objects.get_or_create(name=f"Клуб {i}", city=f"Город {i % 40}")[0] for i in range(200)]
        players = list(Player.objects.filter(city__startswith="Город ", is_bot=False).order_by("pk")[:PLAYERS])
        if len(players) < PLAYERS:
            new = []
            for i in range(len(players), PLAYERS):
                club = rng.choice(clubs)
                new.append(
                    Player(
                        last_name=f"Карточник{i}",
                        first_name="Игрок",
                        last_name_latin=f"Kartochnik{i}",
                        first_name_latin="Igrok",
                        city=club.city,
                        club=club,
                    )
                )
            for p in new:
                p.search_name = f"карточник{i} игрок kartochnik{i} igrok"
            Player.objects.bulk_create(new, batch_size=2000)
            players = list(Player.objects.filter(city__startswith="Город ", is_bot=False).order_by("pk")[:PLAYERS])
        pk_of = {f"p{i:05d}": p.pk for i, p in enumerate(players)}
        tournaments = Tournament.objects.bulk_create(
            [
                Tournament(
                    discipline="ccg",
                    name=f"Bench {t.id}",
                    start_date=t.date,
                    end_date=t.date,
                    city=marker,
                    status="approved",
                    card_format=t.format,
                    k=t.k,
                )
                for t in made
            ],
            batch_size=2000,
        )
        with (
            connection.cursor() as cursor,
            cursor.copy(
                "COPY tournaments_result (tournament_id, player_id, participant_name, place, substitute) FROM STDIN"
            ) as copy,
        ):
            for model, t in zip(tournaments, made, strict=True):
                for placement in t.results:
                    copy.write_row((model.pk, pk_of[placement.player], "", placement.place, False))
    return rating_list, made


def _baseline(rating_list) -> float:
    """Read the results as the rebuild does and write the same rows (entries, and changes with their explanation
    texts) with COPY into a scratch list, in a transaction that is rolled back: the floor for any rebuild."""
    from django.db import transaction

    from ratings.bulk import copy_rows
    from ratings.gorbunov.services import CHANGE_COLUMNS, ENTRY_COLUMNS, _eligible
    from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot
    from tournaments.models import Result

    entries = list(RatingEntry.objects.filter(snapshot__rating_list=rating_list).values_list(*ENTRY_COLUMNS))
    changes = list(RatingChange.objects.filter(rating_list=rating_list).values_list(*CHANGE_COLUMNS))
    weeks = list(RatingSnapshot.objects.filter(rating_list=rating_list).values_list("pk", "as_of"))
    with transaction.atomic():
        scratch = RatingList.objects.create(slug="bench-scratch", name="scratch", engine="gorbunov")
        started = time.perf_counter()
        eligible = _eligible(rating_list, dt.date(2100, 1, 1))
        heads = list(eligible.values_list("pk", "end_date", "k", "card_format"))
        results = list(
            Result.objects.filter(tournament__in=eligible.values("pk"))
            .order_by("tournament_id", "place", "pk")
            .values_list("tournament_id", "pk", "player_id", "place")
            .iterator(chunk_size=20_000)
        )
        made = RatingSnapshot.objects.bulk_create(
            [RatingSnapshot(rating_list=scratch, as_of=as_of, summary={}) for _pk, as_of in weeks]
        )
        new_id = {old: new.pk for (old, _as_of), new in zip(weeks, made, strict=True)}
        copy_rows(RatingEntry, ENTRY_COLUMNS, ((new_id[e[0]], *e[1:]) for e in entries))
        copy_rows(RatingChange, CHANGE_COLUMNS, ((scratch.pk, *c[1:3], new_id[c[3]], *c[4:]) for c in changes))
        RatingChange.objects.filter(rating_list=scratch).exists()
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # the foreign-key checks a commit would run
        seconds = time.perf_counter() - started
        transaction.set_rollback(True)
    assert heads
    assert results
    return seconds


def run() -> list[dict]:
    _setup()
    from django.db import transaction
    from django.test import Client

    from ratings.engines.gorbunov import week_start
    from ratings.gorbunov import services
    from ratings.models import RatingChange, RatingEntry, RatingSnapshot
    from tests.factories import ResultFactory, TournamentFactory  # noqa: F401 - factories need Django set up
    from tournaments.models import Result, Tournament

    started = time.perf_counter()
    rating_list, made = _ensure_data()
    load_seconds = time.perf_counter() - started
    results = sum(len(t.results) for t in made)
    rows: list[dict] = []

    # 1. the rebuild (deletes the list's history and writes it again, one transaction)
    if not RatingSnapshot.objects.filter(rating_list=rating_list).exists():
        last = max(t.date for t in made)
        RatingSnapshot.objects.create(rating_list=rating_list, as_of=week_start(last) + dt.timedelta(days=7))
    started = time.perf_counter()
    result = services.gorbunov_rebuild(rating_list_id=rating_list.pk)
    rebuild = time.perf_counter() - started
    n_entries = RatingEntry.objects.filter(snapshot__rating_list=rating_list).count()
    n_changes = RatingChange.objects.filter(rating_list=rating_list).count()
    baseline = _baseline(rating_list)
    ratio = rebuild / baseline
    rows.append(
        {
            "name": "gorbunov lists: rebuild ten years",
            "seconds": round(rebuild, 3),
            "target": 60.0,
            "detail": f"{len(result.weeks)} weeks, {len(made)} tournaments, {results} results, {n_entries} entries, "
            f"{n_changes} changes (data load {load_seconds:.1f} s)",
        }
    )
    rows.append(
        {
            "name": "gorbunov lists: rebuild / (read + COPY) ratio",
            "seconds": round(ratio, 3),
            "target": 3.0,
            "detail": f"read results and COPY the same rows: {baseline:.2f} s; rebuild {rebuild:.2f} s (ratio, not s)",
        }
    )

    # 2. one weekly publication with 100 new tournaments (rolled back afterwards)
    latest = RatingSnapshot.objects.filter(rating_list=rating_list).order_by("-as_of").first()
    rng = random.Random(3)
    player_ids = list(RatingEntry.objects.filter(snapshot=latest).values_list("player_id", flat=True))
    with transaction.atomic():
        new = Tournament.objects.bulk_create(
            [
                Tournament(
                    discipline="ccg",
                    name=f"New {i}",
                    start_date=latest.as_of + dt.timedelta(days=i % 7),
                    end_date=latest.as_of + dt.timedelta(days=i % 7),
                    city="bench-new",
                    status="approved",
                    card_format="constructed",
                    k=rng.choice((1, 2, 4)),
                )
                for i in range(100)
            ]
        )
        Result.objects.bulk_create(
            [
                Result(tournament=t, player_id=p, place=m)
                for t in new
                for m, p in enumerate(rng.sample(player_ids, rng.randint(4, 24)), start=1)
            ]
        )
        started = time.perf_counter()
        outcome = services.gorbunov_publish(rating_list_id=rating_list.pk, week=latest.as_of + dt.timedelta(days=7))
        weekly = time.perf_counter() - started
        transaction.set_rollback(True)
    rows.append(
        {
            "name": "gorbunov lists: weekly publication, 100 tournaments",
            "seconds": round(weekly, 3),
            "target": 2.0,
            "detail": f"{outcome.tournaments} tournaments, {outcome.changes} changes, {len(player_ids)} players listed",
        }
    )

    # 3. the list page for 20,000 players
    client = Client()
    url = f"/en/ratings/cards/{SLUG}/"
    for _ in range(3):
        assert client.get(url).status_code == 200
    times = []
    for i in range(REQUESTS):
        params = {"page": 1 + i % 5} if i % 2 else {}
        started = time.perf_counter()
        response = client.get(url, params)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200
    rows.append(
        {
            "name": "gorbunov lists: list page, 20,000 players (median)",
            "seconds": round(statistics.median(times), 4),
            "target": 0.100,
            "detail": f"{REQUESTS} requests, max {max(times) * 1000:.0f} ms",
        }
    )
    history = []
    for _ in range(5):
        started = time.perf_counter()
        assert client.get(url, {"week": "2020-W10"}).status_code == 200
        history.append(time.perf_counter() - started)
    rows.append(
        {
            "name": "gorbunov lists: list page of a past week (median)",
            "seconds": round(statistics.median(history), 4),
            "target": 0,
            "detail": "each player's newest entry up to that week (window function); no target",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
