"""The Chromium the browser tests drive, and what ``make test`` does when there is none.

Debian's ``chromium`` (or ``CHROMIUM_PATH``) first; otherwise Playwright's own download, where the network allows
it. ``python -m tests.web.browser`` (run by ``make test`` before pytest) exits 0 when a Chromium starts, trying the
download once if none is there; otherwise it prints one line saying what to install and exits 1, and ``make test``
deselects the browser tests (in CI, which must run them, it stops instead).
"""

import os
import shutil
import subprocess
import sys

INSTALL = "apt-get install chromium (or python -m playwright install chromium)"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def system_chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM_PATH"), shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def launch_options() -> dict:
    """Playwright's ``chromium.launch`` options: the system Chromium by path when there is one, else its own."""
    path = system_chromium()
    return {"args": ARGS, **({"executable_path": path} if path else {})}


def starts() -> bool:
    """Whether a Chromium starts here (a missing browser or missing system libraries both say no)."""
    from playwright.sync_api import Error, sync_playwright

    try:
        with sync_playwright() as playwright:
            playwright.chromium.launch(**launch_options()).close()
    except Error:
        return False
    return True


def log_in(page, live_server, username, next_url="/en/admin/", password="pass-word-123") -> None:
    """Log in through the admin's form and wait until the page it leads to has loaded.

    Waiting for the load matters: the pages' scripts are deferred, and a test that types into the new page as soon
    as its inputs appear can beat the script's keyboard handlers (an Enter then submits the form instead of moving
    down the grid).
    """
    page.goto(f"{live_server.url}/en/admin/login/?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/admin/login/" not in url, wait_until="load")


def main() -> int:
    if starts():
        return 0
    if os.environ.get("CI"):
        print(f"CI must run the browser tests, and no Chromium starts here: {INSTALL}", file=sys.stderr)
        return 1
    try:
        download = subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"], capture_output=True, check=False, timeout=900
        )
    except subprocess.TimeoutExpired:
        download = None
    if download is not None and download.returncode == 0 and starts():
        print("Browser tests: Playwright's own Chromium, downloaded now (python -m playwright install chromium).")
        return 0
    print(f"Browser tests deselected: they need Chromium, none here and Playwright's download failed: {INSTALL}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
