"""Issue 30, findings 1-14: files `check` accepted that then broke the engine, diagnostics at the wrong
place, tampered saves that loaded into states that are not valid. Each test failed before its fix.

A variant here is a small file written in tmp_path that extends variants/classic.yaml (by path).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from unodsl import InvalidState, State
from unodsl.check import check_file
from unodsl.effects import layout as D
from unodsl.engine import MAX_FRAMES, MAX_STEPS_PER_TURN, Game
from unodsl.engine import playable, vm

REPO = Path(__file__).resolve().parent.parent
CLASSIC = REPO / "variants" / "classic.yaml"


def compile_variant(tmp_path, body: str, name: str = "v.yaml"):
    """The CheckResult of a variant extending classic with `body` (YAML, at the top level)."""
    path = tmp_path / name
    path.write_text(f"unodsl: 1\nname: Finding\nextends: {CLASSIC}\n{body}", encoding="utf-8")
    return check_file(str(path), root="/")


def clean_game(tmp_path, body: str) -> Game:
    result = compile_variant(tmp_path, body)
    assert not result.errors, [d.header() for d in result.diagnostics]
    return result.game


def headers(tmp_path, body: str) -> list[str]:
    """The diagnostics of the variant, as `line:col CODE message` (the file's path left out)."""
    return [d.header().split(":", 1)[1] for d in compile_variant(tmp_path, body).diagnostics]


def play_both_modes(game: Game, players: int, seed: int, each=None, limit: int = 20_000) -> State:
    """Play a random game in the default and the reference mode in lockstep: the same turn's work
    (steps), decision, hands and frames after every action, the same saved state every 16 and at the end; `each(state)` is called on every state reached. The final state."""
    a = game.new_game(players, seed=seed)
    b = Game(game.variant, fast=False).new_game(players, seed=seed)
    rng = random.Random(seed)
    for step in range(limit):
        assert (a.steps, a.pending, a.hands, len(a.frames)) == (b.steps, b.pending, b.hands, len(b.frames))
        if step % 16 == 0 or a.is_over:
            assert a.to_json() == b.to_json()
        if each is not None:
            each(a)
        if a.is_over:
            return a
        legal = a.legal_action_ids()
        assert legal and legal == b.legal_action_ids()
        action = legal[rng.randrange(len(legal))]
        a.apply_id(action)
        b.apply_id(action)
    raise AssertionError(f"not over after {limit} actions")


def within_limits(state: State) -> None:
    assert len(state.frames) <= MAX_FRAMES, f"{len(state.frames)} frames open"
    assert state.is_over or state.steps <= MAX_STEPS_PER_TURN, f"{state.steps} steps in a turn"
    if len(state.frames) >= MAX_FRAMES - 1:             # the deepest states save and load
        assert State.from_json(state.g, state.to_json()).to_json() == state.to_json()


# ---------------------------------------------------------------- 1. forced plays nest without end

FORCED_LOOP = "cards:\n  number:\n    on_play: |\n      self draws 2\n      self must play color current\n"


def test_nested_forced_plays_stop_at_the_frame_limit(tmp_path):
    game = clean_game(tmp_path, FORCED_LOOP)
    stalled = 0
    for seed in range(3):
        state = play_both_modes(game, 2, seed, within_limits)
        stalled += state.stalled
    assert stalled, "the forced plays nest until the round stalls"


def test_the_step_limit_holds_at_every_pause(tmp_path, monkeypatch):
    # With the frame limit out of the way, the turn's work (steps) is what ends the nesting: each
    # forced play pauses, so only a test at the pause sees it.
    monkeypatch.setattr(vm, "MAX_FRAMES", 10 ** 9)
    monkeypatch.setattr(vm, "MAX_STEPS_PER_TURN", 300)
    game = clean_game(tmp_path, FORCED_LOOP)

    def check(state):
        assert state.is_over or state.steps <= 300, f"{state.steps} steps in a turn"
    assert any(play_both_modes(game, 2, seed, check).stalled for seed in range(3))


# ---------------------------------------------------------------- 8. the modes count a turn's work alike

@pytest.mark.parametrize("event", ["nothing", "if false:\n        next draws 1", "if hand(self) > 99:\n        nothing"])
def test_an_after_draw_event_that_does_nothing_counts_alike_in_both_modes(tmp_path, event):
    game = clean_game(tmp_path, f"events:\n  after_draw: |\n    {event}\n")
    for seed in range(4):
        play_both_modes(game, 3, seed)


# ---------------------------------------------------------------- 6. a negative penalty under stacking

def test_a_negative_penalty_never_makes_the_stack_negative(tmp_path):
    game = clean_game(tmp_path, "stacking: {answer: any_draw}\ncards:\n  draw_two:\n"
                                "    on_play: next draws hand(next) - hand(self) and loses turn\n")

    stacks = set()

    def check(state):
        assert state.stack >= 0, f"stack {state.stack}"
        if state.stack and state.stack not in stacks:       # a state with a stack open saves and loads
            stacks.add(state.stack)
            assert State.from_json(game, state.to_json()).to_json() == state.to_json()
    for seed in range(3):
        play_both_modes(game, 3, seed, check)
    assert stacks


# ---------------------------------------------------------------- 7. bounded arithmetic

@pytest.mark.parametrize("grow", ["set heat = heat + heat + 1", "set heat = 0 - heat - heat - heat - 1",
                                  "set heat = 999999 * 999999 + 999999 * 999999 + heat"])
def test_arithmetic_holds_an_unbounded_variable_within_the_global_bound(tmp_path, grow):
    game = clean_game(tmp_path, "state:\n  heat: {type: int}\ncards:\n  skip:\n    on_play: |\n"
                                f"      {grow}\n      repeat 60:\n          {grow}\n")
    seen = set()

    def check(state):
        heat = state.vars[0]
        assert -10 ** 9 <= heat <= 10 ** 9, f"heat has {len(str(heat))} digits"
        if abs(heat) == 10 ** 9 and heat not in seen:        # saved, loaded and observed at the bound
            seen.add(heat)
            assert State.from_json(game, state.to_json()).to_json() == state.to_json()
            state.observation(state.current_player if state.current_player >= 0 else 0)
    play_both_modes(game, 2, 0, check)
    assert seen


def test_a_save_with_an_int_past_the_global_bound_is_refused(tmp_path):
    game = clean_game(tmp_path, "state:\n  heat: {type: int}\n")
    saved = json.loads(game.new_game(2, seed=0).to_json())
    saved["vars"] = [10 ** 12]
    with pytest.raises(InvalidState, match="vars.*outside -1,000,000,000 to 1,000,000,000"):
        State.from_json(game, json.dumps(saved))


# ---------------------------------------------------------------- 11. names longer than a file name may be

LONG_NAME = "a" * 300


@pytest.mark.parametrize("body", [f"extends: {LONG_NAME}\n", f"include: [{LONG_NAME}]\n"])
def test_a_name_too_long_for_a_file_is_an_unknown_name(tmp_path, body):
    path = tmp_path / "v.yaml"
    path.write_text(f"unodsl: 1\nname: Long\n{body}", encoding="utf-8")
    result = check_file(str(path))
    assert [(d.code, d.line) for d in result.diagnostics] == [("E324", 3)], [d.header() for d in result.diagnostics]
    assert "unknown variant" in result.diagnostics[0].message


@pytest.mark.parametrize("command", [["check"], ["play", "--players", "2"], ["rules"]])
def test_a_command_line_name_too_long_for_a_file_gets_a_one_line_message(command):
    from click.testing import CliRunner
    from unodsl.cli import main
    ran = CliRunner().invoke(main, [*command, LONG_NAME], catch_exceptions=False, prog_name="unodsl")
    assert ran.exit_code != 0 and "internal error" not in ran.output and "Traceback" not in ran.output
    assert "unknown variant" in ran.output


def test_a_log_naming_a_variant_too_long_for_a_file_gets_a_one_line_message(tmp_path, monkeypatch):
    from click.testing import CliRunner
    from unodsl.cli import main
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.log").write_text(json.dumps({"format": "unodsl-log/1", "variant_path": LONG_NAME, "seed": 1,
                                                   "players": 2, "actions": []}) + "\n")
    ran = CliRunner().invoke(main, ["replay", "game.log"], catch_exceptions=False, prog_name="unodsl")
    assert ran.exit_code != 0 and "internal error" not in ran.output and "unknown variant" in ran.output


