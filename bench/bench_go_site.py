"""Go on the site under load: a 500-player self-handicap tournament with four rounds played.

Targets (issue 6): "pair next round" from the page (a POST through the Django test client, end to end, boards
saved) in under 3 s; the standings page of that tournament in under 150 ms at the median. PostgreSQL: the
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
PAIR_TARGET = 3.0
STANDINGS_TARGET = 0.150
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


def run() -> list[dict]:
    _setup()
    from django.test import Client

    from tournaments.go.models import Board

    go = _tournament()
    client = Client()
    client.force_login(_director())
    started = time.perf_counter()
    response = client.post(f"/en/go/{go.pk}/pair/")
    pair_seconds = time.perf_counter() - started
    if response.status_code != 302:
        raise RuntimeError(f"pairing answered {response.status_code}")
    boards = Board.objects.filter(round__tournament=go, round__number=ROUNDS_PLAYED + 1).count()
    go.rounds.filter(number__gt=ROUNDS_PLAYED).delete()

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
            "detail": f"round {ROUNDS_PLAYED + 1}, {boards} boards saved",
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
