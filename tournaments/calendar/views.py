"""The calendar's pages: the list by month, a tournament's announcement, the registration form, the e-mail links'
pages and the iCalendar files. Thin: services write, selectors read."""

from __future__ import annotations

import itertools
import math

from django.conf import settings
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dates import MONTHS
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe
from ninja.throttling import BaseThrottle

from federation.admin import installed_admin_hooks
from federation.api.http import rate_allows
from federation.caching import cached_page
from federation.i18n import current_language
from federation.selectors import player_choices, public_tournaments
from tournaments.calendar import ics, selectors, services
from tournaments.calendar.forms import MAX_SEARCH, CalendarFilter, RegistrationForm
from tournaments.models import Discipline, RegistrationStatus

#: What the calendar's pages show: the tournaments and registrations, the players' names and their ratings.
SCOPES = ("tournaments", "registry", "ratings", "dirs", "preferans")


def _month_label(day) -> str:
    return f"{MONTHS[day.month]} {day.year}"


@require_safe
@cached_page(scopes=("tournaments",), params=(CalendarFilter,))
def calendar_list(request):
    today = timezone.localdate()
    calendar_filter = CalendarFilter(
        request.GET, queryset=selectors.calendar_upcoming(today=today), cities=selectors.calendar_cities()
    )
    upcoming = list(calendar_filter.qs)
    months = [
        {"label": _month_label(day), "tournaments": list(group)}
        for day, group in itertools.groupby(upcoming, key=lambda t: t.start_date.replace(day=1))
    ]
    past = selectors.calendar_past(today=today)
    if calendar_filter.is_valid():
        wanted = calendar_filter.form.cleaned_data
        past = [
            t
            for t in past
            if (not wanted.get("discipline") or t.discipline == wanted["discipline"])
            and (not wanted.get("city") or t.city == wanted["city"])
        ]
    results = set(public_tournaments().filter(pk__in=[t.pk for t in past]).values_list("pk", flat=True))
    for tournament in past:
        tournament.has_results = tournament.pk in results
    discipline = request.GET.get("discipline", "")
    ics_url = reverse("calendar:ics_discipline", args=[discipline]) if discipline in Discipline.values else ""
    context = {
        "filter": calendar_filter,
        "months": months,
        "past": past,
        "today": today,
        "ics_url": ics_url or reverse("calendar:ics"),
        "disciplines": [
            (value, label, reverse("calendar:ics_discipline", args=[value])) for value, label in Discipline.choices
        ],
    }
    return render(request, "calendar/calendar_list.html", context)


def _announced_or_404(pk: int):
    return get_object_or_404(selectors.announced_tournaments(), pk=pk)


def counting_lines(tournament) -> list[str]:
    """What the tournament will count for, as the tournament's admin page says it (each rating system's
    ``tournament_counting``: "will count in RR if ...")."""
    lines = []
    for hook in installed_admin_hooks("tournament_counting"):
        lines += hook(tournament)
    return lines


@require_safe
@cached_page(scopes=SCOPES)
def calendar_detail(request, pk: int):
    tournament = _announced_or_404(pk)
    language = current_language()
    registrations = selectors.public_registrations(tournament=tournament, language=language)
    has_results = public_tournaments().filter(pk=tournament.pk).exists()
    context = {
        "tournament": tournament,
        "description": tournament.description_in(language),
        "registered": [r for r in registrations if r.status == RegistrationStatus.REGISTERED],
        "waiting": [r for r in registrations if r.status == RegistrationStatus.WAITING],
        "closed_reason": services.registration_closed_reason(tournament=tournament),
        "full": services.field_is_full(tournament),
        "counting": counting_lines(tournament) if not has_results else [],
        "has_results": has_results,
        "breadcrumbs": [
            {"label": _("Calendar"), "url": reverse("calendar:list")},
            {"label": tournament.display_name(current_language())},
        ],
    }
    return render(request, "calendar/calendar_detail.html", context)


def _too_many(request, form, tournament, wait: float) -> HttpResponse:
    form.add_error(
        None,
        _("Too many registrations from here: try again in %(minutes)s minutes.")
        % {"minutes": max(1, math.ceil(wait / 60))},
    )
    response = render(request, "calendar/register.html", {"form": form, "tournament": tournament}, status=429)
    response["Retry-After"] = str(max(1, math.ceil(wait)))
    return response


def _rate() -> tuple[int, int]:
    count, _slash, seconds = str(settings.REGISTRATION_RATE).partition("/")
    return int(count), int(seconds or 3600)


