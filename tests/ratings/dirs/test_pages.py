"""The club's pages: the game form, the leaderboard with its CSV, a player's games and chart, the admin."""

import pytest
from django.contrib.auth.models import Permission

from ratings.dirs import services
from ratings.dirs.models import DirsGame, DirsRating
from ratings.dirs.sections import player_section
from tests.factories import ClubFactory, PlayerFactory, UserFactory, organiser

from .helpers import rated_player

pytestmark = pytest.mark.django_db

EN = "/en/go/dirs"


def test_the_game_form_leaderboard_and_chart(client):
    user = organiser()
    user.user_permissions.add(*Permission.objects.filter(codename__in=["add_dirsgame", "add_dirsrating"]))
    client.force_login(user)
    club = ClubFactory(name="Tengen")
    ann = rated_player("3k", last_name="Анна", last_name_latin="Anna", first_name_latin="A", club=club)
    bob = rated_player("5k", last_name="Боб", last_name_latin="Bob", first_name_latin="B")
    page = client.get(f"{EN}/games/new/")
    assert page.status_code == 200
    assert 'data-url="/en/go/dirs/handicap.json"' in page.content.decode()
    response = client.post(
        f"{EN}/games/new/",
        {
            "date": "2026-03-07",
            "club": club.pk,
            "white": ann.pk,
            "black": bob.pk,
            "handicap": 2,
            "komi": "reverse",
            "winner": "white",
        },
        follow=True,
    )
    assert "Rated:" in response.content.decode()
    response = client.post(
        f"{EN}/games/new/",
        {"date": "2026-03-08", "white": ann.pk, "black": bob.pk, "handicap": 0, "komi": "normal", "winner": "white"},
        follow=True,
    )
    assert "Recorded, not rated:" in response.content.decode()
    assert DirsGame.objects.count() == 2
    # The form proposes "2 stones, reverse komi" for 181 and 160 (d = 21).
    data = client.get(f"{EN}/handicap.json", {"a": 181, "b": 160}).json()
    assert (data["stones"], data["komi"], data["text"]) == (2, "reverse", "2 stones, reverse komi")
    page = client.get(f"{EN}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "Anna A" in text
    assert "3k" in text
    assert text.index("Anna A") < text.index("Bob B")
    csv = client.get(f"{EN}/", {"_export": "csv"}).content.decode()
    assert "Anna A" in csv
    page = client.get(f"{EN}/players/{ann.pk}/")
    assert page.status_code == 200
    assert 'id="dirs-chart"' in page.content.decode()
    assert '"y": 182.0' in page.content.decode()  # 180 + one step of 2, on the time axis (federation.charts)
    # The player page's DIRS section.
    html = player_section(page.wsgi_request, ann).html
    assert "182" in html
    assert player_section(page.wsgi_request, PlayerFactory()) is None


def test_the_handicap_json_names_the_bad_field(client):
    response = client.get(f"{EN}/handicap.json", {"a": 301, "b": 100})
    assert response.status_code == 400
    assert response.json() == {"errors": {"a": ["The DIRS scale ends at 300."]}}
    response = client.get(f"{EN}/handicap.json", {"a": "x", "b": 100})
    assert response.status_code == 400
    assert "a" in response.json()["errors"]
    assert client.get(f"{EN}/players/999999/").status_code == 404


def test_dirs_pages_need_permission(client):
    client.force_login(UserFactory())
    assert client.get(f"{EN}/games/new/").status_code == 403
    assert client.get(f"{EN}/ratings/new/").status_code == 403


def test_the_first_rating_form(client):
    user = organiser()
    client.force_login(user)
    newcomer = PlayerFactory()
    response = client.post(f"{EN}/ratings/new/", {"player": newcomer.pk, "rank": "strong"})
    assert "is not a rank" in response.content.decode()
    response = client.post(f"{EN}/ratings/new/", {"player": newcomer.pk, "rank": "4k"}, follow=True)
    assert "DIRS rating 170 set." in response.content.decode()
    assert DirsRating.objects.get(player=newcomer).rating == 170


def test_admin_pages(admin_client):
    a, b = PlayerFactory(), PlayerFactory()
    services.dirs_rating_set_initial(player=a, rank="1d")
    services.dirs_rating_set_initial(player=b, rank="1d")
    for name in ("dirsrating", "dirsgame"):
        assert admin_client.get(f"/en/admin/dirs/{name}/").status_code == 200
    assert admin_client.get("/en/admin/dirs/dirsgame/add/").status_code == 200


def test_admin_records_a_dirs_game(admin_client):
    a, b = PlayerFactory(), PlayerFactory()
    services.dirs_rating_set_initial(player=a, rank="1d")
    services.dirs_rating_set_initial(player=b, rank="1d")
    response = admin_client.post(
        "/en/admin/dirs/dirsgame/add/",
        {"date": "2026-03-07", "white": a.pk, "black": b.pk, "handicap": 0, "komi": "normal", "winner": "black"},
    )
    assert response.status_code == 302
    game = DirsGame.objects.get()
    assert game.rated
    assert (game.black_before, game.black_after) == (210, 211)


def _leaderboard(count: int) -> None:
    """``count`` rated players, half of them in a club, equal ratings among them."""
    club = ClubFactory(name="Тэнгэн")
    for n in range(count):
        player = PlayerFactory(last_name=f"Игрок{n:02d}", last_name_latin=f"Player{n:02d}", first_name_latin="P")
        DirsRating.objects.create(
            player=player,
            rating=100 + n // 2,
            initial_rating=100,
            declared_rank="11k",
            acceleration=n % 3,
            games=n,
            club=club if n % 2 else None,
        )


@pytest.mark.parametrize("count", [3, 40])
@pytest.mark.parametrize(
    "query", [{}, {"_export": "csv"}, {"_export": "xlsx"}, {"q": "Player0"}, {"sort": "club", "_export": "xlsx"}]
)
def test_the_leaderboard_and_its_downloads_read_a_few_queries_whatever_the_rows(
    client, django_assert_max_num_queries, count, query
):
    """The page, the CSV and the XLSX come from one table: the same few queries for 3 rows and for 40."""
    _leaderboard(count)
    with django_assert_max_num_queries(6):
        response = client.get(f"{EN}/", query)
    assert response.status_code == 200
    if query.get("_export") == "csv":
        assert response.content.decode("utf-8-sig").count("\r\n") == 1 + count
    elif not query:
        assert response.content.decode().count(f"{EN}/players/") == count


def test_the_leaderboard_shows_places_ranks_and_clubs_and_downloads_them_all(client):
    _leaderboard(60)
    first = client.get(f"{EN}/").content.decode()
    rows = first.split("<tbody>", 1)[1].split("</tbody>", 1)[0].split("</tr>")
    top = DirsRating.objects.get(player__last_name="Игрок58")
    assert rows[0] == (
        f'\n<tr><td class="text-end text-nowrap">1</td><td class="name"><a href="{EN}/players/{top.player_id}/">'
        'Player58 P</a></td><td class="col-rating text-end text-nowrap">129</td><td class="text-nowrap">9k</td>'
        '<td class="d-md-table-cell d-none text-end">1</td><td class="d-md-table-cell d-none text-end">58</td>'
        '<td class="d-md-table-cell d-none">—</td>'
    )
    assert '<td class="text-end text-nowrap">1</td>' in rows[1]  # an equal rating shares the place
    assert "Tengen" in rows[1]  # the club's name in Latin letters on the English page
    assert '<td class="text-end text-nowrap">3</td>' in rows[2]
    assert ">51</td>" in client.get(f"{EN}/", {"page": 2}).content.decode()
    csv = client.get(f"{EN}/", {"_export": "csv"}).content.decode("utf-8-sig").splitlines()
    assert csv[0] == "#,Player id,Player,DIRS,Kyu/dan,Acceleration,Games,Club"
    assert len(csv) == 61  # every row, not the page of 50
    assert csv[1] == f"1,{top.player_id},Player58 P,129,9k,1,58,"
    assert csv[60].startswith("59,")
    assert csv[60].endswith(",Player01 P,100,11k,1,1,Tengen")
