"""Saved states: every reachable state saves and loads; a tampered one is refused by name, never crashes.

States are taken from real games of several variants, mid-effect ones included (a pending
choice of color, target, gift, trade or forced play, a challenge, a stack, a jump-in or
catch window, many open effect frames). Each field is then tampered with in turn.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import unodsl
from unodsl import InvalidState, State
from unodsl.effects import layout as D
from unodsl.engine import savefile
from unodsl.engine import MAX_FRAMES

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ["variants/classic.yaml", "variants/teams.yaml", "variants/all-wild-grogu.yaml",
            "variants/house-rules/jump-in.yaml", "variants/house-rules/stacking-mattel.yaml",
            "variants/house-rules/seven-o.yaml", "variants/no-mercy.yaml", "variants/uno-attack.yaml"]

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

MAX_STEPS = 600           # actions followed per sampled game
STEPS_AFTER_LOAD = 12     # random legal actions a loaded state must take without an error


def _shape(state: State) -> tuple:
    """What makes a state interesting to tamper with: its decision and what is open around it."""
    if state.is_over:
        return ("over",)
    return (state.pending[0], min(len(state.frames), 2), bool(state.vulnerable), bool(state.window),
            any(state.limbo), bool(state.revealed), state.stack > 0, state.lock_owner >= 0)


def _collect(game: State, players: int, games: int, per_shape: int = 1) -> list[str]:
    """Saved states of random games (the second one a match), one (or `per_shape`) for each shape met.

    A game is followed for at most MAX_STEPS actions: a long match makes long states, slow to tamper with.
    """
    seen: dict = {}
    for seed in range(games):
        state = game.new_game(players, seed=seed, match=seed == 1)
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            shape = _shape(state)
            if len(seen.setdefault(shape, [])) < per_shape:
                seen[shape].append(state.to_json())
            if state.is_over:
                break
            legal = state.legal_action_ids()
            state.apply_id(legal[rng.randrange(len(legal))])
    return [text for texts in seen.values() for text in texts]


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


@pytest.fixture(scope="module")
def saved(deep_game):
    """(game, saved text) pairs: every shape of state met in a few games of each variant."""
    out = []
    for path in VARIANTS:
        game = unodsl.load(path)
        players = 4 if 4 in (game.variant.allowed_players or range(game.variant.min_players,
                                                                   game.variant.max_players + 1)) else 2
        out += [(game, text) for text in _collect(game, players, 4)]
    out.append((deep_game, _deep_state(deep_game, 5).to_json()))
    return out


@pytest.fixture(scope="module")
def kinds(saved):
    """One saved state per variant and kind of decision (the field-by-field tests try each field on each)."""
    seen = {}
    for game, text in saved:
        pending = json.loads(text)["pending"]
        seen.setdefault((game.digest, pending[0] if pending else None), (game, text))
    return list(seen.values())


def _plays(state: State) -> None:
    """A loaded state answers legal_actions, takes legal actions and saves again, without an error."""
    rng = random.Random(7)
    State.from_json(state.g, state.to_json())
    for _ in range(STEPS_AFTER_LOAD):
        if state.is_over:
            assert state.legal_actions() == []
            return
        legal = state.legal_actions()
        assert legal, "a loaded state in which the player to act has no legal action"
        state.apply(legal[rng.randrange(len(legal))])


def _load_or_refuse(game, data) -> None:
    """The only two outcomes a tampered save may have: InvalidState, or a state that plays on."""
    try:
        state = State.from_json(game, json.dumps(data))
    except InvalidState:
        return
    _plays(state)


# --- the schema covers the state -----------------------------------------------


def test_every_saved_field_has_one_schema_entry():
    """Every field of a state is saved and checked, but the game it plays, its log and its events (not saved),
    and `dealing` and `beginning`, set only inside the calls that deal a round and begin a turn."""
    assert set(savefile.FIELDS) | set(savefile.OPTIONAL) == (set(State.__slots__)
                                                             - {"g", "log", "events", "dealing", "beginning"})


def test_every_sampled_state_saves_loads_and_continues_identically(saved):
    kinds = set()
    for game, text in saved:
        state = State.from_json(game, text)
        assert state.to_json() == text
        kinds.add(state.decision)
    # The sample holds every kind of decision the shipped variants make.
    assert kinds >= {D.TURN, D.DRAWN, D.COLOR, D.TARGET, D.CHALLENGE, D.GIVE, D.TRADE, D.STACK, D.FORCED,
                     D.JUMP, D.CATCH, D.UNO, ""}


# --- many open effect frames (issue 17.3) ----------------------------------------


def test_a_state_with_the_most_effect_frames_the_engine_opens_saves_and_loads(deep_game):
    # The loader refused more than 64 frames, a cap of its own; the engine's limit is MAX_FRAMES.
    state = _deep_state(deep_game, MAX_FRAMES)
    assert len(state.frames) == MAX_FRAMES
    loaded = State.from_json(deep_game, state.to_json())
    assert loaded.to_json() == state.to_json()
    rng = random.Random(3)
    for _ in range(40):                 # one frame more and the round ends as a stall
        legal = state.legal_action_ids()
        assert loaded.legal_action_ids() == legal
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        state.apply_id(action)
        loaded.apply_id(action)
    assert loaded.to_json() == state.to_json()


# --- tampering, field by field -----------------------------------------------------

JUNK = ["x", 1.5, {}, [], None, True, -1, 99, -99, 10**30, [99], [-2], ["x"], [None], [[]], [[99]]]


def test_every_field_replaced_by_junk_is_refused_or_plays_on(kinds):
    refused = 0
    for game, text in kinds:
        data = json.loads(text)
        for field in savefile.FIELDS:
            for junk in JUNK:
                tampered = dict(data)
                tampered[field] = junk
                try:
                    State.from_json(game, json.dumps(tampered))
                except InvalidState as err:
                    refused += 1
                    assert field in str(err)
                    continue
                _plays(State.from_json(game, json.dumps(tampered)))
    assert refused > len(kinds) * len(savefile.FIELDS) * len(JUNK) * 3 // 4


def _positions(value, path=(), every=False):
    """Positions inside a JSON value (list items and dict values), with the value there.

    Of a list, its first two items and its last (every item when `every`): the others are alike.
    """
    if isinstance(value, list):
        indexes = range(len(value)) if every else sorted({*range(min(2, len(value))), len(value) - 1} - {-1})
        for i in indexes:
            yield path + (i,), value[i]
            yield from _positions(value[i], path + (i,), every)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), item
            yield from _positions(item, path + (key,), every)


def _replace(data, path, value):
    """A copy of data with the item at path replaced: only the containers on the path are copied."""
    if not path:
        return value
    if not isinstance(data, (list, dict)):
        raise TypeError("an earlier edit replaced this container")
    out = list(data) if isinstance(data, list) else dict(data)
    out[path[0]] = _replace(data[path[0]], path[1:], value)
    return out


NESTED = ["x", None, True, -2, 99, 1.5, [], [99]]


def test_every_item_inside_every_field_replaced_by_junk_is_refused_or_plays_on(kinds):
    for game, text in kinds:
        data = json.loads(text)
        for field in savefile.FIELDS:
            if field == "rng":
                continue                       # the generator's own state: see the rng test below
            every = field in ("frames", "pending")
            for path, _ in _positions(data[field], (field,), every):
                for junk in NESTED:
                    _load_or_refuse(game, _replace(data, path, junk))


def test_a_tampered_random_generator_is_refused(saved):
    game, text = saved[0]
    data = json.loads(text)
    for rng in ("x", [], [3, [1, 2], None], [3, data["rng"][1], "x"], [3, [-1] * 625, None],
                [3, data["rng"][1][:-1] + [999], None], [2, data["rng"][1], None]):
        tampered = dict(data, rng=rng)
        with pytest.raises(InvalidState, match="field 'rng'"):
            State.from_json(game, json.dumps(tampered))


def _state_where(saved, test):
    for game, text in saved:
        if test(json.loads(text)):
            return game, json.loads(text)
    raise AssertionError("no sampled state fits")


def _kind(kind):
    return lambda d: d["pending"] is not None and d["pending"][0] == kind


def _set(field, value):
    def edit(data):
        data[field] = value
    return edit


def _set_in(field, index, value):
    def edit(data):
        data[field][index] = value
    return edit


def _set_pending(index, value):
    def edit(data):
        data["pending"][index] = value
    return edit


def _top_frame(index, value):
    def edit(data):
        data["frames"][-1][index] = value
    return edit


def _any(data):
    return not data["over"]


# (which state, how it is tampered with, the start of the message that must name the field)
TAMPERED = [
    # The cases of issue 17.6.
    (_any, _set("vulnerable", [99]), "field 'vulnerable[0]'"),
    (_any, _set("history", "x"), "field 'history'"),
    (_any, _set("lock_owner", 4), "field 'lock_owner'"),
    (_any, _set("stack_victim", 7), "field 'stack_victim'"),
    (_any, _set("played_by", -3), "field 'played_by'"),
    (_any, _set_in("skip", 0, "x"), "field 'skip[0]'"),
    (_any, _set_in("skip", 0, -1), "field 'skip[0]'"),
    # Per-seat lists, seat indexes, ranges.
    (_any, _set("skip", [0, 0]), "field 'skip'"),
    (_any, _set("uno_called", [0, 0, 0, 0]), "field 'uno_called[0]'"),
    (_any, _set("eliminated", [False] * 5), "field 'eliminated'"),
    (_any, _set("scores", [0, 0, 0, "1"]), "field 'scores[3]'"),
    (_any, _set("uno_askers", [1, 1]), "field 'uno_askers'"),
    (_any, _set("window", [4]), "field 'window[0]'"),
    (_any, _set("window_kind", "turn"), "field 'window_kind'"),
    (_any, _set("after", "later"), "field 'after'"),
    (_any, _set("dealer", 4), "field 'dealer'"),
    (_any, _set("current", -1), "field 'current'"),
    (_any, _set("winner", 9), "field 'winner'"),
    (_any, _set("direction", 0), "field 'direction'"),
    (_any, _set("color", 4), "field 'color'"),
    (_any, _set("lock_color", 17), "field 'lock_color'"),
    (_any, _set("next_exact", True), "field 'next_exact'"),
    (_any, _set("drawn_this_turn", 10**6), "field 'drawn_this_turn'"),
    (_any, _set("round", 0), "field 'round'"),
    (_any, _set("stack", -2), "field 'stack'"),
    (_any, _set("history", [10**6]), "field 'history[0]'"),
    (_any, _set("match", 1), "field 'match'"),
    (_any, _set("n", 11), "field 'n'"),
    (_any, _set("revealed", {"9": {}}), "field 'revealed[9]'"),
    (_any, _set("revealed", {"0": {"x": []}}), "field 'revealed"),
    (_any, _set("revealed", []), "field 'revealed'"),
    (_any, _set("discard", []), "field 'discard'"),
    (_any, _set("limbo", [[]]), "field 'limbo'"),
    (_any, _set("hands", [[], [], []]), "field 'hands'"),
    # The card multiset: hands + piles + limbo must be exactly the deck.
    (_any, lambda d: d["draw_pile"].pop(), "is missing from every zone"),
    (_any, lambda d: d["hands"][0].append(d["discard"][0]), "appears more often"),
    (_any, lambda d: d["limbo"][0].append(d["draw_pile"].pop()) or d["draw_pile"].append("red_42"),
     "unknown card 'red_42'"),
    # Effect frames: code ids in range, pc within the code, the right number of locals.
    (lambda d: d["frames"], _top_frame(D.F_CODE, 10**4), "field 'frames[0][0]'"),
    (lambda d: d["frames"], _top_frame(D.F_PC, 10**4), "field 'frames[0][1]'"),
    (lambda d: d["frames"], _top_frame(D.F_SELF, 4), "field 'frames[0][2]'"),
    (lambda d: d["frames"], _top_frame(D.F_CARD, 10**4), "field 'frames[0][3]'"),
    (lambda d: d["frames"], _top_frame(D.F_HONEST, 1), "field 'frames[0][4]'"),
    (lambda d: d["frames"], lambda d: d["frames"][-1].append(None), "field 'frames[0]'"),
    (lambda d: d["frames"], _set("frames", [[0, 0]]), "field 'frames[0]'"),
    (lambda d: d["frames"], _set("frames", "x"), "field 'frames'"),
    # Pending decisions: each kind's tuple, and what it must agree with.
    (_any, _set("pending", None), "field 'pending'"),
    (_any, _set("pending", ["sing", 0]), "field 'pending[0]'"),
    (_any, _set("pending", [D.TURN, 0, 0]), "field 'pending'"),
    (_any, _set_pending(1, 9), "field 'pending[1]'"),
    (_kind(D.TURN), lambda d: d["frames"].append([0, 0, 0, -1, True, False] + [None] * 9), "field 'frames"),
    (_kind(D.COLOR), _set("frames", []), "field 'pending'"),
    (_kind(D.DRAWN), _set_pending(2, 10**4), "field 'pending[2]'"),
    (_kind(D.TARGET), _set_pending(2, 1), "field 'pending[2]'"),
    (_kind(D.TARGET), _set_pending(3, []), "field 'pending[3]'"),
    (_kind(D.TARGET), _set_pending(3, [3, 1]), "field 'pending[3]'"),
    (_kind(D.TARGET), _set_pending(3, [1, 7]), "field 'pending[3][1]'"),
    (_kind(D.CHALLENGE), _set_pending(2, 10**4), "field 'pending[2]'"),
    (_kind(D.CHALLENGE), _set_pending(4, -1), "field 'pending[4]'"),
    (_kind(D.GIVE), _set_pending(2, 0), "field 'pending[2]'"),
    (_kind(D.GIVE), _set_pending(3, -3), "field 'pending[3]'"),
    (_kind(D.TRADE), _set_pending(3, 0), "field 'pending[3]'"),
    (_kind(D.TRADE), lambda d: d["pending"].__setitem__(2, d["pending"][1]), "field 'pending[2]'"),
    (_kind(D.STACK), _set("stack", 0), "field 'pending'"),
    (_kind(D.STACK), _set("stack_victim", -1), "field 'pending'"),
    (_kind(D.FORCED), _set_pending(2, 9), "field 'pending[2]'"),
    (_kind(D.JUMP), _set("window", []), "field 'pending'"),
    (_kind(D.JUMP), _set("window_kind", D.CATCH), "field 'pending'"),
    (_kind(D.CATCH), lambda d: d["window"].reverse() or d["window"].insert(0, (d["pending"][1] + 1) % d["n"]),
     "field 'pending'"),
    (_kind(D.UNO), _set("uno_askers", []), "field 'pending'"),
    (lambda d: d["over"], _set("pending", [D.TURN, 0]), "field 'pending'"),
    # Unknown fields and missing ones.
    (_any, _set("cheat", 1), "unknown field 'cheat'"),
    (_any, lambda d: d.pop("skip"), "missing fields: skip"),
]


@pytest.mark.parametrize("which, edit, message", TAMPERED, ids=[m for _, _, m in TAMPERED])
def test_a_tampered_field_is_refused_by_name(saved, which, edit, message):
    game, data = _state_where(saved, which)
    edit(data)
    with pytest.raises(InvalidState) as err:
        State.from_json(game, json.dumps(data))
    assert message in str(err.value)


def test_a_forced_play_of_a_color_the_player_does_not_hold_is_refused(saved):
    game, data = _state_where(saved, _kind(D.FORCED))
    p, c = data["pending"][1], data["pending"][2]
    color_of = {name: game.k_color[k] for name, k in game.card_index.items()}
    # Swap the forced player's cards of that color for other cards of the draw pile: the deck stays whole.
    theirs = [name for name in data["hands"][p] if color_of[name] == c]
    others = [name for name in data["draw_pile"] if color_of[name] != c][:len(theirs)]
    assert theirs and len(others) == len(theirs)
    for mine, other in zip(theirs, others):
        data["hands"][p][data["hands"][p].index(mine)] = other
        data["draw_pile"][data["draw_pile"].index(other)] = mine
    with pytest.raises(InvalidState, match=r"field 'pending\[2\]' is color \d, of which the forced player"):
        State.from_json(game, json.dumps(data))


def test_a_frame_inside_a_loop_must_hold_what_the_loop_has_set(tmp_path):
    """Paused inside `for each`, a frame holds the loop's list, its index (0 to the list's length) and
    the name it binds: a save that unsets any of them, or moves the index out of the list, is refused
    where it is wrong. Before the check it loaded, and resuming raised TypeError or IndexError."""
    path = tmp_path / "loop.yaml"
    path.write_text(f"unodsl: 1\nname: loop\nextends: {json.dumps(str(REPO / 'variants' / 'classic.yaml'))}\n"
                    "cards:\n  wild:\n    on_play: |\n      for each p in others:\n          p chooses color\n",
                    encoding="utf-8")
    game = unodsl.load(str(path), root="/")
    state = game.new_game(3, seed=0)
    while state.decision != "color":
        wild = [a for a in state.legal_actions() if a.startswith("play wild")]
        state.apply(wild[0] if wild else state.legal_actions()[0])
    state.apply(state.legal_actions()[0])           # the first of the others names a color; the second's turn
    data = json.loads(state.to_json())
    frame = data["frames"][-1]
    code = frame[D.F_CODE]
    live = [r for r in game.code_records[code].live if r.first <= frame[D.F_PC] <= r.last]
    list_slot, index_slot, name_slot = sorted(r.slot for r in live)
    assert frame[index_slot] == 2 and len(frame[list_slot]) == 2
    State.from_json(game, json.dumps(data))         # the genuine save loads
    for slot, junk, message in ((list_slot, None, "is unset"), (index_slot, None, "is unset"),
                                (name_slot, None, "is unset"), (index_slot, 3, r"is 3, out of range \(0 to 2\)"),
                                (index_slot, -1, "is -1, out of range")):
        tampered = json.loads(state.to_json())
        tampered["frames"][-1][slot] = junk
        with pytest.raises(InvalidState, match=rf"field 'frames\[0\]\[{slot}\]' {message}"):
            State.from_json(game, json.dumps(tampered))


def test_a_tampered_local_of_an_effect_frame_is_refused(saved):
    # Seven-O's `let p = choose player others`: a player local set to a seat that does not exist.
    game, data = _state_where(saved, lambda d: d["frames"] and len(d["frames"][-1]) > D.F_LOCALS + 1)
    for slot in range(D.F_LOCALS, len(data["frames"][-1])):
        data["frames"][-1][slot] = 99
    with pytest.raises(InvalidState, match="field 'frames"):
        State.from_json(game, json.dumps(data))


# --- random tampering ----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.integers() | st.floats(allow_nan=False)
    | st.sampled_from(["", "x", D.TURN, D.CATCH, D.JUMP, "red_1", "wild"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["0", "1", "x"]), inner, max_size=2),
    max_leaves=6)


@settings(max_examples=400, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_tampering_loads_a_playable_state_or_is_refused(saved, data):
    game, text = data.draw(st.sampled_from(saved), label="state")
    doc = json.loads(text)
    paths = [(field,) for field in savefile.FIELDS if field != "rng"]
    for field in ("pending", "frames", "window", "vulnerable", "uno_askers", "skip", "limbo", "hands",
                  "revealed", "scores", "uno_called", "eliminated", "out"):
        paths += [path for path, _ in _positions(doc[field], (field,), every=True)
                  if not (field == "frames" and len(path) == 3 and path[2] >= D.F_LOCALS)]
    edits = data.draw(st.lists(st.tuples(st.sampled_from(paths), json_values), min_size=1, max_size=3),
                      label="edits")
    for path, value in edits:
        try:
            doc = _replace(doc, path, value)
        except (IndexError, KeyError, TypeError):
            pass                                  # an earlier edit removed this position
    _load_or_refuse(game, doc)


def test_the_savefile_knows_the_state_only_by_its_fields():
    """The engine imports the savefile, not the other way round: no import of the state, game or fast modules."""
    import ast
    tree = ast.parse(Path(savefile.__file__).read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported and not imported & {"state", "game", "fast", "core"}
