"""The admin's results editor: a tournament's results apart from the tournament's form, a page of rows at a time.

Why apart: a 500-player championship as an inline is 2,500 fields (Django refuses more than 1,000) and a widget
query per row. Here a page holds ``PAGE_SIZE`` rows, every read is one query whatever the page's length (the page's
results, their players' labels, the other pages' players for the duplicate check), and a save writes only the rows
that changed, through ``tournaments.services.tournament_results_save`` (all or nothing).

The grid is for the keyboard (``static/js/results-editor.js``: Enter goes down a column, Ctrl+Enter saves), the
player is picked by the admin's autocomplete fed by ``player_choices`` (the public search: either alphabet, ё/е,
transliteration; city, club and id beside each name), and a table pasted from a spreadsheet replaces the results
through the same checks as the file import (``tournaments.importing.results_parse``).
"""

from __future__ import annotations

import csv
import io

from django import forms
from django.contrib import messages
from django.contrib.admin.widgets import AutocompleteSelect, AutocompleteSelectMultiple
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.db import IntegrityError
from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from federation.models import Player
from federation.selectors import player_choices, player_labels
from federation.uploads import ImportFileError
from tournaments.importing import results_parse
from tournaments.models import Discipline, Result, Tournament
from tournaments.services import (
    judge_problems,
    tournament_results_locked,
    tournament_results_replace,
    tournament_results_save,
)

PAGE_SIZE = 50
#: Empty rows at the end of the last page.
EXTRA_ROWS = 10
#: A page of the player picker's answers.
PICKER_PAGE = 20
#: Lines a paste may hold (a paste is a table typed by a person; files go through the import).
MAX_PASTE_LINES = 2000


class PlayerPick(AutocompleteSelect):
    """The admin's autocomplete (select2) for one player, asking ``player_search_view`` and labelled from a dict the
    formset fills in one query: no query per row."""

    def __init__(self, *args, url: str = "", **kwargs):
        super().__init__(Result._meta.get_field("player"), None, *args, **kwargs)
        self.url = url
        self.labels: dict[int, str] = {}

    def get_url(self):
        return self.url

    def build_attrs(self, base_attrs, extra_attrs=None):
        attrs = super().build_attrs(base_attrs, extra_attrs=extra_attrs)
        attrs["data-placeholder"] = _("Surname, in either alphabet")
        attrs["class"] = attrs["class"] + " results-player"
        # The picker fills its cell (static/css/results-editor.css sizes the cell) rather than select2's fixed
        # width: the city, club and id that tell namesakes apart stay readable (issue 28).
        attrs["data-width"] = "100%"
        return attrs

    def optgroups(self, name, value, attrs=None):
        options = [self.create_option(name, "", "", False, 0)]
        for index, pk in enumerate(v for v in value if str(v).isdigit()):
            label = self.labels.get(int(pk), _("player №%(id)s") % {"id": pk})
            options.append(self.create_option(name, str(pk), label, True, index + 1))
        return [(None, options, 0)]


class PlayersPick(AutocompleteSelectMultiple):
    """The same picker for several players (a tournament's judges): the chosen ones labelled in one query."""

    def __init__(self, *args, url: str = "", **kwargs):
        super().__init__(Tournament._meta.get_field("judges"), None, *args, **kwargs)
        self.url = url

    def get_url(self):
        return self.url

    def optgroups(self, name, value, attrs=None):
        labels = player_labels(value)
        options = [
            self.create_option(name, str(pk), labels.get(int(pk), pk), True, index)
            for index, pk in enumerate(v for v in value if str(v).isdigit())
        ]
        return [(None, options, 0)]


class ResultRowForm(forms.Form):
    id = forms.IntegerField(required=False, widget=forms.HiddenInput)
    place = forms.IntegerField(label=gettext_lazy("place"), min_value=1, required=False)
    player = forms.IntegerField(label=gettext_lazy("player"), required=False)
    participant_name = forms.CharField(
        label=gettext_lazy("participant without a profile"), max_length=200, required=False
    )
    hanchans_played = forms.IntegerField(
        label=gettext_lazy("hanchans played"), min_value=0, max_value=1000, required=False
    )
    substitute = forms.BooleanField(label=gettext_lazy("substitute"), required=False)

    def __init__(self, *args, picker_url: str = "", mahjong: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].widget = PlayerPick(url=picker_url)
        self.fields["place"].widget.attrs.update({"class": "results-place", "inputmode": "numeric", "size": 4})
        self.fields["participant_name"].widget.attrs.update({"class": "results-name", "size": 22})
        if not mahjong:
            del self.fields["hanchans_played"]
            del self.fields["substitute"]

    def is_blank(self) -> bool:
        data = self.cleaned_data
        return (
            not data.get("id") and not data.get("place") and not data.get("player") and not data.get("participant_name")
        )


