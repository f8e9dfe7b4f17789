"""Each compiled op keeps where it was written: `unodsl explain` lists it, a stopped effect names it (issue 28.3)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from unodsl.check import check_file
from unodsl.cli import main
from unodsl.engine import MAX_FRAMES, MAX_STEPS_PER_TURN
from unodsl.engine import events as E
from unodsl.rulebook.narration import narrate

REPO = Path(__file__).resolve().parent.parent
SHIPPED = sorted((REPO / "variants").glob("*.yaml")) + sorted((REPO / "variants" / "house-rules").glob("*.yaml"))

PRESSING = """unodsl: 1
name: Pressing
extends: classic
procedures:
  press:
    params: {target: player, n: number}
    body: |
      target draws n
      skip target
cards:
  draw_two:
    on_play: |
      next draws 0
      do press(next, 2)
"""

LOOPING = """unodsl: 1
name: Looping
extends: classic
cards:
  skip:
    on_play: |
      skip next
      repeat 1000:
          repeat 1000:
              self draws 0
"""

NESTING = """unodsl: 1
name: Nesting
extends: classic
cards:
  number:
    on_play: |
      self draws 2
      self must play color current
"""


def _explain(*args: str):
    return CliRunner().invoke(main, ["explain", *args])


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_explain_lists_a_cards_ops_beside_the_lines_of_the_file():
    result = _explain("variants/classic.yaml", "skip")
    assert result.exit_code == 0, result.output
    header, columns, op = result.output.splitlines()[:3]
    line = _line_of(REPO / "variants" / "classic.yaml", "on_play: skip next")
    assert header == f"cards.skip.on_play  (variants/classic.yaml:{line})"
    assert columns.split() == ["line", "pc", "op", "source"]
    assert op.split() == [str(line), "0", "skip", "skip", "next"]


def test_a_procedures_ops_are_listed_at_the_procedures_own_lines(tmp_path):
    path = tmp_path / "pressing.yaml"
    path.write_text(PRESSING)
    result = _explain(str(path), "draw_two")
    assert result.exit_code == 0, result.output
    rows = [row.split() for row in result.output.split("\n\n")[0].splitlines()[2:]]
    assert rows[0][0] == str(_line_of(path, "next draws 0")) and rows[0][2] == "draw"   # the card's own statement
    body = [row for row in rows if row[0] == str(_line_of(path, "target draws n"))]
    assert body and body[0][2] == "draw" and body[0][3:] == ["target", "draws", "n"]
    assert any(row[0] == str(_line_of(path, "skip target")) and row[2] == "skip" for row in rows)


def test_explain_without_names_lists_every_effect_once_and_an_unknown_name_is_refused():
    result = _explain("classic")
    assert result.exit_code == 0
    headers = [b.splitlines()[0].split()[0] for b in result.output.split("\n\n")]
    assert len(headers) == len(set(headers))
    assert {"cards.skip.on_play", "cards.wild.on_play", "cards.draw_two.on_play"} <= set(headers)
    refused = _explain("classic", "skipp")
    assert refused.exit_code == 1 and "no effect named skipp" in refused.output and "skip" in refused.output


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_op_a_statement_made_keeps_its_line(path):
    """Only the engine's own ops (a frame's set-up at the start, its end) have no line; the rest name a
    line inside the text they came from."""
    game = check_file(str(path)).game
    for code, lines in enumerate(r.lines for r in game.code_records):
        assert len(lines) == len(game.codes[code][0])
        written = [i for i, w in enumerate(lines) if w is not None]
        if written:
            assert all(lines[i] is not None for i in range(written[0], written[-1] + 1)), game.code_records[code].name
        for w in lines:
            if w is not None:
                assert 0 < w.line <= len(w.text.source.splitlines()) and w.source_line()
                file, line, _ = w.where()
                assert Path(file).exists() and line >= 1


def _first_stop(game, players: int = 2, seeds: int = 40):
    for seed in range(seeds):
        state = game.new_game(players, seed=seed, record=True)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
        stops = [e for e in state.events if e.kind == E.STOPPED]
        if stops:
            return state, stops
    raise AssertionError("no effect went past a limit")


def test_an_effect_past_the_turns_work_limit_is_named_with_its_line(tmp_path):
    path = tmp_path / "looping.yaml"
    path.write_text(LOOPING)
    state, stops = _first_stop(check_file(str(path)).game)
    assert state.stalled and len(stops) == 1
    stop = stops[0]
    assert (stop.name, stop.count) == ("cards.skip.on_play", MAX_STEPS_PER_TURN)
    assert stop.value in {f"{path}:{_line_of(path, 'repeat 1000')}", f"{path}:{_line_of(path, 'repeat 1000') + 1}",
                          f"{path}:{_line_of(path, 'self draws 0')}"}
    said = " ".join(narrate([stop], 0, state.g))
    assert said.startswith("the round stops: cards.skip.on_play (") and "100,000 steps" in said


def test_effects_nested_past_the_frame_limit_are_named(tmp_path):
    path = tmp_path / "nesting.yaml"
    path.write_text(NESTING)
    state, stops = _first_stop(check_file(str(path)).game)
    stop = stops[0]
    assert stop.count == MAX_FRAMES and stop.name == "cards.number.on_play"
    assert stop.value.rsplit(":", 1)[1] in {str(_line_of(path, "self draws 2")),
                                             str(_line_of(path, "must play color current"))}
    assert "64 effects open at once" in " ".join(narrate([stop], 0, state.g))
