"""Rating lists, snapshots and per-event changes (filled in by the rating-list issues)."""
