"""The admin page that imports a tournament's results from a CSV or XLSX file: upload, preview, confirm.

The preview saves nothing. The uploaded bytes stay on the server (in the session, base64, keyed by tournament) and
the page posts back only their SHA-256; on confirmation the server checks the hash, reads and checks its own copy
again, and hands the rows to ``tournament_results_replace`` (all or nothing). The file format is described in
``tournaments.importing``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.defaultfilters import filesizeformat
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.importing import EXTENSIONS, ImportFileError, ImportReport, results_parse
from tournaments.models import Discipline, Tournament, TournamentStatus
from tournaments.services import tournament_results_replace

TEMPLATE = "admin/tournaments/tournament/import.html"
RESULT_PERMISSIONS = ("tournaments.add_result", "tournaments.delete_result")

EXAMPLE_CSV = "place;player_id;surname;name;participant\n1;12;;;\n2;;Иванов;Иван;\n3;;Smirnova;Anna;\n4;;;;Пётр Гость\n"
EXAMPLE_MAHJONG_CSV = "место;фамилия;имя;ханчаны;замена\n1;Иванов;Иван;8;нет\n2;Smirnova;Anna;8;\n3;Петров;Пётр;4;да\n"


class UploadForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Results file"),
        help_text=gettext_lazy(".csv (UTF-8, comma or semicolon) or .xlsx"),
        widget=forms.ClearableFileInput(attrs={"accept": ",".join(EXTENSIONS)}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.RESULT_IMPORT_MAX_BYTES
        if upload.size > limit:
            raise ValidationError(
                _("The file is %(size)s; the limit is %(limit)s.")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)}
            )
        if not upload.name.lower().endswith(EXTENSIONS):
            raise ValidationError(_("Only .csv and .xlsx files can be imported."))
        return upload


def _session_key(tournament: Tournament) -> str:
    return f"tournament_import:{tournament.pk}"


def _digest(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def import_results_view(model_admin):
    """The view for ``admin/tournaments/tournament/<pk>/import/``, bound to the tournament's ModelAdmin."""

    def view(request, pk):
        tournament = model_admin.get_object(request, str(pk))
        if tournament is None:
            raise Http404(_("No such tournament."))
        if not model_admin.has_change_permission(request, tournament) or not request.user.has_perms(RESULT_PERMISSIONS):
            raise PermissionDenied
        if request.GET.get("example") in ("cards", "mahjong"):
            return _example(request.GET["example"])

        context = {
            **model_admin.admin_site.each_context(request),
            "title": _("Import results"),
            "opts": model_admin.model._meta,
            "original": tournament,
            "tournament": tournament,
            "is_mahjong": tournament.discipline == Discipline.MAHJONG,
            "approved": tournament.status == TournamentStatus.APPROVED,
            "existing_results": tournament.results.count(),
            "max_bytes": settings.RESULT_IMPORT_MAX_BYTES,
            "form": UploadForm(),
        }
        context["example"] = EXAMPLE_MAHJONG_CSV if context["is_mahjong"] else EXAMPLE_CSV
        if request.method != "POST":
            return TemplateResponse(request, TEMPLATE, context)
        if "confirm" in request.POST:
            return _confirm(request, model_admin, tournament, context)
        if context["approved"]:
            return TemplateResponse(request, TEMPLATE, context)

        form = UploadForm(request.POST, request.FILES)
        context["form"] = form
        if not form.is_valid():
            return TemplateResponse(request, TEMPLATE, context)
        upload = form.cleaned_data["file"]
        content = upload.read()
        report = _parse(form, tournament, content, upload.name)
        if report is not None:
            sha256 = _digest(content)
            request.session[_session_key(tournament)] = {
                "name": upload.name,
                "sha256": sha256,
                "content": base64.b64encode(content).decode("ascii"),
            }
            context.update(report=report, sha256=sha256, filename=upload.name)
        return TemplateResponse(request, TEMPLATE, context)

    return view


def _parse(form: UploadForm, tournament: Tournament, content: bytes, filename: str) -> ImportReport | None:
    try:
        return results_parse(tournament=tournament, content=content, filename=filename)
    except ImportFileError as error:
        form.add_error("file", error.message)
        return None


def _confirm(request, model_admin, tournament: Tournament, context: dict) -> HttpResponse:
    """Save what the server holds, after checking it again; the browser only says which upload it saw."""
    import_url = reverse("admin:tournaments_tournament_import", args=[tournament.pk])
    key = _session_key(tournament)
    stored = request.session.get(key)
    posted = request.POST.get("sha256", "")
    if not stored or not hmac.compare_digest(stored.get("sha256", ""), posted):
        model_admin.message_user(
            request,
            _("The file on the page is not the one last uploaded for this tournament; upload it again."),
            messages.ERROR,
        )
        return redirect(import_url)
    try:
        content = base64.b64decode(stored["content"], validate=True)
    except (KeyError, ValueError, TypeError):
        content = b""
    if _digest(content) != stored["sha256"]:
        del request.session[key]
        model_admin.message_user(request, _("The uploaded file was lost; upload it again."), messages.ERROR)
        return redirect(import_url)

    form = context["form"]
    report = _parse(form, tournament, content, stored["name"])
    if report is None or not report.is_clean:
        # Something changed since the preview (a player was deleted or merged, the tournament edited).
        context.update(report=report, sha256=stored["sha256"], filename=stored["name"], changed_since_preview=True)
        return TemplateResponse(request, TEMPLATE, context)
    try:
        saved = tournament_results_replace(tournament=tournament, rows=report.result_rows())
    except ValidationError as error:
        for message in error.messages:
            model_admin.message_user(request, message, messages.ERROR)
        return redirect(import_url)
    del request.session[key]
    model_admin.message_user(
        request,
        ngettext(
            "%(count)d result imported from %(name)s; the previous results were replaced.",
            "%(count)d results imported from %(name)s; the previous results were replaced.",
            len(saved),
        )
        % {"count": len(saved), "name": stored["name"]},
        messages.SUCCESS,
    )
    return redirect("admin:tournaments_tournament_change", tournament.pk)


def _example(kind: str) -> HttpResponse:
    text = EXAMPLE_MAHJONG_CSV if kind == "mahjong" else EXAMPLE_CSV
    response = HttpResponse(text.encode("utf-8-sig"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-example-{kind}.csv"'
    return response
