"""Two people entering results for the same round at once lose nothing (PostgreSQL: the round row is locked)."""

import threading

import pytest
from django.db import connection
from django.utils import translation

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
    services.go_round_publish(go_round=rnd)
    return rnd


def _race(jobs):
    barrier = threading.Barrier(len(jobs))
    errors: list[Exception] = []
    outcomes: list[str] = []

    def run(job):
        try:
            barrier.wait()
            with translation.override("en"):  # a thread starts in the default language
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
        (lambda n=n: services.go_result_enter(go_round=Round.objects.get(pk=rnd.pk), board_number=n, result="white"))
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
        lambda: services.go_result_enter(go_round=Round.objects.get(pk=rnd.pk), board_number=1, result="white"),
        lambda: services.go_result_enter(go_round=Round.objects.get(pk=rnd.pk), board_number=1, result="black"),
    ]
    outcomes = _race(jobs)
    assert sorted(outcomes)[0].startswith("Board 1 already has a result")
    assert outcomes.count("ok") == 1
    board = Board.objects.get(round=rnd)
    assert board.version == 1


@pytest.mark.django_db(transaction=True)
def test_a_correction_and_an_entry_at_once_lose_nothing(postgres):
    """Board 1 is corrected while board 2's result comes in: both are kept and the standings see both."""
    rnd = _tournament(4)
    services.go_result_enter(go_round=rnd, board_number=1, result="white")
    jobs = [
        lambda: services.go_result_correct(go_round=Round.objects.get(pk=rnd.pk), board_number=1, result="black"),
        lambda: services.go_result_enter(go_round=Round.objects.get(pk=rnd.pk), board_number=2, result="black"),
    ]
    assert _race(jobs) == ["ok", "ok"]
    assert list(Board.objects.filter(round=rnd).order_by("number").values_list("result", "version")) == [
        ("black", 2),
        ("black", 1),
    ]
    rnd.refresh_from_db()
    assert rnd.completed
    rows = {s.registration.name: (s.level, s.streak) for s in rnd.standings.select_related("registration")}
    # Start levels 40, 39, 39, 38 (ratings 2000, 1990, 1980, 1970): both black players won one point.
    boards = list(Board.objects.filter(round=rnd).select_related("white", "black").order_by("number"))
    for b in boards:
        assert rows[b.black.name] == (b.black_level + 1, 1)
        assert rows[b.white.name] == (b.white_level, 0)


@pytest.mark.django_db(transaction=True)
def test_two_corrections_of_one_board_at_once_keep_one(postgres):
    rnd = _tournament(2)
    services.go_result_enter(go_round=rnd, board_number=1, result="white")
    jobs = [
        lambda: services.go_result_correct(
            go_round=Round.objects.get(pk=rnd.pk), board_number=1, result="black", version=1
        ),
        lambda: services.go_result_correct(
            go_round=Round.objects.get(pk=rnd.pk), board_number=1, result="black_forfeit", version=1
        ),
    ]
    outcomes = _race(jobs)
    assert outcomes.count("ok") == 1
    assert [o for o in outcomes if o != "ok"] == ["Board 1 was changed meanwhile: reload the page."]
    board = Board.objects.get(round=rnd)
    assert board.version == 2
    assert board.result in ("black", "black_forfeit")
    rnd.refresh_from_db()
    assert len(rnd.overrides) == 1
    assert rnd.standings.count() == 2
