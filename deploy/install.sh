#!/usr/bin/env bash
# Install the federation's site on a fresh Debian 12 machine, or upgrade it: run as root from a checkout of the code.
#
#   deploy/install.sh ratings.example.org [--admin-email you@example.org]
#
# It installs what is missing (PostgreSQL, Redis, Caddy, Python's venv), creates the system user `federation`, the
# PostgreSQL role and database, the virtualenv in /srv/federation/venv with the pinned requirements, the settings
# file /etc/federation/env (a generated secret key and database password; linked as /srv/federation/app/.env),
# copies the code to /srv/federation/app, migrates, collects the static files, writes /etc/caddy/Caddyfile and the
# three systemd units, and (re)starts them. Run again (after `git pull`) it upgrades: the same steps, keeping the
# settings file, the database and the backups. Without a domain it keeps the one it was installed with.
#
#   --admin-email ADDRESS   who gets the errors by e-mail (DJANGO_ADMINS; e-mail itself needs EMAIL_URL)
#   --tls-internal          a certificate from Caddy's own authority instead of Let's Encrypt (a test domain);
#                           kept for the next runs until --tls-acme
#
# Without systemd (a container, CI) the units' own commands run as plain processes (deploy/units.sh).
set -euo pipefail

APP_USER=federation
ROOT_DIR=/srv/federation
APP_DIR=$ROOT_DIR/app
VENV=$ROOT_DIR/venv
CONF_DIR=/etc/federation
ENV_FILE=$CONF_DIR/env
BACKUP_DIR=/var/backups/federation
DATABASE=federation
SITE_UNITS=(federation-web federation-worker federation-beat)
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

DOMAIN=""
ADMIN_EMAIL=""
TLS=""
while [ $# -gt 0 ]; do
  case "$1" in
    --admin-email) ADMIN_EMAIL=${2:?--admin-email needs an address}; shift 2 ;;
    --tls-internal) TLS=internal; shift ;;
    --tls-acme) TLS=acme; shift ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) DOMAIN=$1; shift ;;
  esac
done

[ "$(id -u)" = 0 ] || { echo "install.sh: run it as root (sudo $0 ...)" >&2; exit 1; }
# Without them, the domain and the kind of certificate are those of the last run.
if [ -z "$DOMAIN" ] && [ -f "$ENV_FILE" ]; then
  DOMAIN=$(sed -n 's/^FEDERATION_DOMAIN=//p' "$ENV_FILE")
fi
if [ -z "$TLS" ] && [ -f "$ENV_FILE" ]; then
  TLS=$(sed -n 's/^FEDERATION_TLS=//p' "$ENV_FILE")
fi
TLS=${TLS:-acme}
[ -n "$DOMAIN" ] || { echo "usage: $0 DOMAIN [--admin-email ADDRESS] [--tls-internal | --tls-acme]" >&2; exit 2; }
case "$DOMAIN" in
  *[!A-Za-z0-9.-]* | .* | *. ) echo "install.sh: $DOMAIN is not a host name" >&2; exit 2 ;;
esac

systemd_running() { [ -d /run/systemd/system ]; }
# The site's commands run as its user with nothing from this shell's environment: the settings come from its .env
# alone, as for the services (a DATABASE_URL exported here would otherwise win over it).
CLEAN_ENV=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 HOME="$ROOT_DIR")
as_app() { runuser -u "$APP_USER" -- "${CLEAN_ENV[@]}" "$@"; }
manage() { (cd "$APP_DIR" && as_app "$VENV/bin/python" manage.py "$@"); }

# Each step is timed; the times are printed at the end.
STEP_NAMES=()
STEP_TIMES=()
STEP_START=0
STEP_NAME=""
step() {
  step_end
  STEP_NAME=$1
  STEP_START=$(date +%s%3N)
  echo "== $STEP_NAME"
}
step_end() {
  if [ -n "$STEP_NAME" ]; then
    STEP_NAMES+=("$STEP_NAME")
    STEP_TIMES+=($(($(date +%s%3N) - STEP_START)))
  fi
  STEP_NAME=""
}

