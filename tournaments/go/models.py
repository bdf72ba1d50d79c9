"""Go: self-handicap tournaments run round by round, and the DIRS club rating (rules/go.md)."""
