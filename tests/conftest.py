"""Shared test set-up. Engine tests (tests/ratings/engines, tests/tournaments/test_pairing*) need no Django."""
