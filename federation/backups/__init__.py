"""Backups of the whole site: the nightly job, ``manage.py backup`` and ``manage.py restore`` (services.py).

The database holds everything the site keeps, the federation's logo included, so a backup of it is a backup of the
site. Written by django-dbbackup (``pg_dump`` in its custom format on PostgreSQL, SQLite's own backup on the embedded
default) into ``settings.BACKUP_DIR``; the newest ``DJANGO_BACKUP_KEEP`` are kept.
"""