step "Debian packages (PostgreSQL, Redis, Caddy, Python venv)"
PACKAGES=(python3 python3-venv postgresql postgresql-client redis-server caddy rsync curl ca-certificates)
missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "all installed"
fi

step "PostgreSQL and Redis running"
if systemd_running; then
  systemctl enable --now postgresql redis-server >/dev/null
fi
if ! pg_isready -q; then
  version=$(find /etc/postgresql -mindepth 1 -maxdepth 1 -printf "%f\n" | sort -V | tail -n 1)
  pg_ctlcluster --skip-systemctl-redirect "$version" main start
fi
for _ in $(seq 30); do pg_isready -q && break; sleep 1; done
pg_isready -q || { echo "PostgreSQL does not answer" >&2; exit 1; }
if ! redis-cli ping >/dev/null 2>&1; then
  runuser -u redis -- redis-server /etc/redis/redis.conf --daemonize yes --supervised no
fi
for _ in $(seq 30); do redis-cli ping >/dev/null 2>&1 && break; sleep 1; done
redis-cli ping >/dev/null || { echo "Redis does not answer" >&2; exit 1; }
echo "PostgreSQL and Redis answer"

step "System user and folders"
install -d -o root -g root -m 755 "$ROOT_DIR" "$APP_DIR"
if ! id "$APP_USER" >/dev/null 2>&1; then
  adduser --system --group --home "$ROOT_DIR" --no-create-home --shell /usr/sbin/nologin "$APP_USER" >/dev/null
fi
install -d -o root -g "$APP_USER" -m 750 "$CONF_DIR"
install -d -o "$APP_USER" -g "$APP_USER" -m 750 "$BACKUP_DIR"

step "Code into $APP_DIR"
if [ "$SOURCE" != "$APP_DIR" ]; then
  rsync -a --delete --chown=root:root --chmod=Du=rwx,Dgo=rx,Fu=rw,Fgo=r \
    --exclude=/.git --exclude=/.venv --exclude=/.env --exclude=/staticfiles --exclude=/backups \
    --exclude=/db.sqlite3 --exclude=/artifacts --exclude=/.lighthouse --exclude=/.hypothesis \
    --exclude=__pycache__ --exclude=/tests/web/screenshots "$SOURCE/" "$APP_DIR/"
  chmod 755 "$APP_DIR/deploy/"*.sh
fi
git -C "$SOURCE" rev-parse --short HEAD 2>/dev/null >"$ROOT_DIR/version" || echo "unknown" >"$ROOT_DIR/version"
echo "version $(cat "$ROOT_DIR/version")"

step "Python virtualenv and the pinned requirements"
if [ ! -x "$VENV/bin/python" ]; then
  /usr/bin/python3 -m venv "$VENV"
fi
wanted=$(sha256sum "$APP_DIR/requirements.txt" | cut -d' ' -f1)
if [ "$(cat "$VENV/.requirements.sha256" 2>/dev/null)" != "$wanted" ]; then
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$APP_DIR/requirements.txt"
  echo "$wanted" >"$VENV/.requirements.sha256"
else
  echo "requirements unchanged"
fi

step "PostgreSQL role and database"
password=""
if [ -f "$ENV_FILE" ]; then
  password=$(sed -n "s|^DATABASE_URL=postgres://$APP_USER:\([^@]*\)@.*|\1|p" "$ENV_FILE")
fi
[ -n "$password" ] || password=$(/usr/bin/python3 -c 'import secrets; print(secrets.token_hex(24))')
runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$APP_USER') THEN CREATE ROLE $APP_USER LOGIN; END IF;
END \$\$;
ALTER ROLE $APP_USER WITH LOGIN PASSWORD '$password';
SQL
if ! runuser -u postgres -- psql -X -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'" | grep -q 1; then
  runuser -u postgres -- createdb --owner="$APP_USER" "$DATABASE"
  echo "database $DATABASE created"
