"""The English site in English (issue 28): a crawl of ``/en/`` over a federation whose every name is Cyrillic finds no
Cyrillic letter on any page, unless staff typed it into an English field.

The federation is the demo (players, clubs with «» in their names, cities, tournaments of every discipline, rating
lists, Go rounds, preferans games and bots) with every English field emptied, so the transliteration
(``federation.latin.display``) has to cover every name; then the same crawl with English names typed by staff, which
the pages must show as typed. The crawl follows every link within ``/en/``; pages of one shape (the same address
with other ids, another sort or page of a table) are asked a few times each, which keeps the run short and still
renders every template with its names.

The one Cyrillic word an English page may show is the language switcher's "Русский": a link marked ``lang="ru"``.
"""

import re
from collections import Counter
from html.parser import HTMLParser
from io import StringIO
from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
from django.core.management import call_command

from federation.models import CityName, Club, Player, SiteIdentity
from ratings.models import RatingList
from tournaments.go.models import Registration
from tournaments.models import Tournament, TournamentStatus

pytestmark = pytest.mark.django_db

LINK = re.compile(r'href="([^"#]+)"')
#: Downloads, feeds and files, not pages.
SKIP = re.compile(r"(logout|[?&](export|_export|format)=|\.csv|\.xlsx|\.h9|\.txt|\.ics|\.xml|/feed|/static/|/api/)")
CYRILLIC = re.compile(r"[\u0400-\u04ff]+")
#: The attributes a person reads (or hears, or sees in a tab or a shared link); an option's value or a link's address
#: is not read, and keeps the name as stored so that a filter finds its rows.
READ_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder", "content", "label"}


class ReadText(HTMLParser):
    """What a visitor reads on a page: its text, the title and meta tags, the attributes above; without what an
    element marked ``lang="ru"`` says (the language switcher's "Русский"), scripts and styles."""

    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in ("script", "style") or attrs.get("lang") == "ru":
            self.skip.append(tag)
        elif not self.skip:
            self.parts.extend(value for key, value in attrs.items() if key in READ_ATTRIBUTES and value)

    def handle_endtag(self, tag):
        if self.skip and self.skip[-1] == tag:
            self.skip.pop()

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def read_text(html: str) -> str:
    parser = ReadText()
    parser.feed(html)
    return "\n".join(parser.parts)


#: Pages asked per shape (the path with its numbers taken out, and the names of its parameters).
PER_SHAPE = 4


def _shape(path: str) -> tuple:
    parts = urlsplit(path)
    keys = tuple(sorted({key for key, _ in parse_qsl(parts.query)} - {"sort", "page"}))
    return re.sub(r"\d+", "N", parts.path), keys


def crawl_english(client, allowed: set[str] = frozenset()) -> tuple[set[str], dict[str, list[str]]]:
    """Every page reached from /en/ within /en/, and the Cyrillic words each shows outside ``allowed`` texts."""
    seen, queue, found, shapes = set(), ["/en/"], {}, Counter()
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code < 500, url
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        html = response.content.decode()
        text = read_text(html)
        for typed in allowed:
            text = text.replace(typed, "")
        words = CYRILLIC.findall(text)
        if words:
            found[url] = sorted(set(words))[:10]
            import os

            if os.environ.get("CRAWL_DEBUG"):
                with open(os.environ["CRAWL_DEBUG"], "a") as debug:
                    for m in list(CYRILLIC.finditer(text))[:6]:
                        debug.write(f"{url}\t{text[max(0, m.start() - 100) : m.end() + 20]!r}\n")
        for href in LINK.findall(html):
            target = urljoin(url, href.replace("&amp;", "&"))
            parts = urlsplit(target)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if parts.netloc or not parts.path.startswith("/en/") or SKIP.search(target) or path in seen:
                continue
            shape = _shape(path)
            if shapes[shape] < PER_SHAPE:
                shapes[shape] += 1
                queue.append(path)
    return seen, found


@pytest.fixture
def cyrillic_federation():
    """The demo, small, with every English field blank: each name exists in Cyrillic only."""
    call_command("demo_data", "--players", "40", "--years", "1", "--force", stdout=StringIO())
    for player in Player.objects.all():  # save() keeps the search name in step
        player.last_name_latin = player.first_name_latin = ""
        player.save()
    Registration.objects.update(name_latin="", surname_latin="", given_name_latin="")
    RatingList.objects.update(name_en="")
    Club.objects.update(name_en="")
    Tournament.objects.update(name_en="", description_en="")
    SiteIdentity.objects.create(
        name="Федерация интеллектуальных игр", short_name="ФИИ", about="О нас", contact="Пишите"
    )
    assert Club.objects.filter(name__startswith="«").exists()
    assert Tournament.objects.filter(status=TournamentStatus.APPROVED, name__regex="[А-я]").count() > 10


def test_the_english_site_shows_no_cyrillic_when_english_names_are_blank(client, cyrillic_federation):
    seen, found = crawl_english(client)
    assert not found, found
    reached = {_shape(url)[0] for url in seen}
    for page in (
        "/en/players/N/",
        "/en/tournaments/N/",
        "/en/clubs/N/",
        "/en/go/N/standings/",
        "/en/preferans/games/N/",
    ):
        assert page in reached
    assert "/en/ratings/mahjong/mahjong-rr/" in seen


def test_english_names_typed_by_staff_are_shown_as_typed(
    client, cyrillic_federation, django_capture_on_commit_callbacks
):
    """What staff type in an English field is the English name, Cyrillic letters and all (a name they chose to keep
    as it is); the crawl allows exactly those texts."""
    club = Club.objects.filter(players__isnull=False).first()
    club.name_en = "Tenpai Club"
    club.save()
    tournament = Tournament.objects.filter(status=TournamentStatus.APPROVED, results__isnull=False).first()
    tournament.name_en = "Cup of the Южный ветер"
    tournament.save()
    rr = RatingList.objects.get(slug="mahjong-rr")
    rr.name_en = "Riichi Rating"
    rr.save()
    player = club.players.first()
    player.last_name_latin, player.first_name_latin = "Ivanoff", "Ivan"
    player.save()
    with django_capture_on_commit_callbacks(execute=True):  # the pages' versions move on when the write commits
        CityName.objects.create(name=player.city, name_en="The City")

    tournament_page = client.get(f"/en/tournaments/{tournament.pk}/").content.decode()
    assert "<title>Cup of the Южный ветер ·" in tournament_page
    assert "Tenpai Club" in client.get(f"/en/players/{player.pk}/").content.decode()
    assert "Ivanoff Ivan" in client.get(f"/en/players/{player.pk}/").content.decode()
    players = client.get("/en/players/").content.decode()
    assert f'<option value="{player.city}">The City</option>' in players  # the city filter
    assert "<td>The City</td>" in players
    list_page = client.get("/en/ratings/mahjong/mahjong-rr/").content.decode()
    assert "<title>Riichi Rating ·" in list_page
    assert tournament.name in client.get(f"/tournaments/{tournament.pk}/").content.decode()  # Russian as before

    _, found = crawl_english(client, allowed={"Cup of the Южный ветер"})
    assert not found, found
