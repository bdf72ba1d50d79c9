"""Django side of the gorbunov rating lists."""
