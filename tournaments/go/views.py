"""Go pages: the venue's pages (pairings, standings, a player's games), the director's controls, DIRS, calculator.

Views are thin: a form reads the input, one service writes, ``GoError`` comes back as a message naming the reason.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from federation.exports import csv_response
from federation.i18n import current_language
from federation.models import Player
from ratings.engines import dirs
from tournaments import pairing
from tournaments.models import GoSystem

from . import egd, selectors, services
from .filters import DirsRatingFilter
from .forms import (
    AbsenceForm,
    CalculatorForm,
    CorrectionForm,
    DirsGameForm,
    DirsInitialForm,
    PlayerSearchForm,
    RegistrationForm,
    ResultForm,
    RoundEditForm,
    TournamentCreateForm,
)
from .models import Absence, DirsRating, GoTournament, Registration, Round, RoundStatus
from .tables import DirsGameTable, DirsLeaderboardTable
from .templatetags.go_tags import handicap_text

PER_PAGE = 50
#: At most this many members come back from the registration search; the director types more of the name.
SEARCH_LIMIT = 20


def _go(pk: int) -> GoTournament:
    try:
        return selectors.go_tournament_get(pk=pk)
    except GoTournament.DoesNotExist as error:
        raise Http404 from error


def director_required(view):
    """Login (through the admin login page), then the tournament's organiser or federation staff only."""

    @login_required
    @wraps(view)
    def wrapper(request, pk: int, *args, **kwargs):
        go = _go(pk)
        if not selectors.is_director(request.user, go):
            raise PermissionDenied
        return view(request, go, *args, **kwargs)

    return wrapper


def _fail(request, error: services.GoError) -> None:
    messages.error(request, error.message)


# --- home and tournaments ---------------------------------------------------------------------------------------


@require_GET
def index(request):
    tournaments = selectors.go_tournament_list()[:100]
    can_create = request.user.is_authenticated and request.user.has_perm("tournaments.add_tournament")
    can_record = request.user.is_authenticated and request.user.has_perm("go.add_dirsgame")
    return render(
        request, "go/index.html", {"tournaments": tournaments, "can_create": can_create, "can_record": can_record}
    )


@login_required
def tournament_create(request):
    if not request.user.has_perm("tournaments.add_tournament"):
        raise PermissionDenied
    form = TournamentCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            go = services.go_tournament_create(user=request.user, **form.cleaned_data)
        except services.GoError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            return redirect("go:tournament", pk=go.pk)
    return render(request, "go/tournament_form.html", {"form": form})


@require_GET
def tournament_detail(request, pk: int):
    go = _go(pk)
    director = selectors.is_director(request.user, go)
    rounds = list(go.rounds.order_by("number"))
    visible_rounds = [r for r in rounds if r.is_published or director]
    registrations = list(go.registrations.order_by("name"))
    absences: dict[int, list[int]] = {}
    for reg_id, number in Absence.objects.filter(registration__tournament=go).values_list(
        "registration_id", "round_number"
    ):
        absences.setdefault(reg_id, []).append(number)
    for reg in registrations:
        reg.absent_rounds = sorted(absences.get(reg.pk, []))
    member_query, members = "", None
    if director and "member" in request.GET:
        member_query = (request.GET.get("member") or "").strip()[:100]
        members = _member_rows(go, member_query, current_language())
    last = rounds[-1] if rounds else None
    can_pair = (
        director
        and (last is None or (last.is_published and last.completed))
        and len(rounds) < (go.tournament.rounds or 1)
    )
    context = {
        "go": go,
        "t": go.tournament,
        "director": director,
        "rounds": visible_rounds,
        "registrations": registrations,
        "can_pair": can_pair,
        "finished": bool(last and last.completed and last.number == go.tournament.rounds),
        "registration_form": RegistrationForm() if director else None,
        "member_query": member_query,
        "members": members,
        "search_limit": SEARCH_LIMIT,
        "round_numbers": range(1, (go.tournament.rounds or 1) + 1),
    }
    return render(request, "go/tournament.html", context)


