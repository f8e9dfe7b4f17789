"""The State's fields are declared once (engine/fields.py): nothing of a field may live in one place only.

The slots, the constructor, the round reset and `clone` are made from the declaration; what stays
written by hand (the deal, the turn's hand-off kept inline on the hot path) is held to it here, and
every field of states sampled from every shipped variant and house rule is held to its declared type.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import random
import textwrap

import pytest

import unodsl
from unodsl import State

from unodsl.agents.bots import HeuristicBot
from unodsl.agents.view import SeatView, public_state
from unodsl.agents.worlds import Knowledge, WorldSampler
from unodsl.engine import fields, observation, savefile
from unodsl.engine.chance import as_chance
from unodsl.engine.fast import FastState
from unodsl.engine.fields import DEAL, FIELDS, MATCH, NEVER, PUBLIC, ROUND, SLOTS, TURN
from unodsl.engine.flow import Flow
from unodsl.engine.sets import SetState
from tools.fields_table import PAGE, render_table, spliced

NAMES = sorted(entry.name for entry in unodsl.variants())


# --- the declaration itself ----------------------------------------------------------------------


def test_each_field_is_declared_once_with_a_known_type_reset_and_visibility():
    assert len(SLOTS) == len(set(SLOTS))
    for f in FIELDS:
        assert f.type in fields.TYPES, f"{f.name}: type {f.type!r} is not a word of fields.TYPES"
        assert f.reset in (NEVER, MATCH, DEAL, ROUND, TURN), f.name
        assert f.seen in (fields.PUBLIC, fields.OWNER, fields.NOBODY, fields.DECLARED), f.name
        assert f.doc and "\n" not in f.doc, f"{f.name}: one line for docs/api.md's table"
        if f.reset != DEAL:
            assert f.initial is not None, f"{f.name}: a {f.reset} field needs its initial value"
        assert f.saved_when is None or f.check is not None, f"{f.name}: saved_when of a field not saved"
        assert f.dump is None or f.check is not None, f"{f.name}: dump of a field not saved"


def test_the_state_has_exactly_the_declared_slots():
    """No class of the State family adds a field of its own (ChanceState's and PinnedState's bookkeeping aside)."""
    assert State.__slots__ == SLOTS
    for cls in (FastState, SetState):
        assert all(vars(c).get("__slots__", ()) == () for c in cls.__mro__ if c not in (State, object)), cls
    game = unodsl.load("classic")
    chance = as_chance(game.new_game(2, seed=1))
    assert set(type(chance).__slots__) == {"lo", "hi", "told", "used"}


def _assigned(function) -> dict[str, str]:
    """{field: the source of the value} for each `self.FIELD = value` in a function's body (chains too)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                    out[target.attr] = ast.unparse(node.value)
    return out


def _hand_off_problems(table, hand_off) -> list[str]:
    """Where `hand_off` (a turn's start written inline) disagrees with the TURN fields of `table`."""
    assigned, problems = _assigned(hand_off), []
    for f in table:
        if f.reset == TURN and assigned.get(f.name) != f.initial:
            problems.append(f"{hand_off.__qualname__} must set {f.name} = {f.initial}")
        elif f.reset != TURN and f.initial is not None and f.initial.lstrip("-").isdigit() \
                and assigned.get(f.name) == f.initial:
            problems.append(f"{hand_off.__qualname__} resets {f.name} to {f.initial} at each turn: declare it TURN")
    return problems


@pytest.mark.parametrize("hand_off", [Flow._start_turn, FastState.end_turn], ids=["Flow", "FastState"])
def test_each_turn_begins_with_the_turn_fields_at_their_initial_values(hand_off):
    """The turn's hand-off is written inline (a call there would cost every turn): it resets exactly the
    TURN fields, each to its declared initial value. Declare a field TURN to have it reset here too."""
    assert _hand_off_problems(FIELDS, hand_off) == []
    # A field declared TURN that the hand-off does not reset, or reset there but not declared TURN, is caught.
    flips = [dataclasses.replace(f, reset=TURN) if f.name == "flips" else f for f in FIELDS]
    assert _hand_off_problems(flips, hand_off) == [f"{hand_off.__qualname__} must set flips = 0"]
    steps = [dataclasses.replace(f, reset=ROUND) if f.name == "steps" else f for f in FIELDS]
    assert _hand_off_problems(steps, hand_off) == [
        f"{hand_off.__qualname__} resets steps to 0 at each turn: declare it TURN"]


