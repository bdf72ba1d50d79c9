"""Importing from files on the director's pages: a tournament's players from an EGD `.h9` table or a CSV list, and a
finished tournament from its `.h9` table as history. Upload, preview (matches proposed, nothing saved), confirm.
And the director's backup file: the whole tournament downloaded at any round, and loaded again as a new tournament
(``services.backup``).

As the admin's upload flow (``federation.uploads``) does, the uploaded bytes stay on the server (in the session)
and the preview page posts back only their SHA-256; confirming reads the server's own copy again, so what is saved
is what was previewed, checked against the members and the tournament as they are at that moment.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from . import services
from .egd_read import FileProblem, decode, read_h9, read_players
from .forms import BackupFileForm, HistoryForm, ImportFileForm
from .models import GoTournament
from .services.history import history_differences, history_notes, history_options, registration_names
from .services.imports import match_players
from .views import director_required


def _store(request, key: str, content: bytes, name: str) -> str:
    sha256 = hashlib.sha256(content).hexdigest()
    request.session[key] = {"name": name, "sha256": sha256, "content": base64.b64encode(content).decode("ascii")}
    return sha256


def _stored(request, key: str) -> tuple[bytes, str] | None:
    """The file last uploaded on this page, if the page posted its hash and the stored bytes still have it."""
    stored = request.session.get(key)
    posted = request.POST.get("sha256", "")
    if not isinstance(stored, dict) or not hmac.compare_digest(str(stored.get("sha256", "")), posted):
        return None
    try:
        content = base64.b64decode(stored["content"], validate=True)
    except (KeyError, ValueError, TypeError):
        return None
    if hashlib.sha256(content).hexdigest() != stored["sha256"]:
        return None
    return content, stored.get("name", "")


def _choices(request) -> dict[str, str]:
    return {k: v for k, v in request.POST.items() if k.startswith("row")}


@director_required(writes=True)
def players_import(request, go: GoTournament):
    key = f"go-import-{go.pk}"
    context = {"go": go, "t": go.tournament, "form": ImportFileForm()}
    if request.method != "POST":
        return render(request, "go/import_players.html", context)
    if "confirm" in request.POST:
        stored = _stored(request, key)
        if stored is None:
            messages.error(request, _("The file on the page is not the one last uploaded here; upload it again."))
            return redirect("go:players_import", pk=go.pk)
        content, name = stored
        table = read_players(content, name)
        try:
            count = services.go_players_import(go=go, table=table, choices=_choices(request), user=request.user)
        except services.GoError as error:
            messages.error(request, error.message)
        else:
            del request.session[key]
            messages.success(request, _("%(n)s players registered from %(file)s.") % {"n": count, "file": name})
            return redirect("go:tournament", pk=go.pk)
    else:
        form = ImportFileForm(request.POST, request.FILES)
        context["form"] = form
        if not form.is_valid():
            return render(request, "go/import_players.html", context)
        upload = form.cleaned_data["file"]
        content, name = upload.read(), upload.name
        try:
            table = read_players(content, name)
        except FileProblem as error:
            form.add_error("file", error.message)
            return render(request, "go/import_players.html", context)
        context["sha256"] = _store(request, key, content, name) if not table.problems else ""
    matches = match_players(table.players, go=go)
    context.update(table=table, matches=matches, filename=name, notes=[m.note for m in matches if m.note])
    return render(request, "go/import_players.html", context)


def _replayed_with(table, form) -> dict:
    """The options the preview replays the file with: the director's (checked again), else the file's header's."""
    data = form.cleaned_data if form.is_bound and form.is_valid() else {**HistoryForm.defaults(), **form.initial}
    return {
        "half_stone": bool(data.get("half_stone")),
        "acceleration": bool(data.get("acceleration")),
        "tiebreak": bool(data.get("tiebreak")),
    }


@login_required
def history_import(request):
    """A finished tournament from its EGD table; for those who may create tournaments."""
    if not request.user.has_perm("tournaments.add_tournament"):
        raise PermissionDenied
    key = "go-import-history"
    context = {"upload": ImportFileForm(), "form": None}
    if request.method != "POST":
        return render(request, "go/import_history.html", context)
    if "confirm" in request.POST or "recheck" in request.POST:
        stored = _stored(request, key)
        if stored is None:
            messages.error(request, _("The file on the page is not the one last uploaded here; upload it again."))
            return redirect("go:history_import")
        content, name = stored
        table = read_h9(decode(content))
        form = HistoryForm(request.POST)
        if form.is_valid() and "confirm" in request.POST:
            try:
                go = services.go_history_import(
                    table=table, choices=_choices(request), user=request.user, filename=name, **form.cleaned_data
                )
            except services.GoError as error:
                if error.field in form.fields:
                    form.add_error(error.field, error.message)
                else:
                    messages.error(request, error.message)
            else:
                del request.session[key]
                messages.success(request, _("%(name)s is imported.") % {"name": go.tournament.name})
                return redirect("go:tournament", pk=go.pk)
        context["sha256"] = request.POST.get("sha256", "")
    else:
        upload_form = ImportFileForm(request.POST, request.FILES)
        context["upload"] = upload_form
        if not upload_form.is_valid():
            return render(request, "go/import_history.html", context)
        upload = upload_form.cleaned_data["file"]
        content, name = upload.read(), upload.name
        try:
            table = read_h9(decode(content))
        except FileProblem as error:
            upload_form.add_error("file", error.message)
            return render(request, "go/import_history.html", context)
        form = HistoryForm(initial=HistoryForm.initial_from(table.tags))
        context["sha256"] = _store(request, key, content, name) if not table.problems else ""
    matches = match_players(table.players)
    options = _replayed_with(table, form)
    replay = history_options(table=table, **options) if table.rounds else None
    context.update(
        form=form,
        table=table,
        matches=matches,
        notes=history_notes(table) + [m.note for m in matches if m.note],
        differences=history_differences(table, options=replay, names=registration_names(matches)) if replay else [],
        replayed_with=options,
        filename=name,
        history=True,
    )
    return render(request, "go/import_history.html", context)


@require_safe
@director_required
def backup_download(request, go: GoTournament):
    """The director's backup file of the whole tournament as it stands (a locked tournament's too: it changes
    nothing)."""
    document = services.go_backup(go=go)
    rounds = len(document["rounds"])
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=1), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="go-tournament-{go.pk}-round-{rounds}.json"'
    return response


@login_required
def backup_restore(request):
    """A tournament loaded from a director's backup file: always a new tournament, a draft of whoever loads it."""
    if not request.user.has_perm("tournaments.add_tournament"):
        raise PermissionDenied
    form = BackupFileForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            document = json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError):
            form.add_error("file", _("The file is not JSON: upload a backup file downloaded from this site."))
        else:
            try:
                go, notes = services.go_backup_load(document=document, user=request.user, filename=upload.name)
            except services.GoError as error:
                form.add_error("file", error.message)
            else:
                messages.success(
                    request, _("%(name)s is loaded from %(file)s.") % {"name": go.tournament.name, "file": upload.name}
                )
                for note in notes:
                    messages.warning(request, note)
                return redirect("go:tournament", pk=go.pk)
    return render(request, "go/backup_restore.html", {"form": form})