@require_http_methods(["GET", "HEAD", "POST"])
def calendar_register(request, pk: int):
    """The registration form: find yourself in the registry (``?q=``) or type your name, give an e-mail."""
    tournament = _announced_or_404(pk)
    closed = services.registration_closed_reason(tournament=tournament)
    search = " ".join(request.GET.get("q", "")[:MAX_SEARCH].split())
    if any(ch < " " for ch in search):
        search = ""
    choices = player_choices(search=search, limit=10)[0] if search else []
    form = RegistrationForm(request.POST or None)
    full = services.field_is_full(tournament)
    if request.method == "POST" and not closed and form.is_valid():
        limit, window = _rate()
        ident = BaseThrottle().get_ident(request) or "unknown"
        for name in (f"calendar-ip:{ident}", f"calendar-email:{form.cleaned_data['email'].lower()}"):
            allowed, wait = rate_allows(name, limit, window)
            if not allowed:
                return _too_many(request, form, tournament, wait)
        asked = services.RegistrationRequest(
            tournament=tournament,
            email=form.cleaned_data["email"],
            player=form.cleaned_data.get("player_obj"),
            name=form.cleaned_data.get("name", ""),
            city=form.cleaned_data.get("city", ""),
        )
        try:
            services.registration_create(request=asked, language=current_language())
        except ValidationError as error:
            if hasattr(error, "error_dict"):
                for field, errors in error.error_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
            else:
                form.add_error(None, error)
        else:
            return redirect(reverse("calendar:registered", args=[tournament.pk]))
    context = {
        "tournament": tournament,
        "form": form,
        "closed_reason": closed,
        "full": full,
        "search": search,
        "choices": choices,
        "breadcrumbs": [
            {"label": _("Calendar"), "url": reverse("calendar:list")},
            {"label": tournament.display_name(current_language()), "url": tournament.get_calendar_url()},
            {"label": _("Registration")},
        ],
    }
    return render(request, "calendar/register.html", context, status=400 if form.errors else 200)


@require_safe
def calendar_registered(request, pk: int):
    """After the form: look in your mailbox."""
    tournament = _announced_or_404(pk)
    return render(
        request,
        "calendar/message.html",
        {
            "tournament": tournament,
            "title": _("Check your e-mail"),
            "message": _(
                "We have sent you a link. Open it within %(hours)s hours to confirm your registration: until then "
                "you are not registered."
            )
            % {"hours": settings.REGISTRATION_CONFIRM_SECONDS // 3600},
        },
    )


def _link_view(request, token: str, action: str):
    """An e-mail's link: a page with one button (a mail scanner that opens links changes nothing); the POST acts."""
    if len(token) > 500:
        raise Http404
    try:
        registration = services.registration_from_link(token, action)
    except services.LinkError as error:
        return render(
            request, "calendar/message.html", {"title": _("The link cannot be used"), "message": str(error)}, status=400
        )
    tournament = registration.tournament
    if request.method == "POST":
        service = services.registration_confirm if action == services.CONFIRM else services.registration_cancel_by_link
        try:
            done = service(token=token, language=current_language())
        except services.LinkError as error:
            return render(
                request,
                "calendar/message.html",
                {"tournament": tournament, "title": _("The link cannot be used"), "message": str(error)},
                status=400,
            )
        messages = {
            RegistrationStatus.REGISTERED: _("You are registered. See you at the tournament!"),
            RegistrationStatus.WAITING: _(
                "The field is full: you are on the waiting list, and we will write to you if a seat frees up."
            ),
            RegistrationStatus.CANCELLED: _("Your registration is cancelled."),
        }
        return render(
            request,
            "calendar/message.html",
            {
                "tournament": tournament,
                "title": tournament.display_name(current_language()),
                "message": messages[done.status],
                "done": True,
            },
        )
    return render(
        request, "calendar/link.html", {"tournament": tournament, "registration": registration, "action": action}
    )


@require_http_methods(["GET", "HEAD", "POST"])
def calendar_confirm(request, token: str):
    return _link_view(request, token, services.CONFIRM)


@require_http_methods(["GET", "HEAD", "POST"])
def calendar_cancel(request, token: str):
    return _link_view(request, token, services.CANCEL)


# --- iCalendar --------------------------------------------------------------------------------------------------


@require_safe
@cached_page(scopes=("tournaments",))
def calendar_ics(request, discipline: str = ""):
    if discipline and discipline not in Discipline.values:
        raise Http404
    found = selectors.announced_tournaments().order_by("start_date", "pk")
    name = _("Tournament calendar")
    if discipline:
        found = found.filter(discipline=discipline)
        name = f"{name}: {Discipline(discipline).label}"
    return ics.calendar_response(
        found, name=name, language=current_language(), filename=f"calendar{'-' + discipline if discipline else ''}.ics"
    )


@require_safe
@cached_page(scopes=("tournaments",))
def tournament_ics(request, pk: int):
    tournament = _announced_or_404(pk)
    return ics.calendar_response(
        [tournament], name=tournament.name, language=current_language(), filename=f"tournament-{tournament.pk}.ics"
    )
