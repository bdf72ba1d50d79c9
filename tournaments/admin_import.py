"""The admin page that imports a tournament's results from a CSV or XLSX file: upload, preview, confirm.

The steps, and the check of the stored file at confirmation, are the site's one upload flow
(``federation.uploads``); this module reads a results file for it and hands the rows to
``tournament_results_replace`` (all or nothing). The file format is described in ``tournaments.importing``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from federation.uploads import Checked, UploadFlow
from tournaments.importing import EXTENSIONS, results_parse
from tournaments.models import Discipline, Tournament, TournamentStatus
from tournaments.services import tournament_results_locked, tournament_results_replace

TEMPLATE = "admin/tournaments/tournament/import.html"
RESULT_PERMISSIONS = ("tournaments.add_result", "tournaments.delete_result")

EXAMPLE_CSV = "place;player_id;surname;name;participant\n1;12;;;\n2;;Иванов;Иван;\n3;;Smirnova;Anna;\n4;;;;Пётр Гость\n"
EXAMPLE_MAHJONG_CSV = "место;фамилия;имя;ханчаны;замена\n1;Иванов;Иван;8;нет\n2;Smirnova;Anna;8;\n3;Петров;Пётр;4;да\n"


class ResultsUpload(UploadFlow):
    template_name = TEMPLATE
    title = gettext_lazy("Import results")
    file_label = gettext_lazy("Results file")
    file_help = gettext_lazy(".csv (UTF-8, comma or semicolon) or .xlsx")
    extensions = EXTENSIONS
    extension_error = gettext_lazy("Only .csv and .xlsx files can be imported.")

    def __init__(self, *, model_admin, request, original: Tournament) -> None:
        super().__init__(model_admin=model_admin, request=request, original=original)
        self.tournament = original
        self.session_key = f"tournament_import:{original.pk}"

    def max_bytes(self) -> int:
        return settings.RESULT_IMPORT_MAX_BYTES

    def refusal(self) -> str:
        if self.tournament.status == TournamentStatus.APPROVED:
            return _("The tournament is approved; ask federation staff to return it to draft first.")
        return tournament_results_locked(tournament=self.tournament, user=self.request.user)

    def page_url(self) -> str:
        return reverse("admin:tournaments_tournament_import", args=[self.tournament.pk])

    def done_url(self) -> str:
        return reverse("admin:tournaments_tournament_change", args=[self.tournament.pk])

    def extra_context(self) -> dict:
        is_mahjong = self.tournament.discipline == Discipline.MAHJONG
        return {
            "tournament": self.tournament,
            "is_mahjong": is_mahjong,
            "existing_results": self.tournament.results.count(),
            "example": EXAMPLE_MAHJONG_CSV if is_mahjong else EXAMPLE_CSV,
        }

    def read(self, content: bytes, name: str, *, save: bool) -> Checked:
        report = results_parse(tournament=self.tournament, content=content, filename=name)
        checked = Checked(context={"report": report}, clean=report.is_clean)
        if not save or not report.is_clean:
            return checked
        try:
            saved = tournament_results_replace(
                tournament=self.tournament, rows=report.result_rows(), user=self.request.user
            )
        except ValidationError as error:
            checked.refused = list(error.messages)
            return checked
        checked.saved = ngettext(
            "%(count)d result imported from %(name)s; the previous results were replaced.",
            "%(count)d results imported from %(name)s; the previous results were replaced.",
            len(saved),
        ) % {"count": len(saved), "name": name}
        return checked


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
        return ResultsUpload(model_admin=model_admin, request=request, original=tournament).response()

    return view


def _example(kind: str) -> HttpResponse:
    text = EXAMPLE_MAHJONG_CSV if kind == "mahjong" else EXAMPLE_CSV
    response = HttpResponse(text.encode("utf-8-sig"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-example-{kind}.csv"'
    return response