def _member_rows(go: GoTournament, query: str, lang: str) -> list[dict]:
    """Members whose name matches ``query`` in either alphabet (``federation.selectors.player_search``), at most
    ``SEARCH_LIMIT``, each with what the director needs to tell namesakes apart and whether they are registered."""
    if not query.strip():
        return []
    players = list(selectors.member_search(search=query, limit=SEARCH_LIMIT))
    registered = set(
        Registration.objects.filter(tournament=go, player_id__in=[p.pk for p in players]).values_list(
            "player_id", flat=True
        )
    )
    rows = []
    for p in players:
        dirs_rating = getattr(p, "dirs", None)
        rows.append(
            {
                "id": p.pk,
                "name": p.display_name(lang),
                "other_name": p.full_name_latin if lang.startswith("ru") else p.full_name,
                "club": p.club.name if p.club_id else "",
                "city": p.city,
                "dirs": dirs_rating.rating if dirs_rating is not None else None,
                "rank": dirs.rank_of(dirs_rating.rating).short if dirs_rating is not None else "",
                "registered": p.pk in registered,
            }
        )
    return rows


@require_GET
@director_required
def member_search(request, go: GoTournament):
    """JSON for the registration form's search-as-you-type: members by name in Cyrillic or Latin, at most 20."""
    form = PlayerSearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    rows = _member_rows(go, query, current_language())
    return JsonResponse({"query": query, "results": rows, "limit": SEARCH_LIMIT})


@require_POST
@director_required
def registration_add(request, go: GoTournament):
    form = RegistrationForm(request.POST)
    if form.is_valid():
        try:
            reg = services.go_registration_add(go=go, **form.cleaned_data)
        except services.GoError as error:
            _fail(request, error)
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": reg.name})
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect("go:tournament", pk=go.pk)


@require_POST
@director_required
def registration_withdraw(request, go: GoTournament, reg_id: int):
    reg = get_object_or_404(Registration, pk=reg_id, tournament=go)
    try:
        services.go_registration_withdraw(registration=reg, undo=request.POST.get("undo") == "1")
    except services.GoError as error:
        _fail(request, error)
    return redirect("go:tournament", pk=go.pk)


@require_POST
@director_required
def absence_set(request, go: GoTournament):
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a round."))
        return redirect("go:tournament", pk=go.pk)
    reg = get_object_or_404(Registration, pk=form.cleaned_data["registration"], tournament=go)
    try:
        services.go_absence_set(
            registration=reg, round_number=form.cleaned_data["round_number"], absent=form.cleaned_data["absent"]
        )
    except services.GoError as error:
        _fail(request, error)
    return redirect("go:tournament", pk=go.pk)


@require_POST
@director_required
def round_pair(request, go: GoTournament):
    try:
        rnd = services.go_round_pair(go=go, user=request.user)
    except services.GoError as error:
        _fail(request, error)
        return redirect("go:tournament", pk=go.pk)
    return redirect("go:round", pk=go.pk, number=rnd.number)


# --- rounds -----------------------------------------------------------------------------------------------------


def _round(go: GoTournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=go, number=number)


