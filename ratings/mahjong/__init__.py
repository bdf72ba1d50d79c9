"""Django side of the mahjong rating lists."""
