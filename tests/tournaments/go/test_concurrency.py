"""Two people entering results for the same round at once lose nothing (PostgreSQL: the round row is locked)."""

import threading

import pytest
from django.db import connection

from tournaments.go import services
from tournaments.go.models import Board, Round

from .helpers import today


def _tournament(players: int):
    from tests.factories import organiser

    user = organiser()
    go = services.go_tournament_create(
        user=user,
        name="Race",
        start_date=today(),
        end_date=today(),
        system="fus",
        rounds=3,
        half_stone=True,
        acceleration=True,
    )
    for i in range(players):
        services.go_registration_add(go=go, name=f"Player {i}", rating=2000 - 10 * i)
    rnd = services.go_round_pair(go=go)
    services.go_round_publish(round=rnd)
    return rnd


def _race(jobs):
    barrier = threading.Barrier(len(jobs))
    errors: list[Exception] = []
    outcomes: list[str] = []

    def run(job):
        try:
            barrier.wait()
            job()
            outcomes.append("ok")
        except services.GoError as error:
            outcomes.append(error.message)
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_results_entered_at_once_for_one_round_are_all_kept(postgres):
    rnd = _tournament(8)
    numbers = list(Board.objects.filter(round=rnd).values_list("number", flat=True))
    assert len(numbers) == 4
    jobs = [
        (lambda n=n: services.go_result_enter(round=Round.objects.get(pk=rnd.pk), board_number=n, result="white"))
        for n in numbers
    ]
    assert _race(jobs) == ["ok"] * 4
    assert set(Board.objects.filter(round=rnd).values_list("result", flat=True)) == {"white"}
    rnd.refresh_from_db()
    assert rnd.completed
    assert rnd.standings.count() == 8


@pytest.mark.django_db(transaction=True)
def test_two_results_for_one_board_at_once_keep_the_first(postgres):
    rnd = _tournament(2)
    jobs = [
        lambda: services.go_result_enter(round=Round.objects.get(pk=rnd.pk), board_number=1, result="white"),
        lambda: services.go_result_enter(round=Round.objects.get(pk=rnd.pk), board_number=1, result="black"),
    ]
    outcomes = _race(jobs)
    assert sorted(outcomes)[0].startswith("Board 1 already has a result")
    assert outcomes.count("ok") == 1
    board = Board.objects.get(round=rnd)
    assert board.version == 1
