"""The public calendar, its iCalendar files (parsed by the icalendar library) and the Atom feeds (parsed by
feedparser, as a reader would): what shows, what says cancelled or moved, what is never shown."""

import datetime
from decimal import Decimal

import feedparser
import icalendar
import pytest
from django.utils import timezone, translation

from tests.factories import PlayerFactory, TournamentFactory
from tournaments.calendar import services
from tournaments.models import AnnouncementStatus, Registration, RegistrationStatus, Schedule, TournamentStatus

pytestmark = pytest.mark.django_db


def _events(content: bytes):
    calendar = icalendar.Calendar.from_ical(content)
    return {str(e["summary"]): e for e in calendar.walk("VEVENT")}


def test_the_calendar_lists_only_approved_announcements_by_month_and_filters(client, announced):
    TournamentFactory(
        name="Черновик объявления",
        status=TournamentStatus.DRAFT,
        announcement=AnnouncementStatus.SUBMITTED,
        start_date=announced.start_date,
        end_date=announced.start_date,
    )
    go = TournamentFactory(
        name="Кубок Го",
        discipline="go",
        city="Казань",
        status=TournamentStatus.DRAFT,
        announcement=AnnouncementStatus.APPROVED,
        start_date=announced.start_date + datetime.timedelta(days=40),
        end_date=announced.start_date + datetime.timedelta(days=41),
    )
    page = client.get("/en/calendar/").content.decode()  # names in Latin letters on the English pages (issue 28)
    assert "Kubok Tveri" in page
    assert "Kubok Go" in page
    assert "Черновик объявления" not in page
    assert page.index("Kubok Tveri") < page.index("Kubok Go")
    assert 'type="text/calendar"' in page
    assert 'rel="alternate" type="application/atom+xml"' in page
    only_go = client.get("/en/calendar/?discipline=go").content.decode()
    assert "Kubok Go" in only_go
    assert "Kubok Tveri" not in only_go
    assert f'href="/en/calendar/{go.pk}/"' in client.get("/en/calendar/?city=Казань").content.decode()
    assert "Kubok Tveri" not in client.get("/en/calendar/?city=Казань").content.decode()
    # A filter value outside the choices is answered with the form's error, never a 500.
    assert client.get("/en/calendar/?discipline=chess&city=Нигде").status_code == 200
    assert client.get("/en/calendar/?city=%00").status_code == 400
    russian = client.get("/calendar/").content.decode()
    assert "Календарь турниров" in russian


def test_the_announcement_page_says_what_it_will_count_for_and_who_is_registered(client, announced):
    player = PlayerFactory(last_name_latin="Kartov", first_name_latin="Ivan")
    Registration.objects.create(
        tournament=announced, player=player, name=player.full_name, email="secret@example.org", status="registered"
    )
    Registration.objects.create(tournament=announced, name="Ждунов Пётр", email="wait@example.org", status="waiting")
    Registration.objects.create(tournament=announced, name="Неподтвердивший", email="p@example.org")
    page = client.get(f"/en/calendar/{announced.pk}/").content.decode()
    assert "Kartov Ivan" in page
    assert "Zhdunov Petr" in page  # a newcomer's name in Latin letters on the English page
    assert "Неподтвердивший" not in page
    assert "secret@example.org" not in page
    assert "wait@example.org" not in page
    assert "What it will count for" in page
    assert "Register" in page
    assert f'href="/en/calendar/{announced.pk}.ics"' in page


def test_ics_feeds_parse_and_say_cancelled_and_moved(client, announced, django_capture_on_commit_callbacks):
    response = client.get("/en/calendar/calendar.ics")
    assert response["Content-Type"].startswith("text/calendar")
    events = _events(response.content)
    event = events["Кубок Твери"]
    assert event.decoded("dtstart") == announced.start_date
    assert event.decoded("dtend") == announced.start_date + datetime.timedelta(days=1)
    assert "Клуб «Берсерк», Тверь" in str(event["location"])
    assert str(event["status"]) == "CONFIRMED"
    uid = str(event["uid"])
    single = _events(client.get(f"/en/calendar/{announced.pk}.ics").content)
    assert str(single["Кубок Твери"]["uid"]) == uid
    assert "Кубок Твери" in _events(client.get("/en/calendar/ccg.ics").content)
    assert not _events(client.get("/en/calendar/go.ics").content)
    assert client.get("/en/calendar/chess.ics").status_code == 404

    # Moved: the same UID, a higher SEQUENCE, and it says so.
    before = type(announced).objects.get(pk=announced.pk)
    announced.start_date += datetime.timedelta(days=7)
    announced.end_date = announced.start_date
    services.tournament_schedule_changed(before=before, after=announced)
    with django_capture_on_commit_callbacks(execute=True):  # the page cache's versions move at the commit
        announced.save()
    moved = _events(client.get("/en/calendar/calendar.ics").content)
    event = moved["MOVED: Кубок Твери"]
    assert str(event["uid"]) == uid
    assert int(event["sequence"]) == 1
    assert event.decoded("dtstart") == announced.start_date

    # Cancelled: still there, STATUS:CANCELLED.
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_cancel(tournament=announced, user=announced.organiser)
    cancelled = _events(client.get("/en/calendar/calendar.ics").content)["CANCELLED: Кубок Твери"]
    assert str(cancelled["status"]) == "CANCELLED"
    assert int(cancelled["sequence"]) == 2
    page = client.get(f"/en/calendar/{announced.pk}/").content.decode()
    assert "The tournament is cancelled." in page
    feed = feedparser.parse(client.get("/en/calendar/feed/").content)
    assert feed.entries[0].title.startswith("CANCELLED: Кубок Твери")