@require_GET
def round_detail(request, pk: int, number: int):
    go = _go(pk)
    rnd = _round(go, number)
    director = selectors.is_director(request.user, go)
    if not rnd.is_published and not director:
        raise Http404
    boards = selectors.round_boards(round=rnd)
    byes = selectors.round_byes(round=rnd)
    names = {}
    lang = current_language()
    unpaired = []
    if director:
        registrations = list(go.registrations.all())
        names = {r.pk: r.display_name(lang) for r in registrations}
        if not rnd.is_published:
            taken = {b.white_id for b in boards} | {b.black_id for b in boards} | {b.registration_id for b in byes}
            unpaired = [r for r in registrations if r.pk not in taken and r.first_round <= rnd.number]
    else:
        names = {b.white_id: b.white.display_name(lang) for b in boards}
        names.update({b.black_id: b.black.display_name(lang) for b in boards})
        names.update({b.registration_id: b.registration.display_name(lang) for b in byes})
    rounds = go.rounds.all() if director else go.rounds.filter(status=RoundStatus.PUBLISHED)
    all_rounds = list(rounds.order_by("number").values_list("number", flat=True))
    # Any later round, draft or not, is known to the director's list; a visitor's page shows no corrections anyway.
    later_round = next((n for n in all_rounds if n > rnd.number), None)
    context = {
        "go": go,
        "t": go.tournament,
        "round": rnd,
        "boards": boards,
        "byes": byes,
        "director": director,
        "names": names,
        "unpaired": unpaired,
        "draws": go.tournament.draws_allowed and go.tournament.go_system != GoSystem.DIRS,
        "has_results": any(b.result for b in boards),
        "all_rounds": all_rounds,
        "later_round": later_round,
        "can_correct": director and rnd.is_published and later_round is None,
    }
    return render(request, "go/round.html", context)


@require_POST
@director_required
def round_edit(request, go: GoTournament, number: int):
    rnd = _round(go, number)
    form = RoundEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what to do."))
        return redirect("go:round", pk=go.pk, number=number)
    data = form.cleaned_data
    action = data["action"]
    try:
        if action == "unpair":
            if not data.get("board"):
                raise services.GoError(_("Choose a board."), "board")
            services.go_round_unpair(round=rnd, board_number=data["board"], user=request.user)
        elif action == "pair":
            services.go_round_pair_by_hand(
                round=rnd, first_id=data.get("first"), second_id=data.get("second"), user=request.user
            )
        elif action == "swap":
            services.go_round_swap(
                round=rnd, first_id=data.get("first"), second_id=data.get("second"), user=request.user
            )
        elif action in ("bye", "unbye"):
            services.go_round_bye(round=rnd, registration_id=data.get("first"), give=action == "bye", user=request.user)
        elif action == "repair":
            services.go_round_repair(round=rnd, user=request.user)
        elif action == "publish":
            services.go_round_publish(round=rnd)
            messages.success(request, _("Round %(n)s is published.") % {"n": number})
        elif action == "unpublish":
            services.go_round_unpublish(round=rnd)
        elif action == "delete":
            services.go_round_delete(round=rnd)
            messages.success(request, _("The pairing of round %(n)s is deleted.") % {"n": number})
            return redirect("go:tournament", pk=go.pk)
    except services.GoError as error:
        _fail(request, error)
    return redirect("go:round", pk=go.pk, number=number)


def _form_errors(request, form) -> None:
    """Each error of a small result form as a message naming its field."""
    for field, errors in form.errors.items():
        for e in errors:
            messages.error(request, f"{form.fields[field].label if field in form.fields else ''}: {e}")


@require_POST
@director_required
def result_enter(request, go: GoTournament, number: int):
    rnd = _round(go, number)
    form = ResultForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("go:round", pk=go.pk, number=number)
    try:
        board = services.go_result_enter(
            round=rnd,
            board_number=form.cleaned_data["board"],
            result=form.cleaned_data["result"],
            version=form.cleaned_data.get("version"),
            user=request.user,
        )
    except services.GoError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Board %(b)s: %(r)s.") % {"b": board.number, "r": board.get_result_display()})
    return redirect(reverse("go:round", args=[go.pk, number]) + "#results")


@require_POST
@director_required
def result_correct(request, go: GoTournament, number: int):
    rnd = _round(go, number)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("go:round", pk=go.pk, number=number)
    try:
        board = services.go_result_correct(
            round=rnd,
            board_number=form.cleaned_data["board"],
            result=form.cleaned_data["result"],
            version=form.cleaned_data.get("version"),
            user=request.user,
        )
    except services.GoError as error:
        _fail(request, error)
    else:
        if board.result:
            messages.success(
                request, _("Board %(b)s corrected: %(r)s.") % {"b": board.number, "r": board.get_result_display()}
            )
        else:
            messages.success(request, _("Board %(b)s: the result is cleared.") % {"b": board.number})
    return redirect(reverse("go:round", args=[go.pk, number]) + "#results")


