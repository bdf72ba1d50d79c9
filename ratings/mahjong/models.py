"""The RR, CRR and online lists are shared ``ratings.models.RatingList`` rows (engines ``mahjong-rr``,
``mahjong-crr``, ``mahjong-online``) with a ``RatingSnapshot`` per rating date and its ``RatingEntry`` rows; the
tournaments are ``tournaments.models.Tournament`` with their ``Stage`` and ``Result`` rows. No model of its own; the
module is here so that the app receives ``post_migrate`` (``apps.MahjongConfig``), which Django sends only to apps
with a models module.
"""