# ---------------------------------------------------------------- 2, 3. declared variables where no state is read

@pytest.mark.parametrize("declare", ["state:\n  heat: {type: int, min: 0, max: 9}\n",
                                     "player_state:\n  heat: {type: int, min: 0, max: 9}\n"])
def test_a_match_condition_reading_a_declared_variable_is_refused_where_it_is_read(tmp_path, declare):
    found = headers(tmp_path, declare + "match: card.color == current or heat > 3\n")
    assert len(found) == 1 and found[0].startswith("6:33: E516 ") and "'heat' is a declared variable" in found[0]


@pytest.mark.parametrize("declare", ["state:\n  heat: {type: int, min: 0, max: 9}\n",
                                     "player_state:\n  heat: {type: int, min: 0, max: 9}\n"])
def test_a_set_condition_reading_a_declared_variable_is_refused_where_it_is_read(tmp_path, declare):
    found = headers(tmp_path, declare + "turn:\n  sets: {max: 3, continue: 'card.number == top.number and heat < 5'}\n")
    assert len(found) == 1 and found[0].startswith("7:59: E540 ") and "'heat' is a declared variable" in found[0]


# ---------------------------------------------------------------- 4. putting cards on a pile without `piles:`

@pytest.mark.parametrize("pile", ["discard", "draw"])
def test_putting_cards_on_a_pile_needs_no_declared_piles(tmp_path, pile):
    game = clean_game(tmp_path, f"cards:\n  skip:\n    on_play: self puts 1 card on {pile}\n")
    assert game.A_OPTION == game.A_PUT + game.num_kinds <= game.num_actions
    puts = []

    def check(state):
        if state.decision == D.PUT:
            legal = state.legal_action_ids()
            assert legal and all(game.A_PUT <= a < game.A_OPTION for a in legal)
            assert game.action_to_string(legal[0]).startswith("put ")
            puts.append(legal[0])
    for seed in range(3):
        play_both_modes(game, 2, seed, check)
    assert puts


