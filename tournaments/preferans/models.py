"""Preferans games and deals, rated per deal (rules/preferans.md)."""
