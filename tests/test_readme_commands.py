"""Every ``manage.py`` command the README and docs/ name runs on a fresh clone: its ``--help`` works, no database.

The list is read from the documents themselves, so it grows with them.
"""

import re
from pathlib import Path

import pytest
from django.core.management import ManagementUtility

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NAMED = sorted({name for doc in DOCUMENTS for name in re.findall(r"manage\.py ([a-z_]+)", doc.read_text())})


def test_the_documents_name_the_projects_own_commands():
    assert {"rate", "demo_data", "gorbunov_publish", "preferans_import"} <= set(NAMED)


@pytest.mark.parametrize("command", NAMED)
def test_each_named_command_answers_help(command, capsys):
    with pytest.raises(SystemExit) as stop:
        ManagementUtility(["manage.py", command, "--help"]).execute()
    out, err = capsys.readouterr()
    assert stop.value.code == 0, err
    assert f"manage.py {command}" in out
    assert "Unknown command" not in err
