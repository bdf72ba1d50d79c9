"""Go tournament pages: the venue's pages (pairings, standings, a player's games), the director's controls, the
EGD table and the handicap calculator. The DIRS club rating's pages are in ``ratings.dirs``.

Views are thin: a form reads the input, one service writes (or one selector reads), ``GoError`` comes back as a
message naming the reason.

Who may open which page (issue 27; ``tests/tournaments/go/test_director_doors.py`` walks every address): an approved
tournament is everyone's to read; a draft or a submitted one is its director's and staff's alone (404 for anyone
else: ``visible_or_404``); the director's doors (``director_required``) are the organiser's and staff's, and those
that change the tournament are refused while the admin locks it for the user (``selectors.write_lock``), as the
services refuse it too (``services.common.check_writable``).
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
from django.views.decorators.http import require_POST, require_safe

from federation.i18n import current_language
from ratings.dirs.services import DirsError

from . import calculator, selectors, services, sheets
from .forms import (
    AbsenceForm,
    CalculatorForm,
    CorrectionForm,
    EgdClassForm,
    PlayerSearchForm,
    RegistrationForm,
    ResultForm,
    RoundEditForm,
    TournamentCreateForm,
)
from .models import GoTournament, Registration, Round, RoundStatus
from .names import name_key

#: At most this many members come back from the registration search; the director types more of the name.
SEARCH_LIMIT = 20


def go_or_404(pk: int) -> GoTournament:
    try:
        return selectors.go_tournament_get(pk=pk)
    except GoTournament.DoesNotExist as error:
        raise Http404 from error


def visible_or_404(request, pk: int) -> tuple[GoTournament, bool]:
    """The tournament and whether the reader directs it; 404 for a draft or a submitted tournament unless the
    reader is its organiser or federation staff (as ``/tournaments/<id>/`` and the API answer)."""
    go = go_or_404(pk)
    director = selectors.is_director(request.user, go)
    if not director and not selectors.is_public(go):
        raise Http404
    return go, director


def director_required(view=None, *, writes: bool = False, answer_json: bool = False):
    """Login (through the admin login page), then the tournament's organiser or federation staff only.

    Someone else gets a 404 for a tournament they may not see (a draft or a submitted one) and a 403 for one they
    may. ``writes``: a door that changes the tournament is also refused while the admin locks the tournament for
    this user (submitted or approved, for its organiser: ``selectors.write_lock``): the reason as a message on the
    tournament's page, or as JSON (403) for the fast entry's requests; nothing is changed.
    """

    def decorate(view):
        @login_required
        @wraps(view)
        def wrapper(request, pk: int, *args, **kwargs):
            go = go_or_404(pk)
            if not selectors.is_director(request.user, go):
                if not selectors.is_public(go):
                    raise Http404
                raise PermissionDenied
            if writes:
                reason = selectors.write_lock(request.user, go)
                if reason:
                    if answer_json:
                        return JsonResponse({"error": reason, "field": ""}, status=403)
                    messages.error(request, reason)
                    return redirect("go:tournament", pk=go.pk)
            return view(request, go, *args, **kwargs)

        return wrapper

    return decorate(view) if view is not None else decorate


def _fail(request, error: services.GoError) -> None:
    messages.error(request, error.message)


# --- home and tournaments ---------------------------------------------------------------------------------------


@require_safe
def index(request):
    tournaments = selectors.go_tournament_list(user=request.user)[:100]
    can_create = request.user.is_authenticated and request.user.has_perm("tournaments.add_tournament")
    can_record = request.user.is_authenticated and request.user.has_perm("dirs.add_dirsgame")
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


@require_safe
def tournament_detail(request, pk: int):
    go, director = visible_or_404(request, pk)
    lock = selectors.write_lock(request.user, go) if director else ""
    can_write = director and not lock
    progress = selectors.tournament_progress(go=go)
    member_query, members = "", None
    if can_write and "member" in request.GET:
        member_query = (request.GET.get("member") or "").strip()[:100]
        members = selectors.member_rows(go=go, query=member_query, language=current_language(), limit=SEARCH_LIMIT)
    context = {
        "go": go,
        "t": go.tournament,
        "director": director,
        "rounds": [r for r in progress.rounds if r.is_published or director],
        "registrations": selectors.registrations_with_absences(go=go, language=current_language()),
        "can_write": can_write,
        "lock": lock,
        "can_pair": can_write and progress.can_pair,
        "finished": progress.finished,
        "registration_form": RegistrationForm() if can_write else None,
        "member_query": member_query,
        "members": members,
        "search_limit": SEARCH_LIMIT,
        "round_numbers": range(1, (go.tournament.rounds or 1) + 1),
        "egd_ready": selectors.egd_refusal(go=go) is None,
        "egd_form": EgdClassForm(initial={"egd_class": go.egd_class}) if can_write and progress.finished else None,
        "has_standings": any(r.completed for r in progress.rounds),
    }
    return render(request, "go/tournament.html", context)


@require_safe
@director_required(writes=True, answer_json=True)
def member_search(request, go: GoTournament):
    """JSON for the registration form's search-as-you-type: members by name in Cyrillic or Latin, at most 20."""
    form = PlayerSearchForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    rows = selectors.member_rows(go=go, query=query, language=current_language(), limit=SEARCH_LIMIT)
    return JsonResponse({"query": query, "results": rows, "limit": SEARCH_LIMIT})


