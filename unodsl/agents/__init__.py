"""Players that are programs: random, heuristic, expert, pimc and ismcts (and cheat, an analytics yardstick).

Every bot decides from a `view.SeatView` (what its seat may know); the search bots roll out
worlds dealt by `worlds.WorldSampler`; the expert keeps what it infers from draws (`inference.Lacks`). `bots.make_bot(name, rng)` makes one by name.
"""
