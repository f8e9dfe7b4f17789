"""The tutorial's finished house-rules file is checked, played and simulated."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import unodsl

EXAMPLE = "docs/examples/my-house.yaml"


def test_the_finished_file_in_the_tutorial_is_the_example_file():
    text = Path("docs/tutorial.md").read_text(encoding="utf-8")
    section = text.split("## 6. The finished file", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert block == Path(EXAMPLE).read_text(encoding="utf-8")


def test_example_checks_clean_and_plays():
    result = unodsl.check_file(EXAMPLE)
    assert result.diagnostics == []
    game = result.game
    assert len(game.deck) == 110
    swaps = 0
    for seed in range(60):
        state = game.new_game(4, seed=seed, record=True)
        rng = random.Random(seed)
        assert min(len(hand) for hand in state.hands) >= 8        # nothing shrinks a hand before turn one
        while not state.is_over:
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        swaps += sum("play wild_swap_hands" in line for line in state.log)
    assert swaps > 0


def test_example_simulates_through_the_cli():
    out = subprocess.run([sys.executable, "-m", "unodsl.cli", "simulate", EXAMPLE, "-n", "200",
                          "--bots", "heuristic", "--seed", "1", "--json"],
                         capture_output=True, text=True, check=True).stdout
    summary = json.loads(out)
    assert summary["games"] == 200
    assert sum(seat["wins"] for seat in summary["seats"]) + summary["no_winner"] == 200
