"""Many games at once, and games on record: simulate, replay, traces."""
