"""factory_boy factories for the models every test needs."""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from federation.models import Club, Player
from federation.roles import FEDERATION_STAFF, ORGANISERS
from federation.services import player_tournament_counts_refresh
from tournaments.models import Discipline, Result, Tournament, TournamentStatus


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda o: f"{o.username}@example.org")
    is_staff = True
    password = factory.PostGenerationMethodCall("set_password", "pass-word-123")

    @factory.post_generation
    def groups(self, create, extracted, **kwargs):
        if create and extracted:
            for name in extracted:
                self.groups.add(Group.objects.get(name=name))
        self.save()


def organiser(**kwargs):
    return UserFactory(groups=[ORGANISERS], **kwargs)


def federation_staff(**kwargs):
    return UserFactory(groups=[FEDERATION_STAFF], **kwargs)


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club
        django_get_or_create = ("name", "city")

    name = factory.Sequence(lambda n: f"Клуб {n}")
    city = "Москва"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    last_name = factory.Sequence(lambda n: f"Иванов{n}")
    first_name = "Иван"
    last_name_latin = factory.Sequence(lambda n: f"Ivanov{n}")
    first_name_latin = "Ivan"
    city = "Москва"
    country = "RU"


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    discipline = Discipline.CARD_GAMES
    name = factory.Sequence(lambda n: f"Турнир {n}")
    start_date = datetime.date(2026, 3, 7)
    end_date = factory.LazyAttribute(lambda o: o.start_date)
    city = "Москва"
    status = TournamentStatus.APPROVED
    card_format = "constructed"
    k = 1


class ResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Result
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    player = factory.SubFactory(PlayerFactory)
    place = factory.Sequence(lambda n: n + 1)

    @factory.post_generation
    def count(self, create, extracted, **kwargs):
        """Keep the player's tournament count as the services would (results here bypass them)."""
        if create and self.player_id:
            player_tournament_counts_refresh(player_ids=[self.player_id])
