"""The instruction inliner prototype (benchmarks/inline_prototype.py): an inlined body does what the instruction does.

On positions taken from classic, Seven-O and Pressure games (reference mode, a random number of
random steps in), each instruction that inlines is run twice on copies of the same state: called
(`ops.OPS[name](state, *operands)`) and as the inlined source executed with the fields the
generated code holds in locals (steps, direction, color) read before and written back after. The
two states must be the same (their saved form, the generator included), or both must raise alike.
"""

from __future__ import annotations

import random

import pytest

import unodsl
from unodsl.engine import Game, ops
from unodsl.runs.simulate import game_seed

from bench_scripts import bench_module

I = bench_module("inline_prototype")

FIELDS = {"steps": "steps", "direction": "d", "color": "color"}
KNOWN = {"events": None}            # a game that records nothing
# (instruction, operands by player count n): seats as p, q; -1 is nobody.
CALLS = [
    ("skip", lambda n: [[p] for p in range(-1, n)]),
    ("skip_next", lambda n: [[p, 2] for p in range(n)] + [[0, 5]]),
    ("reverse", lambda n: [[]]),
    ("draw", lambda n: [[p, 3] for p in range(-1, n)] + [[0, 0], [1, 200]]),
    ("draw_to", lambda n: [[p, 9] for p in range(n)]),
    ("penalty", lambda n: [[p, 2] for p in range(-1, n)] + [[0, 0]]),
    ("set_color", lambda n: [[c] for c in range(-1, 4)]),
    ("score", lambda n: [[p, 5] for p in range(-1, n)] + [[0, 0]]),
    ("turn_to", lambda n: [[p] for p in range(-1, n)]),
    ("swap_hands", lambda n: [[0, 1], [1, n - 1], [0, 0]]),
    ("rotate_hands", lambda n: [[1], [-1]]),
    ("look", lambda n: [[0, 1], [1, 0]]),
    ("discard_color", lambda n: [[p, c] for p in range(n) for c in range(4)]),
    ("redeal", lambda n: [[p, d] for p in range(n) for d in (1, -1)]),
    ("eliminate", lambda n: [[p] for p in range(n)]),
    ("lock", lambda n: [[c, 0] for c in range(4)]),
    ("pass_stack", lambda n: [[0, 1]]),
]


def _positions(path: str, count: int):
    fast = unodsl.load(path, fast=True)
    game = Game(fast.variant, fast.ruling_overrides, fast=False)
    for index in range(count):
        players = 2 + index % 3
        seed = game_seed(players, index)
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(3, 80)):
            if state.is_over:
                break
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        if not state.is_over:
            yield game, state


def _outcome(run, state):
    try:
        run(state)
    except Exception as error:      # noqa: BLE001 -- the two must fail alike
        return type(error).__name__
    return state.to_json()


@pytest.mark.parametrize("path", ["variants/classic.yaml", "variants/house-rules/seven-o.yaml",
                                  "variants/house-rules/pressure.yaml"])
def test_an_inlined_instruction_does_what_the_instruction_does(path):
    compared = 0
    for game, state in _positions(path, 12):
        for name, operands in CALLS:
            for values in operands(state.n):
                args = [f"a{i}" for i in range(len(values))]
                source = I.inline(game, name, args, FIELDS, KNOWN)
                code = compile(source, f"<inlined {name}>", "exec")

                def inlined(st, code=code, values=values):
                    space = dict(vars(ops), st=st, steps=st.steps, d=st.direction, color=st.color,
                                 **{f"a{i}": v for i, v in enumerate(values)})
                    exec(code, space)
                    st.steps, st.direction, st.color = space["steps"], space["d"], space["color"]

                called = _outcome(lambda st: ops.OPS[name](st, *values), state.clone())
                assert _outcome(inlined, state.clone()) == called, f"{path}: {name}{tuple(values)}\n{source}"
                compared += 1
    assert compared > 500


def test_the_rule_choices_fold_away():
    """Classic has no stacking, no draw event and no elimination rule: the inlined penalty tests none of them."""
    game = unodsl.load("variants/classic.yaml")
    source = I.inline(game, "penalty", ["v", "2"], FIELDS, KNOWN)
    assert "stacking" not in source and "after_draw" not in source and "eliminate_when" not in source
    assert "steps +=" in source and "st.skip[v] += 1" in source


def test_a_pausing_instruction_is_not_inlined():
    with pytest.raises(I.NotInlined):
        I.inline(unodsl.load("variants/classic.yaml"), "choose_color", ["p"], FIELDS, KNOWN)
