#!/usr/bin/env bash
# deploy/units.sh start|stop|restart|status [UNIT...]: the site's services, with or without systemd.
#
# Where systemd runs the machine (a VPS), this is `systemctl ACTION UNIT...`. Where it does not (a container, the CI
# machine), each unit's own ExecStart= line is started as a plain process, as the unit's User= and Group=, in its
# WorkingDirectory=, with its Environment= and AmbientCapabilities= (setpriv), output appended to
# /var/log/federation-units/UNIT.log and the process id kept in /run/federation-units/UNIT.pid: the same command
# the unit runs, so what CI tests is what systemd would run.
#
# UNIT defaults to caddy and the site's three: federation-web, federation-worker, federation-beat.
set -euo pipefail

ACTION=${1:-}
shift || true
UNITS=("$@")
[ ${#UNITS[@]} -gt 0 ] || UNITS=(caddy federation-web federation-worker federation-beat)
RUN_DIR=/run/federation-units
LOG_DIR=/var/log/federation-units

systemd_running() { [ -d /run/systemd/system ]; }

unit_file() {
  local unit=$1 dir
  for dir in /etc/systemd/system /lib/systemd/system /usr/lib/systemd/system; do
    [ -f "$dir/$unit.service" ] && { echo "$dir/$unit.service"; return; }
  done
  echo "units.sh: no unit file for $unit" >&2
  return 1
}

# The value of KEY= in the unit's [Service] section (the last one; every one, one per line, with "all").
unit_value() {
  local file=$1 key=$2 which=${3:-last}
  awk -v key="$key" -v which="$which" '
    /^\[/ { service = ($0 == "[Service]"); next }
    service && index($0, key "=") == 1 { value = substr($0, length(key) + 2); if (which == "all") print value }
    END { if (which != "all" && value != "") print value }
  ' "$file"
}

pid_of() {
  local pidfile=$RUN_DIR/$1.pid pid
  [ -f "$pidfile" ] || return 1
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  echo "$pid"
}

plain_start() {
  local unit=$1 file user group home workdir exec caps=() envs=() line
  file=$(unit_file "$unit")
  if pid_of "$unit" >/dev/null; then echo "$unit: already running"; return; fi
  user=$(unit_value "$file" User); user=${user:-root}
  group=$(unit_value "$file" Group); group=${group:-$(id -gn "$user")}
  home=$(getent passwd "$user" | cut -d: -f6)
  workdir=$(unit_value "$file" WorkingDirectory); workdir=${workdir:-/}
  exec=$(unit_value "$file" ExecStart); exec=${exec#[-@+!:]}
  if unit_value "$file" AmbientCapabilities | grep -q CAP_NET_BIND_SERVICE; then
    caps=(--inh-caps=+net_bind_service --ambient-caps=+net_bind_service)
  fi
  while IFS= read -r line; do
    [ -n "$line" ] && envs+=("$line")
  done < <(unit_value "$file" Environment all)
  local -a command
  read -r -a command <<<"$exec"
  mkdir -p "$RUN_DIR" "$LOG_DIR"
  (
    cd "$workdir"
    exec setsid env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
      HOME="$home" USER="$user" LOGNAME="$user" "${envs[@]}" \
      setpriv --reuid="$user" --regid="$group" --init-groups "${caps[@]}" -- "${command[@]}" \
      >>"$LOG_DIR/$unit.log" 2>&1 </dev/null
  ) &
  echo $! >"$RUN_DIR/$unit.pid"
  sleep 0.5
  if ! pid_of "$unit" >/dev/null; then
    echo "$unit: exited at once; the end of $LOG_DIR/$unit.log:" >&2
    tail -n 20 "$LOG_DIR/$unit.log" >&2
    return 1
  fi
  echo "$unit: started ($exec, pid $(cat "$RUN_DIR/$unit.pid"), log $LOG_DIR/$unit.log)"
}

plain_stop() {
  local unit=$1 pid timeout file
  pid=$(pid_of "$unit") || { rm -f "$RUN_DIR/$unit.pid"; echo "$unit: not running"; return; }
  file=$(unit_file "$unit")
  timeout=$(unit_value "$file" TimeoutStopSec); timeout=${timeout%s}; timeout=${timeout:-90}
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq $((timeout * 2))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  # What is left of the unit's process group (setsid made it one), as systemd's KillMode would.
  kill -KILL -- "-$pid" 2>/dev/null || true
  rm -f "$RUN_DIR/$unit.pid"
  echo "$unit: stopped"
}

plain_status() {
  local unit=$1 pid
  if pid=$(pid_of "$unit"); then echo "$unit: running (pid $pid)"; else echo "$unit: not running"; return 3; fi
}

case "$ACTION" in
  start | stop | restart | status) ;;
  *) echo "usage: $0 start|stop|restart|status [UNIT...]" >&2; exit 2 ;;
esac

if systemd_running; then
  exec systemctl "$ACTION" "${UNITS[@]}"
fi

status=0
for unit in "${UNITS[@]}"; do
  case "$ACTION" in
    start) plain_start "$unit" || status=1 ;;
    stop) plain_stop "$unit" ;;
    restart) plain_stop "$unit"; plain_start "$unit" || status=1 ;;
    status) plain_status "$unit" || status=3 ;;
  esac
done
exit $status
