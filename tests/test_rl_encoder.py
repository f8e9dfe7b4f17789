"""The RL observation encoder (unodsl.rl.ObservationEncoder) against its specification: the plain,
field-by-field reading of `State.observation(seat)`.

The encoder keeps per seat the vector it last made and rewrites only what changed, reading the
State's own lists; these tests hold it equal to the plain reading along random games of every
shipped variant at 2 and 4 players, with and without full_state, in the ways environments use it:
every seat at every step, only the seat to act (bigger changes between two encodes), and one
encoder for two games stepped in turn (each encode differs from the last in everything).
Run in both modes (UNODSL_FAST=0 for the reference engine) by the gate.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402

import unodsl.rl as rl  # noqa: E402
from unodsl.rl.actions import LegalIds  # noqa: E402

from test_rl import REPO, game, tables  # noqa: E402


def reference_encode(encoder, state, seat):
    """The observation vector built field by field from `state.observation(seat)`, plainly."""
    obs = state.observation(seat)
    n, k = encoder.n, encoder.game.num_kinds
    o = encoder.offset
    ci, ki = encoder.color_index, encoder.card_index
    v = np.zeros(encoder.size, np.float32)
    for name in obs["hand"]:
        v[o["hand"] + ki[name]] += 1
    if obs["top"]:
        v[o["top"] + ki[obs["top"]]] = 1
    v[o["color"] + ci.get(obs["color"], len(ci))] = 1
    v[o["lock"] + ci.get(obs["lock"], len(ci))] = 1
    v[o["stack"]] = obs["stack"]
    v[o["direction"]] = obs["direction"]
    sizes, called, out = obs["hand_sizes"], obs["uno_called"], obs["eliminated"]
    for i in range(n):
        q = (seat + i) % n
        if i:
            v[o["hand_sizes"] + i - 1] = sizes[q]
        v[o["uno_called"] + i] = called[q]
        v[o["eliminated"] + i] = out[q]
    cur = obs["current_player"]
    if cur >= 0:
        v[o["acting"] + (cur - seat) % n] = 1
    if obs["decision"] in encoder.decision_index:
        v[o["decision"] + encoder.decision_index[obs["decision"]]] = 1
    v[o["draw_pile"]] = obs["draw_pile"]
    v[o["discard_pile"]] = obs["discard_pile"]
    for name in obs["discard"]:
        v[o["discard"] + ki[name]] += 1
    if "drawn" in obs:
        v[o["drawn"] + ki[obs["drawn"]]] = 1
    for q, cards in obs["revealed"].items():
        rel = (int(q) - seat) % n
        if rel == 0:                # one's own hand is in `hand` already
            continue
        base = o["revealed"] + (rel - 1) * k
        for name in cards:
            v[base + ki[name]] += 1
    if "side" in obs:                   # a two-sided deck
        v[o["side"]] = obs["side"] == encoder.game.variant.sides[1]
        for q, cards in obs["backs"].items():
            base = o["backs"] + ((int(q) - seat) % n - 1) * k
            for name in cards:
                v[base + ki[name]] += 1
        if obs["draw_pile_back"]:
            v[o["draw_pile_back"] + ki[obs["draw_pile_back"]]] = 1
    v[o["turn"]] = min(obs["turn"], encoder.high[o["turn"]])
    if encoder.full_state:
        for i in range(1, n):
            base = o["hidden_hands"] + (i - 1) * k
            for name in state.hand((seat + i) % n):
                v[base + ki[name]] += 1
    g = encoder.game
    up = 0
    for i, (pile, shown) in enumerate((obs.get("piles") or {}).items()):     # a list of cards face up, else a size
        v[o["piles"] + i] = len(shown) if isinstance(shown, list) else shown
        if isinstance(shown, list):
            for name in shown:
                v[o["pile_cards"] + up * k + ki[name]] += 1
            up += 1
    played_on = obs.get("play_piles") or {}            # playable piles: top card, color, the pile in play
    colors = list(g.variant.colors) + [None]
    for j, (pile, top) in enumerate(played_on.items()):
        v[o["play_pile_tops"] + j * (k + 1) + (ki[top["top"]] if top["top"] else k)] = 1
        v[o["play_pile_colors"] + j * len(colors) + colors.index(top["color"])] = 1
    if played_on:
        v[o["pile_in_play"] + (["discard", *played_on].index(obs["pile_in_play"]))] = 1
    for name, value in (obs.get("state") or {}).items():
        _reference_variable(v, o[f"state.{name}"], g, g.state_vars, name, [value])
    for name, values in (obs.get("player_state") or {}).items():
        rotated = [values[(seat + rel) % n] for rel in range(n)]
        mine = next(var for var in g.player_vars if var.name == name).visibility.value == "private"
        _reference_variable(v, o[f"player_state.{name}"], g, g.player_vars, name, rotated[:1] if mine else rotated)
    return v


def _reference_variable(v, start, g, declared, name, values):
    """Write the values of a variable as players see them (a word, a number, true/false, None for none)."""
    var = next(var for var in declared if var.name == name)
    kind = var.type.value
    if kind in ("int", "bool"):
        v[start:start + len(values)] = [float(x) for x in values]
        return
    words = {"color": list(g.variant.colors) + [None], "card_type": list(g.type_ids) + [None],
             "enum": list(var.values)}[kind]
    for j, value in enumerate(values):
        v[start + j * len(words) + words.index(value)] = 1


def assert_encodes(encoder, state, seats, where):
    for seat in seats:
        fast = encoder.encode(state, seat)
        assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
        expected = reference_encode(encoder, state, seat)
        if not np.array_equal(fast, expected):
            wrong = [f.name for f in encoder.fields if not np.array_equal(fast[f.start:f.start + f.size],
                                                                          expected[f.start:f.start + f.size])]
            pytest.fail(f"{where}, seat {seat}: fields {', '.join(wrong)} differ")


def step(state, rng):
    state.apply_id(rng.choice(state.legal_action_ids()))


@pytest.mark.parametrize("path, n", tables())
def test_the_encoder_equals_the_plain_reading_of_the_observation(path, n):
    g = game(path)
    rng = random.Random(3)
    for full_state in (False, True):
        # Every seat at every step.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        state = g.new_game(players=n, seed=1)
        for i in range(300):
            assert_encodes(encoder, state, range(n), f"every seat, step {i}")
            if state.is_over:
                break
            step(state, rng)
        # Only the seat to act, as the AEC environment observes.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        for seed in (2, 3):
            state = g.new_game(players=n, seed=seed)
            for i in range(300):
                if state.is_over:
                    assert_encodes(encoder, state, range(n), f"game {seed} over")
                    break
                assert_encodes(encoder, state, [state.current_player], f"acting seat, game {seed} step {i}")
                step(state, rng)
        # One encoder, two games in turn.
        encoder = rl.ObservationEncoder(g, n, full_state=full_state)
        pair = [g.new_game(players=n, seed=4), g.new_game(players=n, seed=5)]
        for i in range(200):
            for state in pair:
                assert_encodes(encoder, state, range(n), f"two games, step {i}")
                if not state.is_over:
                    step(state, rng)


EVERY_KIND = """\
unodsl: 1
name: every kind of variable
extends: {classic}
piles:
  bank: {{face: down}}
  pot: {{face: up}}
