"""The home page says what happened (issue 28): each list's latest publication that changed something, with its
biggest gains and losses; a list's first week as a new list; never a row of zeros; the latest tournaments with their
winners."""

import datetime

import pytest
from django.core.cache import caches

from ratings.models import Engine, RatingEntry, RatingList, RatingSnapshot
from tests.factories import PlayerFactory, ResultFactory, TournamentFactory

pytestmark = pytest.mark.django_db

MONDAY = datetime.date(2026, 11, 2)


def _week(n: int) -> datetime.date:
    return MONDAY + datetime.timedelta(weeks=n)


@pytest.fixture
def lists():
    moved = RatingList.objects.create(slug="moved", name="Двигался", name_en="Moving", engine=Engine.GORBUNOV)
    fresh = RatingList.objects.create(slug="fresh", name="Новый", name_en="Fresh", engine=Engine.GORBUNOV)
    up, down, still = (PlayerFactory(last_name_latin=name) for name in ("Upov", "Downov", "Stillov"))
    weeks = [RatingSnapshot.objects.create(rating_list=moved, as_of=_week(n)) for n in range(3)]
    for player, rank in ((up, 1), (down, 2), (still, 3)):
        RatingEntry.objects.create(snapshot=weeks[0], player=player, rank=rank, rating=100, delta=None)
    RatingEntry.objects.create(snapshot=weeks[1], player=up, rank=1, rating=140, delta=40)
    RatingEntry.objects.create(snapshot=weeks[1], player=down, rank=3, rating=90, delta=-10)
    # The newest week moved nobody: it holds everyone with a change of 0.
    for player, rank, rating in ((up, 1, 140), (still, 2, 100), (down, 3, 90)):
        RatingEntry.objects.create(snapshot=weeks[2], player=player, rank=rank, rating=rating, delta=0)
    first = RatingSnapshot.objects.create(rating_list=fresh, as_of=_week(2))
    RatingEntry.objects.create(snapshot=first, player=still, rank=1, rating=120, delta=None)
    caches["default"].clear()
    return moved, fresh


def _publications(client, language="en") -> str:
    page = client.get("/en/" if language == "en" else "/").content.decode()
    return page.split('id="publications"', 1)[1].split("</ul>", 1)[0]


def test_the_latest_change_not_a_row_of_zeros(client, lists):
    shown = _publications(client)
    assert "0 players" not in shown
    moving = shown.split("Moving", 1)[1]
    assert "list of 09 Nov 2026" in moving or "list of 9 Nov 2026" in moving  # the week that moved, not the quiet one
    assert "2 players moved" in moving
    assert "Upov Ivan</a> +40" in moving
    assert "Biggest losses" in moving
    assert "Downov Ivan</a> -10" in moving


def test_a_lists_first_week_is_a_new_list(client, lists):
    shown = _publications(client)
    fresh = shown.split("Fresh", 1)[1].split("</li>", 1)[0]
    assert "new list" in fresh
    assert "1 player" in fresh
    assert "Stillov Ivan</a> 120" in fresh
    assert "+" not in fresh
    assert "новый список" in _publications(client, "ru")
    # Newest first: the fresh list's week is later than the moving list's last change.
    assert shown.index("Fresh") < shown.index("Moving")


def test_the_latest_tournaments_name_their_winners(client):
    tournament = TournamentFactory(name="Кубок победителей")
    ResultFactory(tournament=tournament, place=1, player=PlayerFactory(last_name="Первый", last_name_latin="Pervyi"))
    ResultFactory(tournament=tournament, place=2)
    page = client.get("/en/").content.decode()
    latest = page.split('id="latest"', 1)[1].split("</ul>", 1)[0]
    assert "Kubok pobeditelei" in latest  # the English page: Latin letters (issue 28)
    assert "winner" in latest
    assert "Pervyi Ivan" in latest


def test_the_home_page_reads_a_bounded_number_of_queries(client, lists, django_assert_max_num_queries):
    caches["default"].clear()
    # The page's own and, for each list, its publication, counts, gains and losses.
    with django_assert_max_num_queries(8 + 4 * 2):
        assert client.get("/").status_code == 200