@require_GET
def standings(request, pk: int):
    go = _go(pk)
    completed = list(go.rounds.filter(completed=True).order_by("number").values_list("number", flat=True))
    chosen = None
    requested = request.GET.get("round")
    if requested and requested.isdigit() and int(requested) in completed:
        chosen = int(requested)
    elif completed:
        chosen = completed[-1]
    rows = []
    if chosen is not None:
        rnd = go.rounds.get(number=chosen)
        lang = current_language()
        rows = list(selectors.standing_rows(round=rnd))
        for row in rows:
            row.name = row.registration.display_name(lang)
    return render(
        request,
        "go/standings.html",
        {
            "go": go,
            "t": go.tournament,
            "rows": rows,
            "chosen": chosen,
            "completed": completed,
            "is_dirs": go.tournament.go_system == GoSystem.DIRS,
            # One reverse for the page instead of one a row: the players' links share this prefix.
            "players_url": reverse("go:player_games", args=[go.pk, 0]).removesuffix("0/"),
        },
    )


@require_GET
def player_games(request, pk: int, reg_id: int):
    go = _go(pk)
    reg = get_object_or_404(Registration, pk=reg_id, tournament=go)
    rows = selectors.player_games(registration=reg)
    last = go.rounds.filter(completed=True).order_by("-number").first()
    standing = last.standings.filter(registration=reg).first() if last else None
    return render(
        request,
        "go/player.html",
        {"go": go, "t": go.tournament, "reg": reg, "rows": rows, "standing": standing, "last": last},
    )


@require_GET
def egd_export(request, pk: int):
    go = _go(pk)
    data = selectors.tournament_data(go=go)
    played = [r for r in data.rounds if r.completed]
    if not played or len(played) != len(data.rounds):
        messages.error(request, _("The EGD table needs every paired round finished."))
        return redirect("go:tournament", pk=go.pk)
    upto = played[-1].number
    state = services.tournament_state(data, upto)
    table = pairing.standings(state)
    is_dirs = go.tournament.go_system == GoSystem.DIRS
    players = {}
    for reg in data.registrations:
        if reg.first_round > upto:
            continue
        if reg.player_id:
            player = Player.objects.get(pk=reg.player_id)
            surname = player.last_name_latin or player.last_name
            first = player.first_name_latin or player.first_name
        else:
            parts = (reg.name_latin or reg.name).split(" ", 1)
            surname, first = parts[0], parts[1] if len(parts) > 1 else ""
        rating = reg.rating if is_dirs else reg.rating // 10
        players[reg.key] = egd.EgdPlayer(surname, first, dirs.rank_of(max(rating, 0)).short, reg.country, reg.club_name)
    t = go.tournament
    meta = egd.EgdMeta(
        name=t.name,
        country=t.country,
        city=t.city,
        start=t.start_date.isoformat(),
        end=t.end_date.isoformat(),
        komi=float(go.komi_normal),
        time_minutes=go.time_minutes,
        egd_class=go.egd_class,
        system=t.get_go_system_display(),
    )
    text = egd.egd_table(state=state, standings=table, players=players, meta=meta)
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="tournament-{go.pk}.h9"'
    return response


# --- DIRS -------------------------------------------------------------------------------------------------------


@require_GET
def dirs_leaderboard(request):
    rating_filter = DirsRatingFilter(request.GET, queryset=selectors.dirs_leaderboard())
    table = DirsLeaderboardTable(rating_filter.qs)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    if download := csv_response(request, table, "dirs"):
        return download
    query = request.GET.copy()
    query["_export"] = "csv"
    can_record = request.user.is_authenticated and request.user.has_perm("go.add_dirsgame")
    return render(
        request,
        "go/dirs_leaderboard.html",
        {"filter": rating_filter, "table": table, "export_url": "?" + query.urlencode(), "can_record": can_record},
    )


