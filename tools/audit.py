"""``make audit``: Lighthouse (npm ``lighthouse@12.2.3``, driving Debian's chromium) on the home page, a rating
list, a player and a tournament of the demo federation; every page must score 100 for accessibility, best practices
and SEO. Prints one line per page and category, and what failed; exits 1 when a score is below 100.

Lighthouse is installed once into ``.lighthouse/`` (``npm install --prefix``, ignored by git). The site is served by
gunicorn (test settings, whitenoise serving the static files) on a free local port, from a SQLite database in a
temporary folder holding the small demo (``demo_data --players 60 --years 1``), so nothing of the developer's own
database is touched.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = "lighthouse@12.2.3"
PREFIX = ROOT / ".lighthouse"
BINARY = PREFIX / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("accessibility", "best-practices", "seo")


def chromium() -> str:
    for candidate in (os.environ.get("CHROME_PATH"), shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise SystemExit("make audit needs Chromium: apt-get install chromium")


def install() -> None:
    if BINARY.exists():
        return
    if not shutil.which("npm"):
        raise SystemExit("make audit needs npm: apt-get install npm")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(PREFIX), LIGHTHOUSE], check=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve(env: dict, port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "gunicorn", "federation.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    server = subprocess.Popen([*command, "--workers", "2", "--log-level", "warning"], cwd=ROOT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("gunicorn did not start within 30 s")


def pages(env: dict) -> list[tuple[str, str]]:
    code = (
        "import django; django.setup();"
        "from federation.models import Player; from tournaments.models import Tournament;"
        "from ratings.models import RatingEntry;"
        "p = RatingEntry.objects.filter(snapshot__rating_list__slug='gorbunov').values_list('player_id', flat=True)[0];"
        "t = Tournament.objects.filter(status='approved').order_by('-end_date').values_list('pk', flat=True)[0];"
        "print(p, t)"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    player, tournament = out.stdout.split()
    return [
        ("home", "/"),
        ("list", "/ratings/cards/gorbunov/"),
        ("player", f"/players/{player}/"),
        ("tournament", f"/tournaments/{tournament}/"),
    ]


def lighthouse(url: str, browser: str, folder: Path) -> dict:
    report = folder / "report.json"
    flags = "--headless=new --no-sandbox --disable-gpu"
    command = [str(BINARY), url, f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={flags}"]
    command += ["--output=json", f"--output-path={report}", "--quiet"]
    subprocess.run(command, env={**os.environ, "CHROME_PATH": browser}, check=True, timeout=300)
    return json.loads(report.read_text())


def failures(report: dict) -> list[str]:
    found = []
    for category in report["categories"].values():
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
                found.append(f"{category['id']}: {audit['title']}")
    return found


def main() -> int:
    install()
    browser = chromium()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "federation.settings.test",
            "DATABASE_URL": f"sqlite:///{folder}/audit.sqlite3",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DJANGO_LOG_LEVEL": "WARNING",
            "CELERY_BROKER_URL": "",
        }
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
        demo = [*manage, "demo_data", "--players", "60", "--years", "1", "--force"]
        subprocess.run(demo, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)
        port = free_port()
        server = serve(env, port)
        worst = 1.0
        try:
            for name, path in pages(env):
                report = lighthouse(f"http://127.0.0.1:{port}{path}", browser, Path(folder))
                scores = {key: report["categories"][key]["score"] for key in CATEGORIES}
                worst = min(worst, *scores.values())
                line = "  ".join(f"{key} {round(score * 100)}" for key, score in scores.items())
                print(f"{name:<11} {path:<28} {line}")
                for failure in failures(report):
                    print(f"{'':<11} not passed: {failure}")
        finally:
            server.terminate()
            server.wait(timeout=20)
    if worst < 1:
        print("make audit: a page scores below 100", file=sys.stderr)
        return 1
    print("make audit: 100 for accessibility, best practices and SEO on every page")
    return 0


if __name__ == "__main__":
    sys.exit(main())
