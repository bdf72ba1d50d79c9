"""The mahjong part of a player's page written in Python (issue 16) is what ``mahjong/_player.html`` wrote before,
byte for byte, in both languages: a player in no list, in one list only, in all three with scores and their age
coefficient below 100 %, one who dropped out of the lists (the chart only), an earlier date on the standalone page, a
tournament with markup in its name and one deleted since. It reads fewer queries, and the public API's ratings of the
player (which read the same context) do not change."""

import datetime

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext as _

from federation import charts
from federation.api.v1.reads import player_ratings
from ratings.mahjong import services
from ratings.mahjong.sections import player_context, player_section
from ratings.mahjong.selectors import latest_snapshots, mahjong_lists, tournament_names
from ratings.models import RatingEntry
from tests.factories import PlayerFactory
from tests.ratings.mahjong.factories import mahjong_tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

#: ``mahjong/_player.html`` as it was before the section was written in Python (the reference).
OLD_TEMPLATE = """\
{% load i18n static fmt %}<div class="mahjong-player" id="mahjong-player">
<h2 class="h4">{% translate "Riichi mahjong ratings" %}{% if in_section %} <small><a class="small" \
href="{% url 'ratings:mahjong:player' player.pk %}">{% translate "details" %}</a></small>{% endif %}</h2>
<p class="small"><a class="guide-link" href="{% url 'ratings:guide' 'mahjong' %}">\
{% translate "How this rating works" %}</a></p>
<div class="table-container"><table class="table table-sm align-middle" id="mahjong-player-ratings">
  <thead><tr><th>{% translate "List" %}</th><th class="text-end col-rating">{% translate "Rating" %}</th>\
<th class="text-end">{% translate "Rank" %}</th><th class="text-end">{% translate "Change" %}</th>\
<th class="d-none d-md-table-cell">{% translate "As of" %}</th><th class="text-end d-none d-md-table-cell">\
{% translate "Part A" %}</th><th class="text-end d-none d-md-table-cell">{% translate "Part B" %}</th></tr></thead>
  <tbody>{% for row in rows %}<tr>
    <td><a href="{% url 'ratings:mahjong:list' row.list.slug %}{% if row.snapshot %}\
?date={{ row.snapshot.as_of|date:'Y-m-d' }}{% endif %}">{{ row.name }}</a></td>
    {% if row.entry %}
      <td class="text-end fw-bold">{{ row.entry.rating|rating:2 }}</td><td class="text-end">{{ row.entry.rank }}</td>
      <td class="text-end">{% if row.entry.delta is not None %}{{ row.entry.delta|delta:2 }}{% endif %}</td>
      <td class="text-nowrap d-none d-md-table-cell">{% if row.snapshot %}{{ row.snapshot.as_of|day }}{% endif %}</td>
      <td class="text-end d-none d-md-table-cell">{{ row.entry.details.part_a|rating:2 }}</td>\
<td class="text-end d-none d-md-table-cell">{{ row.entry.details.part_b|rating:2 }}</td>
    {% else %}<td colspan="6" class="text-muted small">\
{% translate "not listed (fewer than 2 tournaments counted)" %}</td>{% endif %}
  </tr>{% endfor %}</tbody>
</table></div>
{% if chart %}{% translate "Rating and place over time" as label %}{% include "_chart.html" with chart=chart \
chart_id="mahjong-chart" data_id="mahjong-chart-data" label=label %}{% endif %}
{% for row in rows %}{% if row.entry %}
<h3 class="h5 mt-3">{{ row.name }}: {% translate "how the rating is made" %}</h3>
<div class="table-container"><table class="table table-sm table-striped align-middle mahjong-breakdown" \
data-list="{{ row.list.slug }}">
  <thead><tr><th>{% translate "Tournament" %}</th><th class="text-end">W·R·A</th><th class="text-end">\
{% translate "Place" %}</th><th class="d-none d-md-table-cell">{% translate "Date" %}</th>\
<th class="text-end d-none d-md-table-cell">W</th><th class="text-end d-none d-md-table-cell">R</th>\
<th class="text-end d-none d-md-table-cell">A, %</th><th>{% translate "Parts" %}</th></tr></thead>
  <tbody>{% for score in row.scores %}<tr>
    <td>{% if score.tournament %}<a href="{{ score.tournament.get_absolute_url }}">{{ score.tournament.name }}</a>\
{% else %}{{ score.t }}{% endif %}</td>
    <td class="text-end fw-bold">{{ score.delta|rating:2 }}</td><td class="text-end text-nowrap">\
{{ score.place }} / {{ score.players }}</td>
    <td class="text-nowrap d-none d-md-table-cell">{{ score.end|day }}</td>
    <td class="text-end d-none d-md-table-cell">{{ score.w|rating:2 }}</td><td class="text-end d-none d-md-table-cell">\
{{ score.r|rating:2 }}</td><td class="text-end d-none d-md-table-cell">{{ score.a|rating:2 }}</td>
    <td>{% if score.in_a %}<span class="badge text-bg-primary">A</span>{% endif %} {% if score.in_b %}\
<span class="badge text-bg-success">B</span>{% endif %}</td>
  </tr>{% endfor %}</tbody>
</table></div>
<pre class="small bg-light p-2 mahjong-formula">{% for line in row.formula %}{{ line|plain }}
{% endfor %}</pre>
{% endif %}{% endfor %}
</div>
"""


