import datetime

import pytest
from django.utils import timezone

from tests.factories import TournamentFactory, organiser
from tournaments.models import AnnouncementStatus, TournamentStatus


@pytest.fixture(autouse=True)
def e_mail(settings):
    """The site sends e-mail (``EMAIL_URL``); Django's test runner keeps it in ``mail.outbox``."""
    settings.EMAIL_URL = "smtp://mail.example.org:587"


@pytest.fixture
def announced(db):
    """An approved announcement three weeks ahead: card games in Тверь, 3 seats and a waiting list."""
    day = timezone.localdate() + datetime.timedelta(days=21)
    return TournamentFactory(
        name="Кубок Твери",
        city="Тверь",
        venue="Клуб «Берсерк»",
        start_date=day,
        end_date=day,
        status=TournamentStatus.DRAFT,
        announcement=AnnouncementStatus.APPROVED,
        description="Открытый турнир.",
        description_en="An open tournament.",
        contact="org@example.org",
        max_players=3,
        waiting_list=True,
        organiser=organiser(username="org"),
    )