def test_the_calendar_atom_feed(client, announced):
    response = client.get("/en/calendar/feed/")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo
    assert feed.feed.title == "Tournament calendar"
    assert [e.title for e in feed.entries] == [f"Кубок Твери — {announced.start_date.isoformat()}"]
    assert feed.entries[0].link.endswith(f"/en/calendar/{announced.pk}/")
    assert client.get("/en/calendar/feed/chess/").status_code == 404
    assert feedparser.parse(client.get("/en/calendar/feed/go/").content).entries == []


def test_rating_list_and_player_feeds(client):
    from ratings.models import RatingChange, RatingEntry, RatingList, RatingSnapshot

    rating_list = RatingList.objects.filter(is_active=True).order_by("pk").first()
    up, down = PlayerFactory(last_name_latin="Upov"), PlayerFactory(last_name_latin="Downov")
    tournament = TournamentFactory(name="Осенний")
    snapshot = RatingSnapshot.objects.create(rating_list=rating_list, as_of=datetime.date(2026, 3, 9))
    RatingEntry.objects.create(snapshot=snapshot, player=up, rank=1, rating=1100, delta=Decimal("25"))
    RatingEntry.objects.create(snapshot=snapshot, player=down, rank=2, rating=900, delta=Decimal("-12.5"))
    RatingChange.objects.create(
        rating_list=rating_list,
        player=up,
        tournament=tournament,
        snapshot=snapshot,
        event_date=datetime.date(2026, 3, 7),
        before=1075,
        after=1100,
        delta=25,
    )
    feed = feedparser.parse(client.get(f"/en/feeds/lists/{rating_list.slug}/").content)
    assert not feed.bozo
    assert feed.entries[0].title.endswith("as of 2026-03-09")
    assert "Upov Ivan +25.0" in feed.entries[0].summary
    assert "Downov Ivan -12.5" in feed.entries[0].summary
    player_feed = feedparser.parse(client.get(f"/en/feeds/players/{up.pk}/").content)
    assert "1075.0 → 1100.0 (+25.0)" in player_feed.entries[0].title
    assert "Осенний" in player_feed.entries[0].summary
    assert client.get("/en/feeds/players/999999/").status_code == 404
    assert client.get("/en/feeds/lists/no-such-list/").status_code == 404
    # The pages they follow announce them in <head> and link them at their foot.
    with translation.override("en"):
        list_page = client.get(rating_list.get_absolute_url()).content.decode()
    feed = f'href="/en/feeds/lists/{rating_list.slug}/"'
    assert f'<link rel="alternate" type="application/atom+xml" title="Publications of this list" {feed}>' in list_page
    assert 'id="page-feeds"' in list_page
    page = client.get(f"/en/players/{up.pk}/").content.decode()
    assert (
        f'type="application/atom+xml" title="This player&#x27;s rating changes" href="/en/feeds/players/{up.pk}/"'
        in page
    )


def test_a_past_announcement_links_to_its_results(client, announced):
    past = TournamentFactory(
        name="Прошедший",
        announcement=AnnouncementStatus.APPROVED,
        start_date=timezone.localdate() - datetime.timedelta(days=3),
        end_date=timezone.localdate() - datetime.timedelta(days=3),
    )
    page = client.get("/en/calendar/").content.decode()
    assert f'href="/en/tournaments/{past.pk}/"' in page
    detail = client.get(f"/en/calendar/{past.pk}/").content.decode()
    assert 'id="calendar-results"' in detail
    assert RegistrationStatus.REGISTERED == "registered"
    assert Schedule.CANCELLED == "cancelled"


def test_the_pages_cost_the_same_queries_with_3_and_30_registrations(client, announced, django_assert_max_num_queries):
    """Bounded reads: the list and the announcement do not ask once per tournament or per registered player."""
    for n in range(30):
        player = PlayerFactory()
        Registration.objects.create(
            tournament=announced, player=player, name=player.full_name, email=f"{n}@example.org", status="registered"
        )
        TournamentFactory(
            name=f"Турнир {n}",
            status=TournamentStatus.DRAFT,
            announcement=AnnouncementStatus.APPROVED,
            start_date=announced.start_date,
            end_date=announced.start_date,
        )
    with django_assert_max_num_queries(12):
        assert client.get(f"/en/calendar/{announced.pk}/").status_code == 200
    with django_assert_max_num_queries(8):
        assert client.get("/en/calendar/").status_code == 200