def _old_context(*, player, as_of, language):
    """``ratings.mahjong.sections.player_context`` as it was (model instances, one query per kind of row)."""
    lists = list(mahjong_lists())
    snapshots = latest_snapshots(lists=lists, as_of=as_of)
    entries = {
        entry.snapshot_id: entry
        for entry in RatingEntry.objects.filter(player=player, snapshot__in=list(snapshots.values()))
    }
    history = {rating_list.pk: [] for rating_list in lists}
    for list_id, day, rating, rank in (
        RatingEntry.objects.filter(player=player, snapshot__rating_list__in=lists)
        .order_by("snapshot__as_of")
        .values_list("snapshot__rating_list_id", "snapshot__as_of", "rating", "rank")
    ):
        history[list_id].append({"date": day.isoformat(), "rating": float(rating), "rank": rank})
    ids = {score["t"] for entry in entries.values() for score in entry.details.get("scores", [])}
    names = tournament_names(ids)
    ru = language.startswith("ru")
    rows, chart_series, events = [], [], []
    for rating_list in lists:
        snapshot = snapshots.get(rating_list.pk)
        entry = entries.get(snapshot.pk) if snapshot else None
        scores, formula = [], []
        if entry is not None:
            scores = [{**score, "tournament": names.get(score["t"])} for score in entry.details.get("scores", [])]
            formula = entry.details.get("formula", {}).get("ru" if ru else "en", [])
        name = rating_list.display_name(language)
        rows.append(
            {
                "list": rating_list,
                "name": name,
                "snapshot": snapshot,
                "entry": entry,
                "scores": scores,
                "formula": formula,
            }
        )
        points = history[rating_list.pk]
        if points:
            chart_series.append(charts.series(name, [(p["date"], p["rating"]) for p in points], stepped=True))
            chart_series.append(
                charts.series(
                    f"{name}: {_('place')}", [(p["date"], p["rank"]) for p in points], axis="rank", stepped=True
                )
            )
        events += [charts.event(score["end"], score["tournament"].name) for score in scores if score.get("tournament")]
    chart = (
        charts.time_chart(chart_series, events=events, rating=_("rating"), rank=_("place")) if chart_series else None
    )
    return {"player": player, "rows": rows, "chart": chart, "has_any": any(row["entry"] for row in rows) or bool(chart)}


def _old_html(player, *, as_of=None, in_section=True):
    """The old section (``in_section``) or the old fragment of the standalone page; None when it showed nothing."""
    context = _old_context(player=player, as_of=as_of, language=translation.get_language())
    if not context["has_any"]:
        return None
    return Template(OLD_TEMPLATE).render(Context({**context, "in_section": in_section}))


def _new_html(player, *, as_of=None, in_section=True):
    if in_section:
        return player_section(RequestFactory().get("/"), player)
    from django.template.loader import render_to_string

    context = player_context(player=player, as_of=as_of, language=translation.get_language())
    return render_to_string("mahjong/_player.html", context) if context["has_any"] else None


DAY = datetime.date(2025, 1, 10)