def test_the_deal_sets_every_deal_field():
    """A DEAL field has no initial value of the round reset: the deal (and a position) must set it."""
    classic = unodsl.load("classic")
    for state in (classic.new_game(3, seed=4), classic.new_game(2, seed=5, match=True)):
        for f in FIELDS:
            assert hasattr(state, f.name), f"{f.name} is never set"
    for f in FIELDS:
        if f.reset == DEAL:
            assert f"self.{f.name} =" in _deal_sources(), f"{f.name} is declared DEAL, but the deal never sets it"


def _deal_sources() -> str:
    from unodsl.engine import variables
    return inspect.getsource(Flow._deal) + inspect.getsource(variables.Variables.reset_variables)


def test_the_generated_members_are_the_declaration():
    """What fields.derived makes: the constructor sets the NEVER and MATCH fields, the round reset the
    ROUND and TURN ones, each to its initial value, and nothing else."""
    init, reset = _assigned_in(fields.init_source()), _assigned_in(fields.round_reset_source())
    assert init == {f.name: f.initial for f in FIELDS if f.reset in (NEVER, MATCH)}
    assert reset == {f.name: f.initial for f in FIELDS if f.reset in (ROUND, TURN)}
    assert State.__init__.__code__.co_filename == "<unodsl.engine.fields: __init__>"


def _assigned_in(source: str) -> dict[str, str]:
    out = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Attribute):
            out[node.targets[0].attr] = ast.unparse(node.value)
    return out


# --- sampled states: every field of its declared type, clone shares nothing ------------------------


def _mutables(value, out: list) -> list:
    if isinstance(value, (list, dict)):
        out.append(value)
        for item in (value.values() if isinstance(value, dict) else value):
            _mutables(item, out)
    return out


def _check(state: State) -> None:
    for f in FIELDS:
        value = getattr(state, f.name)
        assert fields.fits(f, value), f"{f.name} holds {value!r:.80}, not a {f.type}"
    copy = state.clone()
    for f in FIELDS:
        if f.name in ("g", "rng"):
            continue
        old, new = getattr(state, f.name), getattr(copy, f.name)
        assert old == new, f.name
        shared = {id(x) for x in _mutables(old, [])} & {id(x) for x in _mutables(new, [])}
        assert not shared, f"clone shares a list or dict of {f.name}"
    assert copy.rng is not state.rng and copy.rng.getstate() == state.rng.getstate()
    saved = json.loads(state.to_json())
    assert json.loads(copy.to_json()) == saved
    for seat in range(state.n):                       # a seat's view keeps every public field as it is
        seen = public_state(state, seat)
        for f in FIELDS:
            if f.seen == PUBLIC and f.name in saved:
                assert seen[f.name] == saved[f.name], (f.name, seat)


@pytest.mark.parametrize("name", NAMES)
def test_every_field_of_sampled_states_fits_its_type_and_clone_copies_it(name):
    game = unodsl.load(name)
    v = game.variant
    players = (v.allowed_players or (max(v.min_players, min(4, v.max_players)),))[0]
    for seed in range(2):
        state = game.new_game(players, seed=seed, match=seed == 1, record=seed == 1)
        bots = [HeuristicBot(random.Random(seed + p)) for p in range(players)]
        step = 0
        while not state.over and step < 400:
            if step % 7 == 0:
                _check(state)
            state.apply_id(bots[state.current_player].act(state))
            step += 1
        _check(state)


def test_a_state_not_dealt_yet_clones_as_far_as_it_goes():
    game = unodsl.load("classic")
    state = game.state_class(game, 2, 3, False, False)
    copy = state.clone()
    assert not hasattr(copy, "hands") and copy.scores == [0, 0] and copy.scores is not state.scores
    assert copy.rng.getstate() == state.rng.getstate()