@require_POST
@director_required(writes=True)
def registration_add(request, go: GoTournament):
    form = RegistrationForm(request.POST)
    if form.is_valid():
        try:
            reg = services.go_registration_add(go=go, user=request.user, **form.cleaned_data)
        except services.GoError as error:
            _fail(request, error)
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": reg.name})
    else:
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
    return redirect("go:tournament", pk=go.pk)


def confirm(request, *, title: str, question: str, action: str, fields: dict, button: str, back: str):
    """A page that asks before a step that cannot be taken back; its form posts the same fields, confirmed."""
    return render(
        request,
        "go/confirm.html",
        {"title": title, "question": question, "action": action, "fields": fields, "button": button, "back": back},
    )


@require_POST
@director_required(writes=True)
def registration_withdraw(request, go: GoTournament, reg_id: int):
    """Withdrawing asks first (the player is not paired again); taking a player back does not."""
    reg = get_object_or_404(Registration, pk=reg_id, tournament=go)
    undo = request.POST.get("undo") == "1"
    if not undo and request.POST.get("confirmed") != "1":
        return confirm(
            request,
            title=_("Withdraw %(name)s?") % {"name": reg.display_name(current_language())},
            question=_("%(name)s will not be paired in the rounds not yet published. They can be taken back later.")
            % {"name": reg.display_name(current_language())},
            action=reverse("go:registration_withdraw", args=[go.pk, reg.pk]),
            fields={},
            button=_("Withdraw"),
            back=reverse("go:tournament", args=[go.pk]),
        )
    try:
        services.go_registration_withdraw(registration=reg, undo=undo, user=request.user)
    except services.GoError as error:
        _fail(request, error)
    return redirect("go:tournament", pk=go.pk)


@require_POST
@director_required(writes=True)
def absence_set(request, go: GoTournament):
    form = AbsenceForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a round."))
        return redirect("go:tournament", pk=go.pk)
    reg = get_object_or_404(Registration, pk=form.cleaned_data["registration"], tournament=go)
    try:
        services.go_absence_set(
            registration=reg,
            round_number=form.cleaned_data["round_number"],
            absent=form.cleaned_data["absent"],
            requested=request.POST.get("absent") == "request",
            user=request.user,
        )
    except services.GoError as error:
        _fail(request, error)
    return redirect("go:tournament", pk=go.pk)


@require_POST
@director_required(writes=True)
def round_pair(request, go: GoTournament):
    try:
        go_round = services.go_round_pair(go=go, user=request.user)
    except services.GoError as error:
        _fail(request, error)
        return redirect("go:tournament", pk=go.pk)
    return redirect("go:round", pk=go.pk, number=go_round.number)


# --- rounds -----------------------------------------------------------------------------------------------------


def _round(go: GoTournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=go, number=number)


@require_safe
def round_detail(request, pk: int, number: int):
    go, director = visible_or_404(request, pk)
    lock = selectors.write_lock(request.user, go) if director else ""
    can_write = director and not lock
    go_round = _round(go, number)
    if not go_round.is_published and not director:
        raise Http404
    boards = selectors.round_boards(go_round=go_round)
    lang = current_language()
    byes = selectors.round_byes(go_round=go_round, language=lang)
    unpaired, swap_choices, records = [], {}, []
    if director:
        registrations = list(go.registrations.all())
        names = {r.pk: r.display_name(lang) for r in registrations}
        records = selectors.director_log(go=go, round_number=number)
        if not go_round.is_published:
            unpaired = selectors.round_unpaired(
                go_round=go_round, registrations=registrations, boards=boards, byes=byes, language=lang
            )
            # Only players of this round can be swapped: those on its boards or byes and the present unpaired.
            playing = {b.white_id for b in boards} | {b.black_id for b in boards} | {b.registration_id for b in byes}
            playing |= {r.pk for r in unpaired}
            ordered = sorted(names.items(), key=lambda item: (name_key(item[1]), item[0]))
            swap_choices = {pk: name for pk, name in ordered if pk in playing}
    else:
        names = {b.white_id: b.white.display_name(lang) for b in boards}
        names.update({b.black_id: b.black.display_name(lang) for b in boards})
        names.update({b.registration_id: b.registration.display_name(lang) for b in byes})
    rounds = go.rounds.all() if director else go.rounds.filter(status=RoundStatus.PUBLISHED)
    all_rounds = list(rounds.order_by("number").values_list("number", flat=True))
    # Any later round, draft or not, is known to the director's list; a visitor's page shows no corrections anyway.
    later_round = next((n for n in all_rounds if n > go_round.number), None)
    context = {
        "go": go,
        "t": go.tournament,
        "round": go_round,
        "boards": boards,
        "byes": byes,
        "director": director,
        "can_write": can_write,
        "lock": lock,
        "names": names,
        "unpaired": unpaired,
        "draws": selectors.draws_allowed(go),
        "has_results": any(b.result for b in boards),
        "all_rounds": all_rounds,
        "later_round": later_round,
        "can_correct": can_write and go_round.is_published,
        "swap_choices": swap_choices,
        "records": records,
    }
    return render(request, "go/round.html", context)


