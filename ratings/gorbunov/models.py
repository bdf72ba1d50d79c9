"""A Gorbunov list is a shared ``ratings.models.RatingList`` with ``engine="gorbunov"``: its weekly publications are
``RatingSnapshot`` rows, the players' places in them ``RatingEntry`` rows and each tournament's effect a
``RatingChange`` (see ``services`` for how they are stored). No model of its own; the module is here so that the
app receives ``post_migrate`` (``apps.GorbunovConfig``), which Django sends only to apps with a models module.
"""