else
  echo "database $DATABASE kept"
fi

step "Settings file $ENV_FILE"
# The lines this script owns follow the domain; every other line, once written, is the federation's to edit.
set_line() {
  local key=$1 value=$2
  if grep -q "^$key=" "$ENV_FILE"; then
    sed -i "s|^$key=.*|$key=$value|" "$ENV_FILE"
  else
    echo "$key=$value" >>"$ENV_FILE"
  fi
}
add_line() { grep -q "^$1=" "$ENV_FILE" || echo "$1=$2" >>"$ENV_FILE"; }
if [ ! -f "$ENV_FILE" ]; then
  {
    echo "# The site's settings, read by every process of it (see $APP_DIR/deploy/.env.example for all of them)."
    echo "# Written by deploy/install.sh; edit it, then: $APP_DIR/deploy/units.sh restart"
  } >"$ENV_FILE"
  created=yes
else
  created=no
fi
add_line DJANGO_SETTINGS_MODULE federation.settings.production
add_line DJANGO_SECRET_KEY "$(/usr/bin/python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
set_line FEDERATION_DOMAIN "$DOMAIN"
set_line FEDERATION_TLS "$TLS"
set_line DJANGO_ALLOWED_HOSTS "$DOMAIN"
set_line DJANGO_CSRF_TRUSTED_ORIGINS "https://$DOMAIN"
set_line DJANGO_SITE_URL "https://$DOMAIN"
set_line DATABASE_URL "postgres://$APP_USER:$password@127.0.0.1:5432/$DATABASE"
add_line CELERY_BROKER_URL redis://127.0.0.1:6379/0
add_line DJANGO_CACHE_URL redis://127.0.0.1:6379/1
add_line DJANGO_BACKUP_DIR "$BACKUP_DIR"
add_line DJANGO_BACKUP_KEEP 30
[ -z "$ADMIN_EMAIL" ] || set_line DJANGO_ADMINS "$ADMIN_EMAIL"
if [ "$created" = yes ]; then
  {
    echo "# E-mail for errors and password resets, e.g. smtp+tls://user:password@smtp.example.org:587"
    echo "#EMAIL_URL="
  } >>"$ENV_FILE"
fi
chown root:"$APP_USER" "$ENV_FILE"
chmod 640 "$ENV_FILE"
ln -sfn "$ENV_FILE" "$APP_DIR/.env"
echo "settings $([ "$created" = yes ] && echo created || echo kept, domain lines updated)"

step "Database migrations"
manage migrate --noinput

step "Static files"
install -d -o root -g root -m 755 "$APP_DIR/staticfiles"
# Collected as root into the read-only code folder (the services only read them).
(cd "$APP_DIR" && "${CLEAN_ENV[@]}" "$VENV/bin/python" manage.py collectstatic --noinput --verbosity 0)
chmod -R go+rX "$APP_DIR/staticfiles"
manage check --deploy --fail-level WARNING

step "Caddy (HTTPS proxy) and the systemd units"
if [ -f /etc/caddy/Caddyfile ] && ! grep -q "deploy/install.sh writes this template" /etc/caddy/Caddyfile; then
  cp /etc/caddy/Caddyfile "/etc/caddy/Caddyfile.before-federation"
fi
if [ "$TLS" = internal ]; then
  global=$'\tskip_install_trust'
  tls=$'\ttls internal'
else
  global=""
  admin=$(sed -n 's/^DJANGO_ADMINS=\([^,]*\).*/\1/p' "$ENV_FILE" | sed 's/.*<\(.*\)>.*/\1/')
  [ -n "$admin" ] && global=$'\t'"email $admin"
  tls=""
fi
awk -v domain="$DOMAIN" -v global="$global" -v tls="$tls" \
  '{ gsub(/@DOMAIN@/, domain); if ($0 == "@GLOBAL@") $0 = global; if ($0 == "@TLS@") $0 = tls; print }' \
  "$APP_DIR/deploy/Caddyfile" >/etc/caddy/Caddyfile.new
