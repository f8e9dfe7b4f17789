"""Bots by name: `make_bot('heuristic', rng)`, `make_bot('ismcts:200', rng)`.

Every bot decides from a `SeatView` (agents/view.py): the legal action ids, its own hand
and what is public. They work on integer action ids so simulations stay fast.
"""

from __future__ import annotations

import random

from .cheat import CheatBot
from .expert import ExpertBot
from .ismcts import IsmctsBot
from .pimc import PimcBot
from .simple import HeuristicBot, RandomBot


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "expert": ExpertBot, "pimc": PimcBot, "ismcts": IsmctsBot, "cheat": CheatBot}

def make_bot(name: str, rng: random.Random):
    """Create a bot by name, options after colons: 'pimc:30', 'ismcts:200:c=0.7:rollout=random'.

    The first option may be the bot's main number without its key (worlds for pimc and cheat,
    iterations for ismcts). Raises ValueError naming the bots, or the bot's options.
    """
    base, *options = name.strip().split(":")
    if base not in BOTS:
        raise ValueError(f"unknown bot '{base}' (choose from {', '.join(BOTS)})")
    bot_class = BOTS[base]
    if not options:
        return bot_class(rng)
    settings = getattr(bot_class, "OPTIONS", {})
    if not settings:
        raise ValueError(f"bot '{base}' takes no options")
    given = {}
    for i, option in enumerate(options):
        key, eq, value = option.partition("=")
        if not eq:
            key, value = (next(iter(settings)), option) if i == 0 else (option, "")
        if key not in settings:
            raise ValueError(f"bot '{base}' has no option '{key}' (options: {', '.join(settings)})")
        try:
            given[key] = settings[key](value)
        except ValueError as err:
            raise ValueError(f"bot '{base}' option {key}={value!r}: {err}") from None
    return bot_class(rng, **given)
