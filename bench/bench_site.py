"""Public pages under load: the players list and a player's page with 20,000 players and 200,000 results.

The issue's target: each page renders in under 100 ms at the median and uses the same number of queries as with
10 rows. Runs against PostgreSQL (``DATABASE_URL`` when it is a postgres URL, otherwise a ``bench_site`` database on
the local server, created when missing). The data is loaded once and reused while the counts match.

    python -m bench.bench_site
"""

from __future__ import annotations

import datetime
import random
import statistics
import sys
import time

from bench._postgres import ensure_database, setup_django

PLAYERS = 20_000
TOURNAMENTS = 8_000
RESULTS = 200_000
TARGET_SECONDS = 0.100
REQUESTS = 30
WARM_UP = 3
#: Exactly ten players live here and one player has exactly ten results: the "10 rows" pages.
SMALL_CITY = "Малоярославец"
SEED = 20_000


def _setup() -> None:
    url = setup_django("bench_site")
    if not _schema_matches_models():
        # An initial migration rewritten before the first release leaves old tables behind; the bench database is
        # ours, so it is rebuilt rather than patched.
        from django.core.management import call_command
        from django.db import connection

        if not url.endswith("/bench_site"):
            raise RuntimeError("The database's tables do not match the models; migrate it or use another database.")
        connection.close()
        ensure_database(url, recreate=True)
        call_command("migrate", verbosity=0)


def _schema_matches_models() -> bool:
    from django.apps import apps
    from django.db import connection

    with connection.cursor() as cursor:
        for label in ("federation.Player", "tournaments.Tournament", "tournaments.Result"):
            model = apps.get_model(label)
            columns = {c.name for c in connection.introspection.get_table_description(cursor, model._meta.db_table)}
            if {f.column for f in model._meta.concrete_fields} - columns:
                return False
    return True


def _loaded() -> bool:
    from federation.models import Player
    from tournaments.models import Result, Tournament

    return (
        Player.objects.filter(is_bot=False).count() == PLAYERS
        and Player.objects.filter(city=SMALL_CITY).count() == 10
        and Tournament.objects.count() == TOURNAMENTS
        and Result.objects.count() == RESULTS
    )


