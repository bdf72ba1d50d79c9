"""Go on the site under load: a 500-player self-handicap tournament with four rounds played.

Targets, each through the pages (the Django test client, end to end, rows saved): "pair next round" (a POST),
publishing the round and the crosstable of the 500 players each in under 1 s (issue 18; pairing was 3 s in issue
6); entering one board's result on the fast entry page (its JSON POST) in under 100 ms at the median (issue 18);
the standings page in under 150 ms at the median (issue 6). PostgreSQL: the
configured connection when Django is already set up on PostgreSQL (``make bench`` runs modules in one process),
else ``DATABASE_URL`` when it is a postgres URL, else a ``bench_go_site`` database created when missing. The
tournament is loaded once and reused while it is complete; the measured round is removed again afterwards.

    python -m bench.bench_go_site
"""

from __future__ import annotations

import datetime
import statistics
import time

from bench._postgres import setup_django

PLAYERS = 500
ROUNDS_PLAYED = 4
NAME = "Bench Go 500"
PAIR_TARGET = 1.0
PUBLISH_TARGET = 1.0
CROSSTABLE_TARGET = 1.0
ENTRY_TARGET = 0.100
STANDINGS_TARGET = 0.150
ENTRIES = 40
REQUESTS = 30
WARM_UP = 3


def _setup() -> None:
    setup_django("bench_go_site")


def _director():
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(
        username="bench-go-director", defaults={"is_staff": True, "is_superuser": True}
    )
    return user


def _tournament():
    """The tournament with four rounds played, loaded through the services (results: the higher board wins)."""
    from tournaments.go import services
    from tournaments.go.models import GoTournament, Registration

    go = GoTournament.objects.filter(tournament__name=NAME).first()
    if go is not None:
        complete = go.rounds.filter(number__lte=ROUNDS_PLAYED, completed=True).count() == ROUNDS_PLAYED
        if complete and Registration.objects.filter(tournament=go).count() == PLAYERS:
            go.rounds.filter(number__gt=ROUNDS_PLAYED).delete()
            return go
        go.rounds.all().delete()
        go.registrations.all().delete()
        tournament = go.tournament
        go.delete()
        tournament.delete()
    day = datetime.date(2026, 3, 7)
    go = services.go_tournament_create(
        user=_director(),
        name=NAME,
        start_date=day,
        end_date=day,
        system="fus",
        rounds=7,
        half_stone=True,
        acceleration=True,
    )
    Registration.objects.bulk_create(
        [
            Registration(
                tournament=go,
                name=f"Player {i:03d}",
                name_latin=f"Player {i:03d}",
                rating=2600 - (i * 2600) // PLAYERS,
                rating_source="typed",
            )
            for i in range(PLAYERS)
        ]
    )
    for _ in range(ROUNDS_PLAYED):
        rnd = services.go_round_pair(go=go)
        services.go_round_publish(go_round=rnd)
        for k, number in enumerate(rnd.boards.order_by("number").values_list("number", flat=True)):
            services.go_result_enter(go_round=rnd, board_number=number, result="white" if k % 3 else "black")
    return go


def _timed(call) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def run() -> list[dict]:
    _setup()
    from django.test import Client

    from tournaments.go.models import Board

    go = _tournament()
    client = Client()
    client.force_login(_director())
    number = ROUNDS_PLAYED + 1
    pair_seconds, response = _timed(lambda: client.post(f"/en/go/{go.pk}/pair/"))
    if response.status_code != 302:
        raise RuntimeError(f"pairing answered {response.status_code}")
    boards = Board.objects.filter(round__tournament=go, round__number=number).count()
    edit = f"/en/go/{go.pk}/rounds/{number}/edit/"
    publish_seconds, response = _timed(lambda: client.post(edit, {"action": "publish"}))
    if response.status_code != 302:
        raise RuntimeError(f"publishing answered {response.status_code}")
    entry_times = []
    url = f"/en/go/{go.pk}/rounds/{number}/result.json"
    for board in range(1, ENTRIES + 1):
        seconds, response = _timed(lambda board=board: client.post(url, {"board": board, "result": "white"}))
        if response.status_code != 200:
            raise RuntimeError(f"result entry answered {response.status_code}: {response.content[:200]!r}")
        entry_times.append(seconds)
    go.rounds.filter(number__gt=ROUNDS_PLAYED).delete()
    crosstable_url = f"/en/go/{go.pk}/crosstable/"
    client.get(crosstable_url)
    crosstable_times = []
    for _ in range(5):
        seconds, page = _timed(lambda: client.get(crosstable_url))
        if page.status_code != 200:
            raise RuntimeError(f"crosstable answered {page.status_code}")
        crosstable_times.append(seconds)

    anonymous = Client()
    url = f"/en/go/{go.pk}/standings/"
    for _ in range(WARM_UP):
        anonymous.get(url)
    times = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        page = anonymous.get(url)
        times.append(time.perf_counter() - started)
        if page.status_code != 200:
            raise RuntimeError(f"standings answered {page.status_code}")
    return [
        {
            "name": "go: pair next round, 500 players (POST)",
            "seconds": pair_seconds,
            "target": PAIR_TARGET,
            "detail": f"round {number}, {boards} boards saved",
        },
        {
            "name": "go: publish the round, 500 players (POST)",
            "seconds": publish_seconds,
            "target": PUBLISH_TARGET,
            "detail": f"round {number}, {boards} boards",
        },
        {
            "name": "go: enter one board's result (JSON POST, median)",
            "seconds": statistics.median(entry_times),
            "target": ENTRY_TARGET,
            "detail": f"{ENTRIES} boards of {boards}, max {max(entry_times) * 1000:.0f} ms",
        },
        {
            "name": "go: crosstable page, 500 players x 4 rounds (median)",
            "seconds": statistics.median(crosstable_times),
            "target": CROSSTABLE_TARGET,
            "detail": f"5 requests, max {max(crosstable_times) * 1000:.0f} ms",
        },
        {
            "name": "go: standings page, 500 players (median)",
            "seconds": statistics.median(times),
            "target": STANDINGS_TARGET,
            "detail": f"{REQUESTS} requests, max {max(times) * 1000:.0f} ms",
        },
    ]


if __name__ == "__main__":
    for row in run():
        print(f"{row['name']:<45} {row['seconds']:.3f}s (target {row['target']:.3f}s) {row['detail']}")