@require_POST
@director_required(writes=True)
def round_edit(request, go: GoTournament, number: int):
    go_round = _round(go, number)
    form = RoundEditForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose what to do."))
        return redirect("go:round", pk=go.pk, number=number)
    data = form.cleaned_data
    action = data["action"]
    user = request.user
    try:
        if action == "unpair":
            if not data.get("board"):
                raise services.GoError("board", _("Choose a board."))
            services.go_round_unpair(go_round=go_round, board_number=data["board"], user=user)
        elif action == "pair":
            services.go_round_pair_by_hand(
                go_round=go_round, first_id=data.get("first"), second_id=data.get("second"), user=user
            )
        elif action == "swap":
            services.go_round_swap(
                go_round=go_round, first_id=data.get("first"), second_id=data.get("second"), user=user
            )
        elif action in ("bye", "unbye"):
            services.go_round_bye(go_round=go_round, registration_id=data.get("first"), give=action == "bye", user=user)
        elif action == "repair":
            services.go_round_repair(go_round=go_round, user=user)
        elif action == "publish":
            services.go_round_publish(go_round=go_round, user=user)
            messages.success(request, _("Round %(n)s is published.") % {"n": number})
        elif action == "unpublish":
            services.go_round_unpublish(go_round=go_round, user=user)
        elif action == "delete":
            if request.POST.get("confirmed") != "1":
                return confirm(
                    request,
                    title=_("Delete the pairing of round %(n)s?") % {"n": number},
                    question=_(
                        "Its boards and byes are deleted; the round can then be paired again. The record of its "
                        "changes by hand is kept."
                    ),
                    action=reverse("go:round_edit", args=[go.pk, number]),
                    fields={"action": "delete"},
                    button=_("Delete this pairing"),
                    back=reverse("go:round", args=[go.pk, number]),
                )
            services.go_round_delete(go_round=go_round, user=user)
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


