"""The admin's door to ``ratings.history``: upload a history document, preview its counts and every error, confirm,
and follow the import as a job run (``ratings.jobs``)."""
