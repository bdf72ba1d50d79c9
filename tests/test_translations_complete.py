"""Every text the code looks up has its Russian translation in the catalogue that ``make messages`` writes.

Found in issue 16's work: texts translated inside an f-string (``f"{gettext('Menu')}"``, which xgettext does not
read) or listed without a marker were dropped by the next ``makemessages --no-obsolete``, and the Russian pages
showed them in English. This runs the Makefile's extraction on a copy of the sources and checks that the Russian
catalogue it writes has no entry left untranslated or fuzzy, and that the committed catalogue is that one.
"""

import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("manage.py", "federation", "ratings", "tournaments", "templates", "static", "locale")


def test_make_messages_keeps_every_russian_translation(tmp_path):
    if shutil.which("xgettext") is None:
        if os.environ.get("CI"):
            pytest.fail("CI must run this test: install GNU gettext (xgettext)")
        pytest.skip("GNU gettext (xgettext) is not installed; make messages needs it too")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
        else:
            shutil.copy(source, tmp_path / name)
    command = [sys.executable, "manage.py", "makemessages", "-l", "ru", "--ignore=staticfiles", "--no-obsolete"]
    subprocess.run(command, cwd=tmp_path, check=True, capture_output=True, timeout=300)
    extracted = polib.pofile(str(tmp_path / "locale/ru/LC_MESSAGES/django.po"))
    missing = [entry.msgid for entry in extracted if entry.msgid and not entry.translated()]
    assert missing == []
    committed = {(e.msgctxt, e.msgid) for e in polib.pofile(str(ROOT / "locale/ru/LC_MESSAGES/django.po"))}
    assert {(e.msgctxt, e.msgid) for e in extracted} == committed  # make messages was run, and dropped nothing


def test_no_text_is_translated_inside_an_f_string():
    """xgettext reads an f-string as one literal, so a ``gettext("...")`` inside one is never extracted."""
    inside = re.compile(r"""\b(?:gettext|pgettext|ngettext|gettext_lazy|_)\(\s*['"]""")
    found = []
    for path in sorted(p for app in ("federation", "ratings", "tournaments") for p in (ROOT / app).rglob("*.py")):
        with path.open("rb") as source:
            for token in tokenize.tokenize(source.readline):
                f_string = token.type == tokenize.STRING and token.string.lstrip("rbRB").lower().startswith("f")
                if f_string and inside.search(token.string):
                    found.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert found == []