class BaseResultFormSet(forms.BaseFormSet):
    """One page of rows; ``clean`` checks them against each other and against the other pages in two queries."""

    def __init__(self, *args, tournament: Tournament, labels: dict[int, str], picker_url: str, **kwargs):
        self.tournament = tournament
        self.labels = labels
        self.picker_url = picker_url
        self.existing: dict[int, Result] = {}
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index):
        return {"picker_url": self.picker_url, "mahjong": self.tournament.discipline == Discipline.MAHJONG}

    def _construct_form(self, i, **kwargs):
        form = super()._construct_form(i, **kwargs)
        form.fields["player"].widget.labels = self.labels
        return form

    def row_label(self, index: int, form) -> str:
        place = form.cleaned_data.get("place") if hasattr(form, "cleaned_data") else None
        return str(place) if place else _("new row %(n)s") % {"n": index + 1}

    def clean(self):
        if any(self.errors):
            return
        ids = [f.cleaned_data["id"] for f in self.forms if f.cleaned_data.get("id")]
        self.existing = {r.pk: r for r in Result.objects.filter(tournament=self.tournament, pk__in=ids)}
        player_ids = {f.cleaned_data["player"] for f in self.forms if f.cleaned_data.get("player")}
        known = set(Player.objects.filter(pk__in=player_ids).values_list("pk", flat=True))
        elsewhere = dict(
            Result.objects.filter(tournament=self.tournament, player_id__in=player_ids)
            .exclude(pk__in=ids)
            .values_list("player_id", "place")
        )
        seen: dict[int, str] = {}
        for index, form in enumerate(self.forms):
            data = form.cleaned_data
            if form.is_blank() or self._should_delete_form(form):
                continue
            if data.get("id") and data["id"] not in self.existing:
                form.add_error(None, _("This row was deleted meanwhile; reload the page."))
                continue
            row = self.row_label(index, form)
            player = data.get("player")
            if not data.get("place"):
                form.add_error("place", _("Row %(row)s: the place is empty.") % {"row": row})
            if player is None and not data.get("participant_name"):
                form.add_error(
                    "player",
                    _("Row %(row)s: choose a player or type the name of a participant without a profile.")
                    % {"row": row},
                )
            if player is not None and data.get("participant_name"):
                form.add_error(
                    "participant_name", _("Row %(row)s names two people: a player and a name.") % {"row": row}
                )
            if player is None:
                continue
            if player not in known:
                form.add_error("player", _("Row %(row)s: there is no player №%(id)s.") % {"row": row, "id": player})
            elif player in seen:
                form.add_error(
                    "player",
                    _("Row %(row)s: %(player)s is already in row %(other)s.")
                    % {"row": row, "player": self.labels.get(player, player), "other": seen[player]},
                )
            elif player in elsewhere:
                form.add_error(
                    "player",
                    _("Row %(row)s: %(player)s is already at place %(place)s on another page.")
                    % {"row": row, "player": self.labels.get(player, player), "place": elsewhere[player]},
                )
            seen[player] = row

    def changes(self) -> tuple[list[Result], list[Result]]:
        """The rows to save (changed or new) and to delete, as ``Result`` instances."""
        save, delete = [], []
        mahjong = self.tournament.discipline == Discipline.MAHJONG
        for form in self.forms:
            data = form.cleaned_data
            if not data or form.is_blank():
                continue
            row = self.existing.get(data.get("id")) if data.get("id") else None
            if self._should_delete_form(form):
                if row is not None:
                    delete.append(row)
                continue
            values = {
                "place": data["place"],
                "player_id": data.get("player"),
                "participant_name": data.get("participant_name") or "",
            }
            if mahjong:
                values.update(hanchans_played=data.get("hanchans_played"), substitute=bool(data.get("substitute")))
            if row is not None and all(getattr(row, key) == value for key, value in values.items()):
                continue  # unchanged: not written, no history row
            row = row or Result(tournament=self.tournament)
            for key, value in values.items():
                setattr(row, key, value)
            save.append(row)
        return save, delete


ResultFormSet = forms.formset_factory(
    ResultRowForm,
    formset=BaseResultFormSet,
    extra=0,
    can_delete=True,
    max_num=PAGE_SIZE + EXTRA_ROWS,
    absolute_max=PAGE_SIZE + EXTRA_ROWS,
    validate_max=True,
)


