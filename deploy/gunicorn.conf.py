"""gunicorn's settings for the site (federation-web.service: ``gunicorn --config deploy/gunicorn.conf.py``).

- **Bound to 127.0.0.1:8000**: only the proxy on the same machine reaches gunicorn (deploy/Caddyfile sends there).
  The production settings believe the proxy's ``X-Forwarded-Proto`` and take the client's address from the last
  entry of ``X-Forwarded-For`` (``DJANGO_NUM_PROXIES=1``) for the API's rate limit; were gunicorn reachable from
  outside, a client could send those headers itself and rotate them past the limit.
- **Logs to standard output** (the journal, under systemd): the access log with the client's address as the proxy
  saw it and the time each answer took, gunicorn's own messages beside it.
"""

import os
from pathlib import Path

import environ

# GUNICORN_* tuning may be kept in the same .env file as the site's settings (what the environment sets wins).
ENV_FILE = Path(__file__).resolve().parent.parent / ".env"
if ENV_FILE.exists():
    environ.Env.read_env(ENV_FILE)

bind = "127.0.0.1:8000"
# Processes answering requests: about two per core is plenty for a federation's traffic.
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
# A request (an admin import's preview of a large file) may take this long before its worker is replaced.
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
# Keep-alive between the proxy and gunicorn.
keepalive = 5
# Each worker is replaced after about this many requests (a slow leak never grows far).
max_requests = 2000
max_requests_jitter = 200
# The workers' heartbeat files in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm"
# No control socket: nothing but systemd (or deploy/units.sh) manages the processes, and the service's home is
# read-only.
control_socket_disable = True
proc_name = "federation-web"

accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
# The client (the last X-Forwarded-For entry, which Caddy sets), the request, the status, the size, the referrer,
# the browser and the milliseconds it took.
access_log_format = '%({x-forwarded-for}i)s "%(r)s" %(s)s %(B)s "%(f)s" "%(a)s" %(M)sms'
