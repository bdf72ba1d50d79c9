"""The pure rating engines, one per system (gorbunov, mahjong, preferans, dirs), with what they share: the error
type and explanations (``common``) and the reading of their input (``parse``). No Django: see pyproject.toml's
import-linter contract."""