class PasteForm(forms.Form):
    table = forms.CharField(
        label=gettext_lazy("Table pasted from a spreadsheet"),
        widget=forms.Textarea(attrs={"rows": 8, "cols": 80, "class": "results-paste"}),
        help_text=gettext_lazy(
            'One result a line: the place, then the player\'s id on this site or "Surname Name" (or a participant '
            "without a profile in a third column); for mahjong then hanchans and substitute. Cells separated by tabs "
            "(as a spreadsheet copies them) or semicolons; a header line in the file import's names is welcome."
        ),
    )
    replace = forms.BooleanField(label=gettext_lazy("Replace the results entered so far"), required=False)


def paste_to_csv(text: str, *, mahjong: bool) -> tuple[bytes, int]:
    """A pasted table as the CSV the import reads, and how many lines it has that the person did not paste (1 when a
    header is added, else 0: ``results_parse(row_offset=...)`` names every row by its line in the paste).

    Kept as is if its first line is a header, otherwise the columns are place, player (an id when the cell is a
    number, else a name), participant and, for mahjong, hanchans and substitute. Empty lines stay (as empty rows,
    which the import skips), so that the line numbers are the paste's."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[-1].strip():
        lines.pop()
    if sum(1 for line in lines if line.strip()) > MAX_PASTE_LINES or len(lines) > 2 * MAX_PASTE_LINES:
        raise ValidationError(
            _("A paste may hold at most %(n)s lines; import a file instead.") % {"n": MAX_PASTE_LINES}
        )
    delimiter = "\t" if any("\t" in line for line in lines) else ";"
    rows = [line.split(delimiter) if line.strip() else [] for line in lines]
    first = next((cells for cells in rows if cells), None)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    if first is not None and not first[0].strip().isdigit():
        writer.writerows(rows)
        return out.getvalue().encode(), 0
    header = ["place", "player_id", "player", "participant"] + (["hanchans", "substitute"] if mahjong else [])
    writer.writerow(header)
    for cells in rows:
        if not cells:
            writer.writerow([])
            continue
        cells = [c.strip() for c in cells] + [""] * 6
        who = cells[1]
        line = [cells[0], who if who.isdigit() else "", "" if who.isdigit() else who, cells[2]]
        if mahjong:
            line += [cells[3], cells[4]]
        writer.writerow(line)
    return out.getvalue().encode(), 1


def player_search_view(model_admin):
    """The picker's answers, as the admin's select2 reads them: ``{"results": [{"id", "text"}], "pagination"}``."""

    def view(request):
        if not (model_admin.has_add_permission(request) or model_admin.has_change_permission(request)):
            raise PermissionDenied
        term = request.GET.get("term", "")[:100]
        try:
            page = max(1, min(int(request.GET.get("page") or 1), 50))
        except ValueError:
            page = 1
        if not term.strip():
            return JsonResponse({"results": [], "pagination": {"more": False}})
        choices, more = player_choices(search=term, limit=PICKER_PAGE, offset=(page - 1) * PICKER_PAGE)
        return JsonResponse(
            {"results": [{"id": str(c.pk), "text": c.label} for c in choices], "pagination": {"more": more}}
        )

    return view


def results_editor_view(model_admin):
    """``admin/tournaments/tournament/<pk>/results/?page=N``: one page of the grid, its save, and the paste."""

    def view(request, pk):
        tournament = model_admin.get_object(request, str(pk))
        if tournament is None:
            raise Http404(_("No such tournament."))
        if not model_admin.has_view_permission(request, tournament):
            raise PermissionDenied
        locked = tournament_results_locked(tournament=tournament, user=request.user)
        if not locked and not model_admin.has_change_permission(request, tournament):
            locked = _("You may not change this tournament.")
        url = reverse("admin:tournaments_tournament_results", args=[tournament.pk])
        picker_url = reverse("admin:tournaments_tournament_players")
        ordered = Result.objects.filter(tournament=tournament).order_by("place", "id")
        paginator = Paginator(ordered.values_list("pk", flat=True), PAGE_SIZE, allow_empty_first_page=True)
        page = paginator.get_page(request.GET.get("page"))
        mahjong = tournament.discipline == Discipline.MAHJONG
        paste = PasteForm(request.POST if request.POST.get("action") == "paste" else None)

        if request.method == "POST" and locked:
            messages.error(request, locked)
            return HttpResponseRedirect(f"{url}?page={page.number}")

        if request.method == "POST" and request.POST.get("action") == "paste":
            if paste.is_valid():
                outcome = _paste(request, tournament, paste, mahjong)
                if outcome is not None:
                    return HttpResponseRedirect(url)
            formset = _page_formset(tournament, page, picker_url)
        elif request.method == "POST":
            posted_players = [v for k, v in request.POST.items() if k.endswith("-player")]
            formset = ResultFormSet(
                request.POST, tournament=tournament, labels=player_labels(posted_players), picker_url=picker_url
            )
            if formset.is_valid():
                save, delete = formset.changes()
                try:
                    done = tournament_results_save(
                        tournament=tournament, user=request.user, save_rows=save, delete_rows=delete
                    )
                except ValidationError as error:
                    messages.error(request, " ".join(error.messages))
                except IntegrityError:
                    messages.error(
                        request, _("Someone changed these results meanwhile; nothing was saved. Reload the page.")
                    )
                else:
                    messages.success(
                        request,
                        _("Saved: %(added)s added, %(changed)s changed, %(deleted)s deleted.")
                        % {"added": done.added, "changed": done.changed, "deleted": done.deleted},
                    )
                    for problem in judge_problems(tournament=tournament):
                        messages.warning(request, problem)
                    target = page.number
                    if "_next" in request.POST and page.has_next():
                        target = page.next_page_number()
                    return HttpResponseRedirect(f"{url}?page={target}")
        else:
            formset = _page_formset(tournament, page, picker_url)

        context = {
            **model_admin.admin_site.each_context(request),
            "opts": model_admin.model._meta,
            "original": tournament,
            "title": _("Results: %(tournament)s") % {"tournament": tournament},
            "tournament": tournament,
            "formset": formset,
            "paste": paste,
            "page": page,
            "paginator": paginator,
            "locked": locked,
            "mahjong": mahjong,
            "media": formset.media if formset.forms else ResultRowForm(picker_url=picker_url).media,
            "change_url": reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
            "import_url": reverse("admin:tournaments_tournament_import", args=[tournament.pk]),
        }
        return TemplateResponse(request, "admin/tournaments/tournament/results.html", context)

    return view


def _page_formset(tournament: Tournament, page, picker_url: str):
    rows = list(Result.objects.filter(pk__in=list(page.object_list)).order_by("place", "id"))
    initial = [
        {
            "id": r.pk,
            "place": r.place,
            "player": r.player_id,
            "participant_name": r.participant_name,
            "hanchans_played": r.hanchans_played,
            "substitute": r.substitute,
        }
        for r in rows
    ]
    player_ids = [r.player_id for r in rows if r.player_id]
    if not rows and page.number == 1:
        # Nothing entered yet: the players registered online (tournaments/calendar) are the first rows, places empty,
        # so the organiser types only the places. Newcomers not matched to the registry come by name.
        from tournaments.calendar.services import registered_for_results

        registered = registered_for_results(tournament=tournament)[:PAGE_SIZE]
        initial = [{"player": r.player_id, "participant_name": "" if r.player_id else r.name} for r in registered]
        player_ids = [r.player_id for r in registered if r.player_id]
    if not page.has_next():
        initial += [{}] * EXTRA_ROWS
    labels = player_labels(player_ids)
    return ResultFormSet(initial=initial, tournament=tournament, labels=labels, picker_url=picker_url)


def _paste(request, tournament: Tournament, paste: PasteForm, mahjong: bool):
    existing = tournament.results.count()
    if existing and not paste.cleaned_data["replace"]:
        paste.add_error(
            "replace",
            ngettext(
                "The tournament has %(count)s result; tick the box to replace it with the pasted table.",
                "The tournament has %(count)s results; tick the box to replace them with the pasted table.",
                existing,
            )
            % {"count": existing},
        )
        return None
    try:
        content, added = paste_to_csv(paste.cleaned_data["table"], mahjong=mahjong)
    except ValidationError as error:
        paste.add_error("table", error)
        return None
    try:
        report = results_parse(tournament=tournament, content=content, filename="paste.csv", row_offset=added)
    except ImportFileError as error:
        paste.add_error("table", error.message)
        return None
    if not report.is_clean:
        for problem in report.problems[:50] or [_("The table has no result rows.")]:
            paste.add_error("table", str(problem))
        return None
    try:
        saved = tournament_results_replace(tournament=tournament, rows=report.result_rows(), user=request.user)
    except ValidationError as error:
        paste.add_error(None, " ".join(error.messages))
        return None
    messages.success(
        request,
        ngettext(
            "%(count)d result saved from the pasted table.",
            "%(count)d results saved from the pasted table.",
            len(saved),
        )
        % {"count": len(saved)},
    )
    return saved