state:
  pressure: {{type: int, min: 0, max: 3}}
  total: {{type: int}}
  mood: {{type: enum, values: [calm, angry]}}
  last_color: {{type: color}}
  last_type: {{type: card_type}}
  secret: {{type: int, visibility: hidden}}
player_state:
  plays: {{type: int}}
  favourite: {{type: color, initial: red}}
  shield: {{type: bool, visibility: private}}
cards:
  number:
    on_play: |
      set total = total + card.number
      set last_color = card.color
      set last_type = card.type
      set plays = plays + 1
      set favourite of next = card.color
      set secret = secret + 1
      if card.number == 3:
          self puts 1 card on bank
      if card.number == 4:
          move 1 card from draw to pot
  skip:
    on_play: |
      skip next
      set shield = true
      set mood = "angry"
      set pressure = pressure + 1
      set last_type = card.type
"""


@pytest.mark.parametrize("n", [2, 4])
def test_named_piles_and_every_kind_of_variable_are_encoded_as_the_observation_says(tmp_path, n):
    """A field per pile size, face-up piles' cards, and per declared variable a seat may see: public
    globals, public per-player ones by seat offset, a private one as the observer's own; a hidden one
    is left out. Each field takes several values along the games, and equals the plain reading."""
    import json
    import unodsl
    path = tmp_path / "every-kind.yaml"
    path.write_text(EVERY_KIND.format(classic=json.dumps(str(REPO / "variants" / "classic.yaml"))), encoding="utf-8")
    g = unodsl.load(str(path), root="/")
    encoder = rl.ObservationEncoder(g, n)
    names = [f.name for f in encoder.fields]
    extra = ["piles", "pile_cards", "state.pressure", "state.total", "state.mood", "state.last_color",
             "state.last_type", "player_state.plays", "player_state.favourite", "player_state.shield"]
    assert names[-len(extra):] == extra and not any("secret" in name for name in names)
    sizes = {f.name: f.size for f in encoder.fields}
    assert sizes["player_state.plays"] == n and sizes["player_state.shield"] == 1
    assert sizes["player_state.favourite"] == n * 5 and sizes["state.mood"] == 2
    values = {name: set() for name in extra}
    rng = random.Random(1)
    for seed in range(6):
        state = g.new_game(players=n, seed=seed)
        for i in range(400):
            seat = state.current_player if not state.is_over else 0
            assert_encodes(encoder, state, [seat], f"game {seed}, step {i}")
            vector = encoder.encode(state, seat)
            for f in encoder.fields[-len(extra):]:
                values[f.name].add(tuple(vector[f.start:f.start + f.size]))
            if state.is_over:
                break
            step(state, rng)
    assert all(len(seen) >= 2 for seen in values.values()), {name: len(seen) for name, seen in values.items() if len(seen) < 2}


def test_each_vector_is_a_new_array():
    g = game("variants/classic.yaml")
    encoder = rl.ObservationEncoder(g, 2)
    state = g.new_game(players=2, seed=1)
    first = encoder.encode(state, 0)
    kept = first.copy()
    first[:] = 99
    assert np.array_equal(encoder.encode(state, 0), kept)
    state.apply_id(state.legal_action_ids()[0])
    encoder.encode(state, 0)
    assert (first == 99).all()


def test_legal_ids_are_asked_again_after_a_move_or_for_another_state():
    g = game("variants/classic.yaml")
    legal = LegalIds()
    state = g.new_game(players=2, seed=1)
    ids = legal(state)
    assert ids == state.legal_action_ids() and legal(state) is ids
    state.apply_id(ids[0])
    assert legal(state) == state.legal_action_ids() and legal(state) is not ids
    other = state.clone()
    assert legal(other) == other.legal_action_ids() and legal.state is other


def test_the_env_observes_a_state_put_in_place_of_its_own():
    """The invariance test swaps env.state for a resampled one: mask and vector follow the new state."""
    env = rl.env(REPO / "variants/classic.yaml", num_players=2)
    env.reset(seed=5)
    agent = env.agent_selection
    seen = env.observe(agent)
    other = env.game.new_game(players=2, seed=77)
    real, env.state = env.state, other
    swapped = env.observe(env.possible_agents[other.current_player])
    seat = other.current_player
    assert np.array_equal(swapped["observation"], reference_encode(env.encoder, other, seat))
    assert sorted(np.flatnonzero(swapped["action_mask"])) == sorted(
        env.actions.rl_of[seat][e] for e in other.legal_action_ids())
    env.state = real
    again = env.observe(agent)
    assert np.array_equal(again["observation"], seen["observation"])
    assert np.array_equal(again["action_mask"], seen["action_mask"])
