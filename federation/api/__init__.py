"""What the site's JSON APIs share (django-ninja): errors as ``{"errors": [{"field", "message"}]}`` whatever went
wrong, answers in JSON to every method and size, the anonymous rate limit, conditional requests and the URL wrapping.

Two APIs use it: the game servers' (``ratings.preferans.api`` at ``/api/preferans/``) and the public read-only
``/api/v1/`` (``federation.api.v1``).
"""
