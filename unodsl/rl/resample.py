"""Deal again the cards a seat cannot see: a state it cannot tell from the real one (for ISMCTS and leak tests).

It starts from the real state (it keeps a shown hand as it is now, and the card a forced
seat must play), so it is a tool for tests and for OpenSpiel's resampler; the bots deal
their worlds from what the seat knows alone (unodsl.agents.worlds).
"""

from __future__ import annotations

import json
import random

from ..effects import layout as D
from ..engine import State


def resample_hidden(game, state, seat: int, rng: random.Random, reseed: bool = True) -> State:
    """Return a copy of `state` with the other hands and the draw pile dealt again from their pooled cards.

    Sizes are kept and everything public stays. Cards `seat` knows the place of stay put: a card
    another seat is deciding about after drawing it, one card of the asked colour of a seat asked
    to play that colour, and the whole hand of a seat whose hand `seat` was shown (on a two-sided
    deck, every other hand and the draw pile's top card, whose other faces show). With `reseed`
    the engine's generator is replaced too, since its state decides the draws to come.
    """
    data = json.loads(state.to_json())
    others = [q for q in range(data["n"]) if q != seat]
    kept = {q: [] for q in others}
    pending = data["pending"]
    if pending and pending[0] == "drawn" and pending[1] != seat:
        drawn = game.card_names[pending[2]]
        data["hands"][pending[1]].remove(drawn)
        kept[pending[1]].append(drawn)
    if pending and pending[0] == "forced" and pending[1] != seat:
        hand = data["hands"][pending[1]]
        if pending[2] < 0:                      # `must play where`: a card the effect's filter accepts
            allowed = set(state.pick_kinds(pending[1]))
            card = next(c for c in hand if game.card_index[c] in allowed)
        else:
            card = next(c for c in hand if game.k_color[game.card_index[c]] == pending[2])
        hand.remove(card)
        kept[pending[1]].append(card)
    for q in state.observation(seat)["revealed"]:
        q = int(q)
        if q != seat:                   # a shown hand is known: it stays as it is
            kept[q] += data["hands"][q]
            data["hands"][q] = []
    top = []
    if game.k_back is not None:
        # A two-sided deck shows the other face of the other hands and of the draw pile's top card:
        # each names its face, so those cards stay.
        for q in others:
            kept[q] += data["hands"][q]
            data["hands"][q] = []
        top = data["draw_pile"][-1:]
        del data["draw_pile"][-1:]
    pool = [c for q in others for c in data["hands"][q]] + list(data["draw_pile"])
    rng.shuffle(pool)
    for q in others:
        size = len(data["hands"][q])
        data["hands"][q], pool = pool[:size] + kept[q], pool[size:]
    data["draw_pile"] = pool + top
    _choose_again(game, data, seat, rng)
    if reseed:
        version, internal, gauss = random.Random(rng.getrandbits(64)).getstate()
        data["rng"] = [version, list(internal), gauss]
    return State.from_json(game, json.dumps(data))


def _choose_again(game, data: dict, seat: int, rng: random.Random) -> None:
    """Another seat's secret choice in a sealed choice under way is unknown to `seat`: chosen again, at random,
    among that member's candidates (the locals before it hold them: effects' s_secret_choice)."""
    for frame in data["frames"]:
        for slot, kind in enumerate(game.code_records[frame[D.F_CODE]].local_kinds, start=D.F_LOCALS):
            if kind == D.BIDS and frame[slot] is not None:      # a sealed number: the range is the two before
                low, high = frame[slot - 2], frame[slot - 1]
                frame[slot] = [n if q == seat or n < 0 else rng.randint(low, high) for q, n in enumerate(frame[slot])]
            if kind != D.PICKS or frame[slot] is None:
                continue
            offered = frame[slot - 1]
            for q, chosen in enumerate(frame[slot]):
                if q != seat and chosen >= 0:
                    frame[slot][q] = rng.choice([c for c in offered if c != q and not data["eliminated"][c]])
