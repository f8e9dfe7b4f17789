"""Players that are programs: the random and heuristic bots."""
