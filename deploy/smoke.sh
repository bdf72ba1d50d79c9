#!/usr/bin/env bash
# deploy/smoke.sh DOMAIN: check an installed site through its proxy, as CI does after deploy/install.sh.
#
# Every entry point (manage.py, the Celery app, wsgi, asgi) started with an empty environment runs on the production
# settings. Then over HTTPS through Caddy (the domain pinned to 127.0.0.1, as a test domain resolves nowhere; with
# `install.sh --tls-internal` the certificate checked against Caddy's own authority): the home page, the redirect
# from plain HTTP, a static file's caching, a wrong host name's 400, the admin's login with a throwaway superuser, a
# Gorbunov publication sent through the broker and finished by the worker, the health address, and a backup taken by
# the worker and restored (a marker deleted after the backup is back after the restore). Leaves nothing behind but
# the job runs and the backup file. Run as root on the server.
set -euo pipefail

DOMAIN=${1:?usage: $0 DOMAIN}
APP_DIR=/srv/federation/app
CA=/var/lib/caddy/.local/share/caddy/pki/authorities/local/root.crt
WORK=$(mktemp -d)
NONCE=$(date +%s)-$$
SMOKE_USER=smoke-$NONCE
trap 'rm -rf "$WORK"; federation-manage shell --no-imports -c "
from django.contrib.auth.models import Group, User
User.objects.filter(username=\"$SMOKE_USER\").delete()
Group.objects.filter(name=\"smoke-$NONCE\").delete()" >/dev/null 2>&1 || true' EXIT

CURL=(curl -sS --max-time 30 --resolve "$DOMAIN:443:127.0.0.1" --resolve "$DOMAIN:80:127.0.0.1")
[ -f "$CA" ] && CURL+=(--cacert "$CA")
BASE=https://$DOMAIN

passed=0
check() { # check NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then
    echo "ok    $name"
    passed=$((passed + 1))
  else
    echo "FAIL  $name"
    exit 1
  fi
}
status_of() { "${CURL[@]}" -o /dev/null -w '%{http_code}' "$@"; }
# Run Python in the site's shell (as its user, with its settings) and print what it prints.
site_python() { federation-manage shell --no-imports -c "$1"; }

# --- one settings default ---------------------------------------------------------------------------------------
# Started with nothing in the environment, as a worker started by hand would be: each entry point reads the .env.
for entry in federation.celery federation.wsgi federation.asgi; do
  chosen=$(cd "$APP_DIR" && runuser -u federation -- env -i PATH=/usr/bin:/bin /srv/federation/venv/bin/python -c \
    "import $entry; from django.conf import settings; print(settings.SETTINGS_MODULE)")
  check "$entry started without DJANGO_SETTINGS_MODULE runs on $chosen" test "$chosen" = federation.settings.production
done
chosen=$(federation-manage shell --no-imports -c "from django.conf import settings; print(settings.SETTINGS_MODULE)")
check "manage.py started without DJANGO_SETTINGS_MODULE runs on $chosen" test "$chosen" = federation.settings.production

# --- pages through the proxy ------------------------------------------------------------------------------------
check "the home page over HTTPS" test "$(status_of "$BASE/")" = 200
"${CURL[@]}" "$BASE/en/" >"$WORK/home.html"
check "the home page is the site's" grep -q '<html lang="en"' "$WORK/home.html"
check "plain HTTP is redirected to HTTPS" test "$("${CURL[@]}" -o /dev/null -w '%{http_code} %{redirect_url}' \
  "http://$DOMAIN/players/")" = "308 https://$DOMAIN/players/"
css=$(grep -o '/static/css/site\.[0-9a-f]*\.css' "$WORK/home.html" | head -n 1)
"${CURL[@]}" -I "$BASE$css" >"$WORK/static.txt"
check "a static file ($css) is kept for a year" grep -qi 'cache-control: public, max-age=31536000, immutable' \
  "$WORK/static.txt"
check "a wrong host name is a 400, not a server error" test "$(curl -sS -o /dev/null -w '%{http_code}' \
  -H 'Host: not-this-site.example' -H 'X-Forwarded-Proto: https' http://127.0.0.1:8000/)" = 400

# --- the admin's login ------------------------------------------------------------------------------------------
password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')
site_python "
from django.contrib.auth.models import User
User.objects.create_superuser('$SMOKE_USER', 'smoke@example.org', '$password')" >/dev/null
jar=$WORK/cookies
"${CURL[@]}" -c "$jar" -b "$jar" "$BASE/en/admin/login/" >"$WORK/login.html"
token=$(sed -n 's/.*name="csrfmiddlewaretoken" value="\([^"]*\)".*/\1/p' "$WORK/login.html" | head -n 1)
check "the admin's login page links to the password reset" grep -q '/en/admin/password_reset/' "$WORK/login.html"
answer=$("${CURL[@]}" -c "$jar" -b "$jar" -o /dev/null -w '%{http_code} %{redirect_url}' \
  -H "Referer: $BASE/en/admin/login/" --data-urlencode "csrfmiddlewaretoken=$token" \
  --data-urlencode "username=$SMOKE_USER" --data-urlencode "password=$password" \
  --data-urlencode "next=/en/admin/" "$BASE/en/admin/login/?next=/en/admin/")
check "the admin's login accepts the password" test "$answer" = "302 $BASE/en/admin/"
"${CURL[@]}" -c "$jar" -b "$jar" "$BASE/en/admin/" >"$WORK/admin.html"
check "the admin's index opens, signed in" grep -q 'Log out' "$WORK/admin.html"

# --- a job through the broker, run by the worker ----------------------------------------------------------------
# Sends TASK through the broker (the web's way), waits for its job run to finish and prints its state and summary.
run_on_worker() {
  site_python "
import time
from ratings.jobs import job_summary
from ratings.models import JobRun
from $1 import $2 as task
result = task.delay()
deadline = time.monotonic() + 120
run = None
while time.monotonic() < deadline:
    run = JobRun.objects.filter(task_id=result.id).first()
    if run and run.state in ('succeeded', 'failed'):
        break
    time.sleep(1)
print(run.state if run else 'not taken', 'in-process' if run and run.in_process else 'worker', job_summary(run) if run else '')"
}
publication=$(run_on_worker ratings.gorbunov.tasks gorbunov_publish_weekly)
echo "      $publication"
check "the Gorbunov weekly publication, run by the worker" grep -q '^succeeded worker' <<<"$publication"

# --- health -----------------------------------------------------------------------------------------------------
"${CURL[@]}" -H 'Accept: application/json' "$BASE/health/" >"$WORK/health.json"
check "the health address: database, cache, broker and worker OK" python3 -c "
import json, sys
answer = json.load(open('$WORK/health.json'))
print('      ', answer)
sys.exit(0 if len(answer) == 4 and set(answer.values()) == {'OK'} else 1)"

# --- a backup by the worker, and its restore --------------------------------------------------------------------
site_python "from django.contrib.auth.models import Group; Group.objects.create(name='smoke-$NONCE')"
backup=$(run_on_worker federation.backups.tasks backup_nightly)
echo "      $backup"
check "the nightly backup, run by the worker" grep -q '^succeeded worker' <<<"$backup"
file=$(federation-manage backup --list | awk 'NR == 1 {print $NF}')
check "the backup is kept in the backup folder" test -s "$file"
site_python "from django.contrib.auth.models import Group; Group.objects.filter(name='smoke-$NONCE').delete()"
"$APP_DIR/deploy/units.sh" stop federation-web federation-worker federation-beat >/dev/null
federation-manage restore --noinput "$file"
"$APP_DIR/deploy/units.sh" start federation-web federation-worker federation-beat >/dev/null
for _ in $(seq 60); do
  [ "$(status_of "$BASE/health/")" = 200 ] && break
  sleep 1
done
check "the site is healthy again after the restore" test "$(status_of "$BASE/health/")" = 200
check "the restore brought back what the backup held" test "$(site_python "
from django.contrib.auth.models import Group; print(Group.objects.filter(name='smoke-$NONCE').count())")" = 1
check "the home page after the restore" test "$(status_of "$BASE/")" = 200

echo "$passed passed, 0 failed"
