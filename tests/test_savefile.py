"""Saved states: every reachable state saves and loads."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import unodsl
from unodsl import State

REPO = Path(__file__).resolve().parent.parent

# A variant whose every draw makes the drawing player choose someone who draws in turn:
# each answer opens one more effect frame, as deep as the players like (issue 17.3).
DEEP_DRAWS = """\
unodsl: 1
extends: {classic}
name: Deep draws
events:
  after_draw: |
    let p = choose player others
    p draws 1
"""



def _deep_state(game, frames: int) -> State:
    """A Deep draws game in which `frames` effect frames are open, built through the public API."""
    state = game.new_game(4, seed=1)
    while len(state.frames) < frames:
        legal = state.legal_actions()
        state.apply("draw" if "draw" in legal else legal[0])
    return state


@pytest.fixture(scope="module")
def deep_game(tmp_path_factory):
    folder = tmp_path_factory.mktemp("deep")
    path = folder / "deep.yaml"
    path.write_text(DEEP_DRAWS.format(classic=json.dumps(str(REPO / "variants" / "classic.yaml"))),
                    encoding="utf-8")
    return unodsl.load(str(path), root="/")



# --- many open effect frames (issue 17.3) ----------------------------------------


def test_a_state_with_hundreds_of_open_effect_frames_saves_and_loads(deep_game):
    state = _deep_state(deep_game, 300)
    assert len(state.frames) == 300
    loaded = State.from_json(deep_game, state.to_json())
    assert loaded.to_json() == state.to_json()
    rng = random.Random(3)
    for _ in range(40):
        legal = state.legal_action_ids()
        assert loaded.legal_action_ids() == legal
        action = legal[rng.randrange(len(legal))]
        state.apply_id(action)
        loaded.apply_id(action)
    assert loaded.to_json() == state.to_json()
