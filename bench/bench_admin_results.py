"""A 500-player championship in the admin (issue 15): the tournament's change page and the results editor, each under
1 s at the median with the same number of queries as with 10 results, and saving one corrected result under 1 s.

Runs on PostgreSQL (``bench_admin_results`` unless ``DATABASE_URL`` names one) with 5,000 players in the registry;
measured as federation staff through Django's test client (the whole admin stack, templates included).

    python -m bench admin_results
"""

from __future__ import annotations

import statistics
import time

from bench._postgres import setup_django

TARGET_SECONDS = 1.0
REGISTRY = 5_000
BIG, SMALL = 500, 10
REQUESTS = 15
WARM_UP = 2


def _load():
    from django.db import connection, transaction

    from federation.models import Club, Player
    from tournaments.models import Result, Tournament, TournamentStatus

    with transaction.atomic():
        with connection.cursor() as cursor:
            tables = [Result._meta.db_table, Tournament.judges.through._meta.db_table, Tournament._meta.db_table]
            tables += [Player._meta.db_table, Club._meta.db_table]
            cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")
        clubs = Club.objects.bulk_create([Club(name=f"Клуб {n}", city="Тверь") for n in range(50)])
        players = []
        for n in range(REGISTRY):
            player = Player(
                last_name=f"Игроков{n:05d}",
                first_name="Иван" if n % 3 else "Пётр",
                last_name_latin=f"Igrokov{n:05d}",
                first_name_latin="Ivan" if n % 3 else "Petr",
                city="Тверь" if n % 2 else "Москва",
                club=clubs[n % 50] if n % 4 else None,
            )
            player.fill_search_name()
            players.append(player)
        players = Player.objects.bulk_create(players, batch_size=2000)
        tournaments = {}
        for size in (BIG, SMALL):
            tournament = Tournament.objects.create(
                discipline="ccg",
                name=f"Чемпионат на {size}",
                start_date="2026-11-28",
                end_date="2026-11-28",
                city="Тверь",
                status=TournamentStatus.DRAFT,
                card_format="constructed",
                k=4,
            )
            Result.objects.bulk_create(
                [Result(tournament=tournament, player=p, place=i + 1) for i, p in enumerate(players[:size])]
            )
            tournaments[size] = tournament
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return tournaments


def _staff():
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from federation.roles import FEDERATION_STAFF

    user, _created = get_user_model().objects.get_or_create(username="bench-staff", defaults={"is_staff": True})
    user.groups.add(Group.objects.get(name=FEDERATION_STAFF))
    return user


def _measure(client, url: str) -> tuple[float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(WARM_UP):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
    timings = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        client.get(url)
        timings.append(time.perf_counter() - started)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return statistics.median(timings), len(queries)


def _save_one(client, tournament) -> tuple[float, int]:
    """Correct one result on page 5 of the editor (swap two players), as the page posts it; median of the saves."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.models import Result
    from tournaments.results_editor import PAGE_SIZE

    url = f"/admin/tournaments/tournament/{tournament.pk}/results/?page=5"
    timings, queries = [], 0
    for attempt in range(REQUESTS):
        rows = list(Result.objects.filter(tournament=tournament).order_by("place", "id")[4 * PAGE_SIZE : 5 * PAGE_SIZE])
        data = {"form-TOTAL_FORMS": str(len(rows)), "form-INITIAL_FORMS": str(len(rows))}
        for i, row in enumerate(rows):
            data.update({f"form-{i}-id": row.pk, f"form-{i}-place": row.place, f"form-{i}-player": row.player_id})
            data[f"form-{i}-participant_name"] = ""
        a, b = (attempt % 10) * 2, (attempt % 10) * 2 + 1
        data[f"form-{a}-player"], data[f"form-{b}-player"] = rows[b].player_id, rows[a].player_id
        # Two rows may not hold one player even for a moment: the page sends both, the save writes both at once.
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.post(url, data)
            timings.append(time.perf_counter() - started)
        assert response.status_code == 302, response.content.decode()[:2000]
        queries = len(captured)
    return statistics.median(timings), queries


def run() -> list[dict]:
    setup_django("bench_admin_results")
    from django.test import Client

    tournaments = _load()
    client = Client()
    client.force_login(_staff())
    rows = []
    pages = [
        ("admin: tournament change page", "/admin/tournaments/tournament/{pk}/change/", ""),
        ("admin: results editor, page 1", "/admin/tournaments/tournament/{pk}/results/", ""),
        ("admin: results editor, last page", "/admin/tournaments/tournament/{pk}/results/?page=10", "?page=1"),
    ]
    for name, template, small_suffix in pages:
        big_url = template.format(pk=tournaments[BIG].pk)
        small_url = template.format(pk=tournaments[SMALL].pk).split("?")[0] + small_suffix
        big, big_queries = _measure(client, big_url)
        small, small_queries = _measure(client, small_url)
        same = "same" if big_queries == small_queries else "DIFFERENT"
        rows.append(
            {
                "name": f"{name}, {BIG} results",
                "seconds": round(big, 4),
                "target": TARGET_SECONDS,
                "detail": f"queries {big_queries}, with {SMALL} results {small_queries} ({same}); "
                f"{SMALL} results: {small * 1000:.0f} ms",
            }
        )
    seconds, queries = _save_one(client, tournaments[BIG])
    rows.append(
        {
            "name": f"admin: save a corrected result, {BIG} results",
            "seconds": round(seconds, 4),
            "target": TARGET_SECONDS,
            "detail": f"a page of 50 rows posted, 2 rows changed; queries {queries}",
        }
    )
    return rows


if __name__ == "__main__":
    for row in run():
        print(row)