caddy validate --adapter caddyfile --config /etc/caddy/Caddyfile.new >/dev/null 2>&1 || {
  caddy validate --adapter caddyfile --config /etc/caddy/Caddyfile.new
  exit 1
}
mv /etc/caddy/Caddyfile.new /etc/caddy/Caddyfile
for unit in "${SITE_UNITS[@]}"; do
  install -m 644 "$APP_DIR/deploy/$unit.service" "/etc/systemd/system/$unit.service"
done
cat >/usr/local/bin/federation-manage <<EOF
#!/bin/sh
# manage.py of the site, as its user with its settings (written by deploy/install.sh).
# Its settings come from $APP_DIR/.env alone, whatever this shell exports.
cd $APP_DIR && exec runuser -u $APP_USER -- env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \\
  TERM="\${TERM:-dumb}" HOME=$ROOT_DIR $VENV/bin/python manage.py "\$@"
EOF
chmod 755 /usr/local/bin/federation-manage

step "Start (or restart) Caddy, web, worker and beat"
if systemd_running; then
  systemctl daemon-reload
  systemctl enable caddy "${SITE_UNITS[@]}" >/dev/null 2>&1
  systemctl reload-or-restart caddy
  systemctl restart "${SITE_UNITS[@]}"
else
  "$APP_DIR/deploy/units.sh" stop "${SITE_UNITS[@]}"
  "$APP_DIR/deploy/units.sh" restart caddy
  "$APP_DIR/deploy/units.sh" start "${SITE_UNITS[@]}"
fi
health=""
for _ in $(seq 120); do
  if health=$(curl -fsS -H "Host: $DOMAIN" "http://127.0.0.1:8000/health/?format=text" 2>/dev/null); then
    break
  fi
  sleep 1
done
[ -n "$health" ] || {
  echo "The site does not answer healthy at http://127.0.0.1:8000/health/:" >&2
  curl -sS -H "Host: $DOMAIN" "http://127.0.0.1:8000/health/?format=text" >&2 || true
  exit 1
}
echo "$health"
# Through Caddy, as a visitor comes: the certificate may take a minute the first time.
https_ok=no
trust=()
[ "$TLS" != internal ] || trust=(--cacert /var/lib/caddy/.local/share/caddy/pki/authorities/local/root.crt)
for _ in $(seq 30); do
  if curl -fsS -o /dev/null --resolve "$DOMAIN:443:127.0.0.1" "${trust[@]}" "https://$DOMAIN/health/" 2>/dev/null; then
    https_ok=yes
    break
  fi
  sleep 2
done
step_end

echo
echo "Times of the steps:"
total=0
for i in "${!STEP_NAMES[@]}"; do
  ms=${STEP_TIMES[$i]}
  printf "  %-60s %4d.%d s\n" "${STEP_NAMES[$i]}" $((ms / 1000)) $((ms % 1000 / 100))
  total=$((total + ms))
done
printf "  %-60s %4d.%d s\n" "in all" $((total / 1000)) $((total % 1000 / 100))
echo
echo "The site: https://$DOMAIN/  (version $(cat "$ROOT_DIR/version"); settings in $ENV_FILE)"
if [ "$https_ok" = no ]; then
  echo "HTTPS does not answer yet: Caddy has no certificate for $DOMAIN. Check that its DNS record points at this"
  echo "server and that ports 80 and 443 are open; Caddy keeps trying (journalctl -u caddy)."
fi
if ! manage shell --no-imports -c "from django.contrib.auth import get_user_model as m; import sys; \
sys.exit(0 if m().objects.filter(is_superuser=True).exists() else 1)" >/dev/null 2>&1; then
  if [ -t 0 ]; then
    echo "No administrator yet: create yours (a name, an e-mail for password resets, a password)."
    federation-manage createsuperuser
  else
    echo "No administrator yet: create yours with  federation-manage createsuperuser"
  fi
fi