# ---------------------------------------------------------------- 5. a strict restriction that asks `holds playable`

@pytest.mark.parametrize("test", ["next holds playable", "not self holds playable", "previous holds playable"])
def test_holds_playable_inside_a_strict_restriction_is_bounded(tmp_path, monkeypatch, test):
    # Every card matches and every number card is strict: before, listing the moves judged each
    # restriction, which asked the next player's playable cards, whose restrictions asked the next
    # one's... around the table (still running after 20 s at 16 cards each). Inside a strict
    # restriction `holds playable` now judges by matching only: one listing for the hand, one per card.
    game = clean_game(tmp_path, f'match: "true"\ncards:\n  number:\n    restriction: {test}\n'
                                "    restriction_check: strict\n")
    for fast in (True, False):
        state = Game(game.variant, fast=fast).new_game(2, seed=1)
        for p in range(2):
            state.hands[p] += [state.draw_pile.pop() for _ in range(9)]
        calls = []
        judge = playable.kinds
        monkeypatch.setattr(playable, "kinds", lambda st, *a, **k: calls.append(1) or judge(st, *a, **k))
        assert state.legal_action_ids()
        monkeypatch.undo()
        assert 1 <= len(calls) <= 1 + 16, f"{len(calls)} listings of playable cards for one listing of moves"
    play_both_modes(game, 3, 0)


def test_a_challenge_restriction_may_ask_holds_playable(tmp_path):
    game = clean_game(tmp_path, "cards:\n  number:\n    restriction: not next holds playable\n"
                                "    restriction_check: challenge\n")
    play_both_modes(game, 2, 0)


# ---------------------------------------------------------------- 12-14. tampered saves that loaded into invalid states

