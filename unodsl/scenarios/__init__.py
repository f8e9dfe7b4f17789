"""Rule scenarios: a position, the moves, and what must hold afterwards (`unodsl test`)."""