@pytest.fixture
def field():
    """Three kinds of players in tournaments from January 2024 to June 2025, the lists computed on several dates.

    ``star`` plays every tournament: eight offline (accredited, so in RR and CRR; the oldest have A below 100 % by the
    last date) and three online, one of them deleted after the lists were computed, one named with markup. ``crr``
    plays two tournaments that are not accredited: in CRR only. ``gone`` played two tournaments of early 2024, listed
    then, no longer listed when they are older than two years."""
    services.mahjong_setup_defaults()
    others = [PlayerFactory() for _ in range(17)]
    star, crr, gone = PlayerFactory(), PlayerFactory(), PlayerFactory()
    for number in range(8):
        order = others[number:] + others[:number]
        players = [*order[:number], star, *order[number:]] + ([gone] if number < 2 else [])
        name = 'Кубок <b>"Ветер" & Co</b>' if number == 3 else f"Турнир {number}"
        mahjong_tournament(
            players=players, end=datetime.date(2024, 1, 20) + datetime.timedelta(days=61 * number), name=name
        )
    for number in range(3):
        players = [*others[: 2 * number], star, *others[2 * number :]]
        mahjong_tournament(
            players=players, end=DAY + datetime.timedelta(days=30 * number), online=True, name=f"Онлайн {number}"
        )
    for number in range(2):
        mahjong_tournament(
            players=[crr, *others[:13]],
            end=datetime.date(2025, 2, 1) + datetime.timedelta(days=9 * number),
            accredited=False,
        )
    for day in ("2024-04-01", "2025-01-15", "2025-03-20", "2025-06-01", "2026-04-01"):
        services.mahjong_daily(today=datetime.date.fromisoformat(day))
    deleted = Tournament.objects.get(name="Онлайн 1")
    deleted_id = deleted.pk
    deleted.delete()
    return {"star": star, "crr": crr, "gone": gone, "nobody": PlayerFactory(), "deleted_id": deleted_id}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_section_is_the_old_template(field, language):
    with translation.override(language):
        for who in ("star", "crr", "gone", "nobody"):
            player = field[who]
            with CaptureQueriesContext(connection) as old_queries:
                old = _old_html(player)
            with CaptureQueriesContext(connection) as new_queries:
                new = _new_html(player)
            assert new == old, who
            assert len(new_queries) < len(old_queries), who
        for as_of in (None, datetime.date(2024, 5, 1), datetime.date(2025, 4, 1), datetime.date(2023, 1, 1)):
            for who in ("star", "crr", "gone"):
                assert _new_html(field[who], as_of=as_of, in_section=False) == _old_html(
                    field[who], as_of=as_of, in_section=False
                ), (who, as_of)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_what_the_section_shows(field, language):
    """The cases the comparison covers are there: A below 100 %, the markup escaped, a deleted tournament's id, a
    list without a snapshot yet, a first entry without a change, a player shown by the chart only, none at all."""
    with translation.override(language):
        star = _new_html(field["star"])
        crr = _new_html(field["crr"])
        gone = _new_html(field["gone"])
        early = _new_html(field["star"], as_of=datetime.date(2024, 5, 1), in_section=False)
        assert _new_html(field["nobody"]) is None
    assert star.count("mahjong-breakdown") == 3
    assert ("14,29" if language == "ru" else "14.29") in star  # Турнир 2, 22 months old on 1 Apr 2026: A = 1/7
    assert "Кубок &lt;b&gt;&quot;Ветер&quot; &amp; Co&lt;/b&gt;</a>" in star
    assert f"<td>{field['deleted_id']}</td>" in star
    assert "Онлайн 1" not in star
    assert crr.count("mahjong-breakdown") == 1
    assert crr.count("not listed (fewer" if language == "en" else "нет в списке") == 2
    assert "mahjong-breakdown" not in gone
    assert 'id="mahjong-chart"' in gone
    # On 1 May 2024 the online list had no snapshot yet (no date in its link), and RR's first entry had no change.
    assert 'mahjong-online/">' in early
    assert 'mahjong-rr/?date=2024-04-01">' in early
    assert '<td class="text-end"></td>' in early
    assert "подробнее" not in early
    assert "details</a>" not in early


def test_the_api_reads_the_same_ratings(field):
    for who in ("star", "crr", "gone"):
        rows = _old_context(player=field[who], as_of=None, language="en")["rows"]
        expected = [
            {
                "system": row["list"].engine,
                "list": row["list"].slug,
                "list_name": row["name"],
                "rating": float(row["entry"].rating),
                "rank": row["entry"].rank,
                "as_of": row["snapshot"].as_of,
                "details": {
                    "tournaments": row["entry"].events,
                    "part_a": row["entry"].details.get("part_a"),
                    "part_b": row["entry"].details.get("part_b"),
                },
            }
            for row in rows
            if row["entry"] is not None
        ]
        found = [item for item in player_ratings(field[who], "en") if item["system"].startswith("mahjong")]
        assert found == expected, who