@require_GET
def dirs_player(request, player_id: int):
    rating = get_object_or_404(DirsRating.objects.select_related("player", "club"), player_id=player_id)
    games = list(selectors.dirs_player_games(player_id=player_id))
    points = selectors.dirs_chart_points(rating=rating, games=games)
    table = DirsGameTable(list(reversed(games)), player_id=player_id)
    RequestConfig(request, paginate={"per_page": PER_PAGE}).configure(table)
    return render(request, "go/dirs_player.html", {"rating": rating, "points": points, "table": table})


@login_required
def dirs_initial(request):
    if not request.user.has_perm("go.add_dirsrating"):
        raise PermissionDenied
    form = DirsInitialForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            rating = services.dirs_rating_set_initial(**form.cleaned_data)
        except services.GoError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("DIRS rating %(r)s set.") % {"r": f"{rating.rating:03d}"})
            return redirect("go:dirs_game_new")
    return render(request, "go/dirs_initial_form.html", {"form": form})


@login_required
def dirs_game_new(request):
    if not request.user.has_perm("go.add_dirsgame"):
        raise PermissionDenied
    form = DirsGameForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.dirs_game_record(user=request.user, **form.cleaned_data)
        except services.GoError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            lang = current_language()
            reason = game.reason_ru if lang.startswith("ru") else game.reason_en
            if game.rated:
                messages.success(request, _("Rated: %(reason)s") % {"reason": reason})
            else:
                messages.warning(request, _("Recorded, not rated: %(reason)s") % {"reason": reason})
            return redirect("go:dirs_game_new")
    ratings = {r.player_id: r.rating for r in DirsRating.objects.only("player_id", "rating")}
    return render(request, "go/dirs_game_form.html", {"form": form, "ratings": ratings})


# --- the handicap calculator ------------------------------------------------------------------------------------


@require_GET
def calculator(request):
    return render(request, "go/calculator.html", {})


@require_GET
def calculator_json(request):
    """Handicap and komi for two ratings on either scale, from the engines; bad input is a 400 naming the field."""
    form = CalculatorForm(request.GET)
    if not form.is_valid():
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    a, b = form.cleaned_data["a"], form.cleaned_data["b"]
    if form.cleaned_data["scale"] == "dirs":
        if a > 300 or b > 300:
            return JsonResponse({"errors": {"a" if a > 300 else "b": [_("The DIRS scale ends at 300.")]}}, status=400)
        h = dirs.prescribed_handicap(a, b)
        black = "a" if a < b else "b" if b < a else None
        return JsonResponse(
            {
                "scale": "dirs",
                "difference": h.difference,
                "pairable": h.pairable,
                "stones": h.stones,
                "komi": h.komi,
                "text": handicap_text(h.stones, h.komi) if h.pairable else _("not pairable: 10 stones or more"),
                "black": black,
                "rank_a": dirs.rank_of(a).short,
                "rank_b": dirs.rank_of(b).short,
            }
        )
    half = form.cleaned_data["half_stone"]
    la, lb = pairing.start_level(a, half_stone=half), pairing.start_level(b, half_stone=half)
    stones, komi = pairing.handicap_for(la - lb, half_stone=half)
    limit = pairing.max_level_gap(half_stone=half)
    pairable = abs(la - lb) <= limit
    return JsonResponse(
        {
            "scale": "tournament",
            "level_a": la,
            "level_b": lb,
            "difference": abs(la - lb),
            "pairable": pairable,
            "stones": stones,
            "komi": komi,
            "text": handicap_text(stones, komi) if pairable else _("not pairable: more than 9 stones"),
            "black": "a" if la < lb else "b" if lb < la else None,
            "rank_a": dirs.rank_of(a // 10).short,
            "rank_b": dirs.rank_of(b // 10).short,
        }
    )