def _load() -> float:
    """Players with bulk_create, results with COPY; returns the seconds it took."""
    from django.db import connection, transaction

    from federation.demo.names import CITIES, FEMALE_NAMES, MALE_NAMES, SURNAMES, feminine_surname, transliterate
    from federation.models import Club, Player
    from federation.services import player_tournament_counts_refresh
    from tournaments.models import Discipline, Result, Tournament, TournamentStatus

    started = time.perf_counter()
    rng = random.Random(SEED)
    tables = [Result._meta.db_table, Tournament.judges.through._meta.db_table, Tournament._meta.db_table]
    tables += [Player._meta.db_table, Club._meta.db_table]
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE " + ", ".join(tables) + " RESTART IDENTITY CASCADE")
        city_names, city_weights = zip(*CITIES, strict=True)
        clubs = Club.objects.bulk_create(
            [Club(name=f"Клуб {n}", city=rng.choices(city_names, city_weights)[0]) for n in range(200)]
        )
        players = []
        for n in range(PLAYERS):
            female = rng.random() < 0.25
            surname = rng.choice(SURNAMES)
            surname, first = (
                (feminine_surname(surname), rng.choice(FEMALE_NAMES)) if female else (surname, rng.choice(MALE_NAMES))
            )
            city = SMALL_CITY if n >= PLAYERS - 10 else rng.choices(city_names, city_weights)[0]
            player = Player(
                last_name=surname,
                first_name=first,
                last_name_latin=transliterate(surname),
                first_name_latin=transliterate(first),
                city=city,
                club=rng.choice(clubs) if rng.random() < 0.5 else None,
                country="RU" if rng.random() < 0.97 else rng.choice(["DE", "NL", "FR", "UA"]),
            )
            player.fill_search_name()
            players.append(player)
        Player.objects.bulk_create(players, batch_size=2000)
        ids = [p.pk for p in players]
        heavy, ten = ids[0], ids[1]
        regulars = ids[2:2002]  # a tenth of the players fill half the seats
        others = ids[2002:]
        disciplines = [Discipline.CARD_GAMES, Discipline.MAHJONG, Discipline.GO, Discipline.PREFERANS]
        first_day = datetime.date(2024, 1, 1)
        tournaments = []
        for n in range(TOURNAMENTS):
            day = first_day + datetime.timedelta(days=n * 1065 // TOURNAMENTS)
            tournaments.append(
                Tournament(
                    discipline=rng.choices(disciplines, [50, 25, 20, 5])[0],
                    name=f"Турнир {n + 1}",
                    start_date=day,
                    end_date=day,
                    city=rng.choices(city_names, city_weights)[0],
                    status=TournamentStatus.APPROVED if n % 50 else TournamentStatus.DRAFT,
                    k=1,
                )
            )
        Tournament.objects.bulk_create(tournaments, batch_size=2000)
        sizes = [RESULTS // TOURNAMENTS] * TOURNAMENTS
        for n in range(TOURNAMENTS // 2):  # 15..35 players, the total stays RESULTS
            delta = rng.randint(0, 10)
            sizes[2 * n] += delta
            sizes[2 * n + 1] -= delta
        columns = ["tournament_id", "player_id", "participant_name", "place", "hanchans_played", "substitute"]
        with connection.cursor() as cursor:
            copy_sql = f"COPY {Result._meta.db_table} ({', '.join(columns)}) FROM STDIN"
            with cursor.cursor.copy(copy_sql) as copy:
                for n, (tournament, size) in enumerate(zip(tournaments, sizes, strict=True)):
                    field = set()
                    if n % 8 == 0:
                        field.add(heavy)  # 1,000 results
                    if n % 800 == 1:
                        field.add(ten)  # exactly 10 results
                    field.update(rng.sample(regulars, size // 2))
                    while len(field) < size:
                        field.add(rng.choice(others))
                    seated = list(field)
                    rng.shuffle(seated)
                    for place, player_id in enumerate(seated, start=1):
                        copy.write_row((tournament.pk, player_id, "", place, None, False))
        player_tournament_counts_refresh()
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    return time.perf_counter() - started


def _measure(client, url: str) -> tuple[float, float, int]:
    """Median and 90th percentile over REQUESTS requests after a warm-up, and the number of queries of one."""
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
    timings.sort()
    return statistics.median(timings), timings[int(len(timings) * 0.9)], len(queries)


def run() -> list[dict]:
    _setup()
    from django.db.models import Count
    from django.test import Client

    from federation.models import Player

    if _loaded():
        print("bench_site: reusing the loaded data")
    else:
        print(f"bench_site: loading {PLAYERS} players, {TOURNAMENTS} tournaments, {RESULTS} results ...", flush=True)
        print(f"bench_site: loaded in {_load():.1f} s")
    counted = Player.objects.annotate(n=Count("results")).filter(is_bot=False)
    heavy = counted.order_by("-n", "pk").first()
    ten = counted.filter(n=10).order_by("pk").first()
    client = Client()
    # (name, url of the big page, url of the same page with 10 rows)
    pages = []
    for prefix, language in (("", "ru"), ("/en", "en")):
        small_list = f"{prefix}/players/?city={SMALL_CITY}"
        pages += [
            (f"players list, default sort ({language})", f"{prefix}/players/", small_list),
            (
                f"players list, searched+filtered+sorted ({language})",
                f"{prefix}/players/?q=ов&country=RU&sort=-tournament_count",
                small_list + "&sort=-tournament_count",
            ),
            (f"players list, page 300 ({language})", f"{prefix}/players/?page=300", small_list),
            (
                f"player page, {heavy.n} results ({language})",
                f"{prefix}/players/{heavy.pk}/",
                f"{prefix}/players/{ten.pk}/",
            ),
            (f"player page, {heavy.n} results, page 10 ({language})", f"{prefix}/players/{heavy.pk}/?page=10", None),
        ]
    rows = []
    for name, url, small_url in pages:
        median, p90, queries = _measure(client, url)
        detail = f"queries {queries}"
        if small_url:
            _, _, small_queries = _measure(client, small_url)
            detail += f", with 10 rows {small_queries}" + ("" if small_queries == queries else " (DIFFERENT)")
        detail += f"; p90 {p90 * 1000:.0f} ms; {url}"
        rows.append({"name": name, "seconds": round(median, 4), "target": TARGET_SECONDS, "detail": detail})
    return rows


def main() -> int:
    rows = run()
    width = max(len(row["name"]) for row in rows)
    print(f"{'page':<{width}}  median    target  ok  detail")
    for row in rows:
        ok = "yes" if row["seconds"] <= row["target"] else "NO"
        median, target = row["seconds"] * 1000, row["target"] * 1000
        print(f"{row['name']:<{width}}  {median:6.1f} ms {target:4.0f} ms  {ok:<3} {row['detail']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
