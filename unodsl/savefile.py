"""Loading saved states: every field is checked, and a tampered save is refused by name.

A save is the JSON of `State.to_json()`. Cards are stored by id; loading checks
that every id exists, that all zones together hold exactly the deck, that the
pending decision and effect frames are well formed and belong to this variant.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from . import decisions as D

_INT_FIELDS = ("n", "seed", "round", "dealer", "total_turns", "reshuffles", "color", "direction", "current",
               "stack", "stack_victim", "lock_color", "lock_owner", "next_exact", "turn_from", "turns",
               "next_player", "played_by", "flips", "drawn_this_turn")


def load_state(cls, game, text: str):
    """Build a State from JSON text, raising InvalidState with a precise reason."""
    from .engine import InvalidState, State
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise InvalidState(f"not a saved state: {err}") from None
    if not isinstance(data, dict) or data.get("format") != "unodsl-state/1":
        raise InvalidState("not a saved state (missing format 'unodsl-state/1')")
    if data.get("variant") != game.digest:
        raise InvalidState(f"saved for another variant (digest {data.get('variant')!r}, this one is {game.digest})")
    missing = [f for f in State._FIELDS + ("rng", "revealed") if f not in data]
    if missing:
        raise InvalidState(f"missing fields: {', '.join(missing)}")
    for name in _INT_FIELDS:
        if not isinstance(data[name], int) or isinstance(data[name], bool):
            raise InvalidState(f"field '{name}' must be an integer")
    n = data["n"]
    v = game.variant
    try:
        game.check_players(n)
    except ValueError as err:
        raise InvalidState(str(err)) from None
    index = game.card_index

    def cards(value, where):
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise InvalidState(f"{where} must be a list of card ids")
        unknown = [c for c in value if c not in index]
        if unknown:
            raise InvalidState(f"unknown card '{unknown[0]}' in {where}")
        return [index[c] for c in value]

    if not isinstance(data["hands"], list) or len(data["hands"]) != n:
        raise InvalidState(f"hands must list {n} hands")
    hands = [cards(h, f"hand {i}") for i, h in enumerate(data["hands"])]
    draw_pile = cards(data["draw_pile"], "the draw pile")
    discard = cards(data["discard"], "the discard pile")
    if not isinstance(data["limbo"], list) or len(data["limbo"]) != 2:
        raise InvalidState("limbo must hold two lists")
    limbo = [cards(h, "limbo") for h in data["limbo"]]
    held = Counter(k for zone in hands + [draw_pile, discard] + limbo for k in zone)
    expected = Counter(game.deck)
    if held != expected:
        extra = held - expected
        short = expected - held
        if extra:
            raise InvalidState(f"card '{game.card_names[next(iter(extra))]}' appears more often than the deck holds")
        raise InvalidState(f"card '{game.card_names[next(iter(short))]}' is missing from every zone")
    for name in ("current", "dealer"):
        if not 0 <= data[name] < n:
            raise InvalidState(f"{name} seat {data[name]} is out of range")
    if data["direction"] not in (1, -1):
        raise InvalidState("direction must be 1 or -1")
    if not -1 <= data["color"] < len(v.colors):
        raise InvalidState(f"color {data['color']} is out of range")
    for name in ("skip", "uno_called", "eliminated", "out", "scores"):
        if not isinstance(data[name], list) or len(data[name]) != n:
            raise InvalidState(f"field '{name}' must have one entry per player")
    _check_pending(data, game, n, hands)
    _check_frames(data["frames"], game, n)
    state = State.__new__(State)
    state.g = game
    for name in State._FIELDS:
        setattr(state, name, data[name])
    state.hands, state.draw_pile, state.discard, state.limbo = hands, draw_pile, discard, limbo
    state.pending = tuple(data["pending"]) if data["pending"] is not None else None
    state.rng = _rng_from_json(data["rng"])
    state.log = None
    try:
        state.revealed = {int(p): {int(q): [index[c] for c in seen] for q, seen in by.items()}
                          for p, by in data["revealed"].items()}
    except (AttributeError, KeyError, ValueError, TypeError):
        raise InvalidState("field 'revealed' is malformed") from None
    if not state.over and state.pending is None:
        raise InvalidState("the game is not over but no decision is pending")
    return state


def _check_pending(data, game, n, hands) -> None:
    from .engine import InvalidState
    pending = data["pending"]
    if pending is None:
        return
    if not isinstance(pending, list) or not pending or pending[0] not in D.KINDS:
        raise InvalidState("the pending decision is malformed")
    if not all(isinstance(x, int) for x in pending[1:]) and pending[0] not in (D.TARGET,):
        raise InvalidState("the pending decision is malformed")
    if not isinstance(pending[1], int) or not 0 <= pending[1] < n:
        raise InvalidState(f"the player to act ({pending[1]!r}) is out of range")
    if pending[0] == D.DRAWN and (len(pending) != 3 or pending[2] not in hands[pending[1]]):
        raise InvalidState("the drawn card is not in the drawing player's hand")


def _check_frames(frames, game, n) -> None:
    from .engine import InvalidState
    if not isinstance(frames, list):
        raise InvalidState("effect frames are malformed")
    for fr in frames:
        if not isinstance(fr, list) or len(fr) < D.F_LOCALS:
            raise InvalidState("an effect frame is malformed")
        code, pc, seat, card = fr[D.F_CODE], fr[D.F_PC], fr[D.F_SELF], fr[D.F_CARD]
        if not isinstance(code, int) or not 0 <= code < len(game.codes):
            raise InvalidState(f"effect frame names unknown code {code!r}")
        ops, nlocals = game.codes[code]
        if not isinstance(pc, int) or not 0 <= pc <= len(ops):
            raise InvalidState("effect frame position is out of range")
        if len(fr) != D.F_LOCALS + nlocals:
            raise InvalidState("effect frame has the wrong number of locals")
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise InvalidState("effect frame seat is out of range")
        if not isinstance(card, int) or not -1 <= card < game.num_kinds:
            raise InvalidState("effect frame card is out of range")


def _rng_from_json(value) -> random.Random:
    from .engine import InvalidState
    try:
        version, internal, gauss = value
        rng = random.Random()
        rng.setstate((version, tuple(internal), gauss))
        return rng
    except (TypeError, ValueError, OverflowError):
        raise InvalidState("the random generator state is malformed") from None