# --- the save schema and the docs are the declaration's too --------------------------------------


def test_the_save_schema_is_the_declaration_in_its_order():
    """Every field is saved (checked by its `check`) or not saved (loaded at its initial value): never neither."""
    saved = [f.name for f in FIELDS if f.check is not None]
    assert [*savefile.FIELDS, *savefile.OPTIONAL] == saved
    assert set(savefile.UNSAVED) == {f.name for f in FIELDS if f.check is None}
    assert set(savefile.OPTIONAL) == {f.name for f in FIELDS if f.saved_when is not None}
    for game in (unodsl.load("classic"), unodsl.load("flip"), unodsl.load("doubles")):
        assert list(savefile.fields_of(game)) == [f.name for f in FIELDS if f.check is not None and (
            f.saved_when is None or eval(f.saved_when, {"g": game}))]


def test_a_loaded_state_has_every_field_and_the_unsaved_ones_at_their_initial_values():
    game = unodsl.load("classic")
    state = game.new_game(3, seed=8, record=True)
    for _ in range(5):
        state.apply_id(state.legal_action_ids()[0])
    loaded = type(state).from_json(game, state.to_json())
    for f in FIELDS:
        assert hasattr(loaded, f.name), f.name
    assert loaded.g is game and loaded.log is None and loaded.events is None and loaded.dealing == 0
    assert loaded.to_json() == state.to_json()


def test_the_field_table_of_docs_api_is_the_declaration():
    """Regenerate it with `python -m tools.fields_table --write`."""
    text = PAGE.read_text(encoding="utf-8")
    assert spliced(text) == text, "docs/api.md's field table is out of date: python -m tools.fields_table --write"
    assert all(f"| `{f.name}` |" in render_table() for f in FIELDS)


# --- who may see a field: a seat's view of the state (agents/view.py) -----------------------------


def test_a_seats_view_of_the_state_redacts_every_saved_field_not_public():
    """The redacted state (engine/observation.py) hands each saved OWNER or DECLARED field to its entry in
    REDACTED; a NOBODY field without one is removed. The sampled states above check that it keeps the public
    ones as they are."""
    for f in FIELDS:
        if f.check is not None and f.seen in (fields.OWNER, fields.DECLARED):
            assert f.name in observation.REDACTED, \
                f"{f.name} is declared {f.seen}: engine/observation.py's REDACTED must say what a seat keeps of it"
    state = unodsl.load("classic").new_game(3, seed=2)
    seen = public_state(state, 0)
    for f in FIELDS:
        if f.check is not None and f.seen == fields.NOBODY and f.name not in observation.REDACTED:
            assert f.name not in seen, f.name


def test_the_card_drawn_on_another_seats_turn_is_not_in_a_seats_view():
    """Teams: a seat asked to call UNO inside the after-draw event of another seat's turn saw the card that
    seat drew and kept (drawn_this_turn), in public_state (what bots and remote seats are given)."""
    game = unodsl.load("teams")
    players = game.variant.allowed_players[0] if game.variant.allowed_players else 4
    for seed in range(60):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            p = state.current_player
            if p != state.current and state.drawn_this_turn >= 0 and state.played_by < 0:
                assert public_state(state, p)["drawn_this_turn"] is None
                assert public_state(state, state.current)["drawn_this_turn"] == state.drawn_this_turn
                # A search bot's world deals that card again: one of the drawer's unseen cards.
                seat_view = SeatView(state)
                knowledge = Knowledge()
                knowledge.update(seat_view)
                world = WorldSampler(seat_view, knowledge).sample(random.Random(seed))
                assert world.drawn_this_turn == world.hands[state.current][-1]
                assert public_state(world, p) == seat_view.public
                return
            actions = state.legal_action_ids()
            state.apply_id(actions[rng.randrange(len(actions))])
    pytest.fail("no decision of another seat during a turn's draw in 60 games")