def _saved_at(game: Game, kind: str, players: int = 3, seeds: int = 40) -> dict:
    """The save of the first state of a random game (of some seed) waiting for a `kind` decision."""
    for seed in range(seeds):
        state = game.new_game(players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            if state.decision == kind:
                return json.loads(state.to_json())
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
    raise AssertionError(f"no '{kind}' decision met")


def _refused(game: Game, saved: dict, match: str) -> None:
    with pytest.raises(InvalidState, match=match):
        State.from_json(game, json.dumps(saved))


CHOOSER = "cards:\n  skip:\n    on_play: |\n      let t = choose player others\n      t draws 1\n"


def test_every_instruction_that_pauses_says_which_decision_it_asks_for():
    # A saved decision made inside an effect is checked against ops.DECIDES: a new pausing instruction
    # missing there would make the loader refuse its own saves.
    from unodsl.engine.ops import DECIDES, OP_FLAGS
    assert sorted(name for name, flags in OP_FLAGS.items() if D.PAUSES in flags) == sorted(DECIDES)


def test_a_decision_of_another_kind_than_its_effect_asks_is_refused(tmp_path):
    game = clean_game(tmp_path, CHOOSER)
    saved = _saved_at(game, D.TARGET)
    assert State.from_json(game, json.dumps(saved)).legal_action_ids()
    saved["pending"] = [D.COLOR, saved["pending"][1]]        # a `choose player` turned into a color decision
    _refused(game, saved, r"field 'pending\[0\]' is a 'color' decision, but the effect paused .* asks for no 'color'")


def test_a_decision_the_same_effect_asks_elsewhere_is_refused(tmp_path):
    # The effect asks a color after its `choose player`: a color decision where it resumes after choosing a
    # player would run on with the color's answer where the player's is read. Checked per pausing op.
    game = clean_game(tmp_path, "cards:\n  skip:\n    on_play: |\n      let t = choose player others\n"
                                "      t draws 1\n      choose color\n")
    saved = _saved_at(game, D.TARGET)
    assert State.from_json(game, json.dumps(saved)).legal_action_ids()
    saved["pending"] = [D.COLOR, saved["pending"][1]]
    _refused(game, saved, r"field 'pending\[0\]' is a 'color' decision, but the effect paused .* asks for no "
                          r"'color' decision where it resumes")
    color = _saved_at(game, D.COLOR)                  # the genuine color decision of the same effect loads
    assert State.from_json(game, json.dumps(color)).legal_action_ids()


@pytest.mark.parametrize("kind", [D.COLOR, D.TARGET])
def test_a_decision_given_to_an_eliminated_seat_is_refused(tmp_path, kind):
    game = clean_game(tmp_path, CHOOSER)
    saved = _saved_at(game, kind)
    p = saved["pending"][1]
    saved["eliminated"][p] = True                      # eliminated, their cards under the draw pile
    saved["draw_pile"] = saved["hands"][p] + saved["draw_pile"]
    saved["hands"][p] = []
    _refused(game, saved, rf"field 'pending\[1\]' asks player {p}, who is eliminated")


def test_an_uno_call_given_to_an_eliminated_seat_is_refused(tmp_path):
    game = clean_game(tmp_path, "cards:\n  skip:\n    on_play: rotate hands\n")
    saved = _saved_at(game, D.UNO, players=2, seeds=200)
    p = saved["pending"][1]
    saved["eliminated"][p] = True
    saved["draw_pile"] = saved["hands"][p] + saved["draw_pile"]
    saved["hands"][p] = []
    _refused(game, saved, r"field '.*' .*eliminated")


def test_a_set_rewritten_so_that_nothing_is_legal_is_refused(tmp_path):
    game = clean_game(tmp_path, "turn:\n  sets: {max: 3, continue: 'true', finish: 'set.size == 2'}\n")
    saved = _saved_at(game, D.SET, players=2)
    assert State.from_json(game, json.dumps(saved)).legal_action_ids()
    saved["set_play"][0] = 3                # as long as a set may be, and not one that may end: nothing legal
    _refused(game, saved, r"field 'set_play\[0\]' is a set of 3 cards, as long as turn.sets' max allows, but "
                          r"field 'pending' asks to go on with it")


# ---------------------------------------------------------------- 10. elif / else without their if

@pytest.mark.parametrize("effect,word,line", [
    ("skip next\n      elif hand(self) > 2:\n          next draws 1", "elif", 8),
    ("skip next\n      else:\n          next draws 1", "else", 8),
    ("elif hand(self) > 2:\n          next draws 1", "elif", 7),
    ("if hand(self) > 2:\n          skip next\n      else:\n          reverse\n      else:\n          next draws 1", "else", 11),
])
def test_a_branch_without_its_if_is_reported_at_the_branch(tmp_path, effect, word, line):
    # Before: at the next token ('hand', ':'), with a hint about that token ("did you mean 'and'?").
    found = headers(tmp_path, f"cards:\n  skip:\n    on_play: |\n      {effect}\n")
    assert found == [f"{line}:7: E401 '{word}' without an 'if' before it: an '{word}' follows the block of an "
                     "'if' (or 'elif') at the same indentation"]


def test_an_error_inside_an_elif_that_has_its_if_is_reported_as_before(tmp_path):
    found = headers(tmp_path, "cards:\n  skip:\n    on_play: |\n      if hand(self) > 2:\n          skip next\n"
                              "      elif hand(self) = 3:\n          reverse\n")
    assert len(found) == 1 and found[0].startswith("9:23: E401 unexpected '='")