def _board_result(request, go: GoTournament, number: int, form_class, service, said):
    """Enter or correct one board's result through ``service``; ``said(board)`` is the message on success."""
    go_round = _round(go, number)
    form = form_class(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("go:round", pk=go.pk, number=number)
    try:
        board = service(
            go_round=go_round,
            board_number=form.cleaned_data["board"],
            result=form.cleaned_data["result"],
            version=form.cleaned_data.get("version"),
            user=request.user,
        )
    except services.GoError as error:
        _fail(request, error)
    else:
        messages.success(request, said(board))
    return redirect(reverse("go:round", args=[go.pk, number]) + "#results")


@require_POST
@director_required(writes=True)
def result_enter(request, go: GoTournament, number: int):
    return _board_result(
        request,
        go,
        number,
        ResultForm,
        services.go_result_enter,
        lambda board: _("Board %(b)s: %(r)s.") % {"b": board.number, "r": board.get_result_display()},
    )


def _corrected(board) -> str:
    if board.result:
        return _("Board %(b)s corrected: %(r)s.") % {"b": board.number, "r": board.get_result_display()}
    return _("Board %(b)s: the result is cleared.") % {"b": board.number}


@require_POST
@director_required(writes=True)
def result_correct(request, go: GoTournament, number: int):
    """A result of any round corrected; the director is told each later game that now differs from what was
    played, and each draft paired on the old levels (``services.corrections``)."""
    go_round = _round(go, number)
    form = CorrectionForm(request.POST)
    if not form.is_valid():
        _form_errors(request, form)
        return redirect("go:round", pk=go.pk, number=number)
    try:
        correction = services.go_result_correct(
            go_round=go_round,
            board_number=form.cleaned_data["board"],
            result=form.cleaned_data["result"],
            version=form.cleaned_data.get("version"),
            user=request.user,
        )
    except services.GoError as error:
        _fail(request, error)
        return redirect(reverse("go:round", args=[go.pk, number]) + "#results")
    messages.success(request, _corrected(correction.board))
    language = "ru" if current_language().startswith("ru") else "en"
    for difference in correction.differences:
        messages.warning(
            request, _("Now differs from what was played: %(what)s.") % {"what": difference["text"][language]}
        )
    for later in correction.drafts:
        messages.warning(
            request,
            _("Round %(n)s (a draft) was paired on the levels before the correction: re-pair it.") % {"n": later},
        )
    if go.rounds.filter(number__gt=number).exists():
        messages.info(request, _("The later rounds' levels and standings are computed again."))
    return redirect(reverse("go:round", args=[go.pk, number]) + "#results")


@require_safe
def standings(request, pk: int):
    go, _director = visible_or_404(request, pk)
    completed = list(go.rounds.filter(completed=True).order_by("number").values_list("number", flat=True))
    chosen = None
    requested = request.GET.get("round")
    if requested and requested.isdigit() and int(requested) in completed:
        chosen = int(requested)
    elif completed:
        chosen = completed[-1]
    rows = []
    if chosen is not None:
        rows = sheets.standings_table(go=go, upto=chosen, language=current_language(), cells=False)
    return render(
        request,
        "go/standings.html",
        {
            "go": go,
            "t": go.tournament,
            "rows": rows,
            "chosen": chosen,
            "completed": completed,
            "is_dirs": selectors.is_dirs(go),
            # One reverse for the page instead of one a row: the players' links share this prefix.
            "players_url": reverse("go:player_games", args=[go.pk, 0]).removesuffix("0/"),
        },
    )


@require_safe
def player_games(request, pk: int, reg_id: int):
    go, _director = visible_or_404(request, pk)
    reg = get_object_or_404(Registration, pk=reg_id, tournament=go)
    rows = selectors.player_games(registration=reg)
    last = go.rounds.filter(completed=True).order_by("-number").first()
    standing = last.standings.filter(registration=reg).first() if last else None
    explanation = ""
    if standing is not None:
        language = current_language()
        text = standing.explanation_en if language.startswith("en") else standing.explanation_ru
        opponents = [row.get("opponent") if isinstance(row, dict) else getattr(row, "opponent", None) for row in rows]
        explanation = selectors.explanation_with_names(go=go, text=text, language=language, known=opponents)
    return render(
        request,
        "go/player.html",
        {
            "go": go,
            "t": go.tournament,
            "reg": reg,
            "rows": rows,
            "standing": standing,
            "last": last,
            "explanation": explanation,
        },
    )


@require_safe
def egd_export(request, pk: int):
    """The EGD results table of a finished tournament whose director has chosen its class (`rules/go.md`, part 3)."""
    go, _director = visible_or_404(request, pk)
    refusal = selectors.egd_refusal(go=go)
    if refusal:
        messages.error(request, refusal)
        return redirect("go:tournament", pk=go.pk)
    response = HttpResponse(selectors.egd_table(go=go), content_type="text/plain; charset=ascii")
    response["Content-Disposition"] = f'attachment; filename="tournament-{go.pk}.h9"'
    return response


@require_POST
@director_required(writes=True)
def egd_class_set(request, go: GoTournament):
    form = EgdClassForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the EGD class: A, B, C or D."))
    else:
        services.go_egd_class_set(go=go, egd_class=form.cleaned_data["egd_class"], user=request.user)
        messages.success(request, _("EGD class %(c)s chosen.") % {"c": form.cleaned_data["egd_class"]})
    return redirect(reverse("go:tournament", args=[go.pk]) + "#egd")


@require_safe
@director_required
def director_log(request, go: GoTournament):
    """The director's record of the whole tournament: every change by hand and correction, who and when."""
    return render(request, "go/log.html", {"go": go, "t": go.tournament, "records": selectors.director_log(go=go)})


# --- the handicap calculator ------------------------------------------------------------------------------------


@require_safe
def calculator_page(request):
    return render(request, "go/calculator.html", {})


@require_safe
def calculator_json(request):
    """Handicap and komi for two ratings on either scale, from the engines; bad input is a 400 naming the field."""
    form = CalculatorForm(request.GET)
    if not form.is_valid():
        errors = {field: [str(e) for e in errs] for field, errs in form.errors.items()}
        return JsonResponse({"errors": errors}, status=400)
    try:
        return JsonResponse(calculator.handicap(**form.cleaned_data))
    except DirsError as error:
        return JsonResponse({"errors": {error.field: [error.message]}}, status=400)
