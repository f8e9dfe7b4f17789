"""What a seat may see is decided once, in engine/observation.py, from the fields' declarations (fields.py).

Two kinds of test: the views hide exactly what the declarations say (every shipped variant and house rule:
a seat's view, the spectator's and the redacted state are the same whatever the cards they may not see,
and whatever the fields nobody sees hold), and no interface reads a field that is not public for what it
shows a seat (an AST scan of the adapters, with a short allow-list that says why each entry is allowed).
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import unodsl
from unodsl.engine import fields
from unodsl.engine import observation as O
from unodsl.engine.fields import FIELDS, NOBODY, PUBLIC
from unodsl.rl.resample import resample_hidden

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(entry.name for entry in unodsl.variants())
SEAT_ONLY = ("hand", "revealed", "drawn", "color_value", "legal_actions")      # the keys a seat's view has and a spectator's not


def _players(game) -> int:
    v = game.variant
    return (v.allowed_players or (max(v.min_players, min(3, v.max_players)),))[0]


def _positions(game, seed: int, every: int = 4, limit: int = 160):
    """Positions of a random recorded game, one every `every` decisions."""
    state = game.new_game(_players(game), seed=seed, record=True)
    rng = random.Random(seed)
    step = 0
    while not state.is_over and step < limit:
        if step % every == 0:
            yield state
        actions = state.legal_action_ids()
        state.apply_id(actions[rng.randrange(len(actions))])
        step += 1
    yield state


# --- the views hide what the declarations say ----------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_no_view_changes_with_the_cards_it_may_not_see(name):
    """Deal the cards a seat may not see again (the other hands, the draw pile's order, face-down piles: what
    fields.py declares OWNER or NOBODY): its view and its redacted state stay the same; so does the
    spectator's view when every hand is dealt again."""
    game = unodsl.load(name)
    rng = random.Random(7)
    checked = 0
    for state in _positions(game, seed=3):
        for seat in range(state.n):
            other = resample_hidden(game, state, seat, rng)
            assert O.seat_view(other, seat) == O.seat_view(state, seat), (seat, state.total_turns)
            assert O.redacted_state(other, seat) == O.redacted_state(state, seat), (seat, state.total_turns)
        everyone = resample_hidden(game, state, O.SPECTATOR, rng)
        assert O.spectator_view(everyone) == O.spectator_view(state), state.total_turns
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name", NAMES)
def test_the_spectator_sees_no_hand_and_a_seat_no_other_hand(name):
    game = unodsl.load(name)
    for state in _positions(game, seed=5, every=9):
        spectator = O.spectator_view(state)
        assert not set(SEAT_ONLY) & set(spectator)
        assert spectator["hand_sizes"] == [len(h) for h in state.hands]
        for seat in range(state.n):
            view = O.seat_view(state, seat)
            assert view["hand"] == state.hand(seat)
            # The seat's view is the spectator's with the seat's own parts: nothing else differs.
            differ = (*SEAT_ONLY, "player", "player_state", "backs")
            assert ({k: v for k, v in view.items() if k not in differ}
                    == {k: v for k, v in spectator.items() if k not in differ})
            assert seat not in (int(q) for q in view.get("backs", {}))      # its own faces are its hand
            hidden = O.redacted_state(state, seat)
            assert all(isinstance(h, int) for q, h in enumerate(hidden["hands"]) if q != seat)
            assert hidden["draw_pile"] == len(state.draw_pile)
            assert set(hidden["revealed"]) <= {str(seat)}


def test_the_fields_nobody_sees_change_no_view():
    """Reseed the generator, change the seed, forget the history: every view and redacted state is the same."""
    game = unodsl.load("classic")
    for state in _positions(game, seed=11, every=13):
        other = state.clone()
        other.rng = random.Random(99)
        other.seed, other.history = 12345, []
        assert O.spectator_view(other) == O.spectator_view(state)
        for seat in range(state.n):
            assert O.seat_view(other, seat) == O.seat_view(state, seat)
            assert O.redacted_state(other, seat) == O.redacted_state(state, seat)


def test_a_field_declared_not_public_is_redacted_or_removed_and_a_public_one_kept():
    """The redacted state is the declaration at work: every saved field not public has its entry in
    REDACTED (OWNER and DECLARED must; NOBODY may, else it is removed), and every public one is kept."""
    for f in FIELDS:
        if f.check is not None and f.seen in (fields.OWNER, fields.DECLARED):
            assert f.name in O.REDACTED, f"{f.name} is declared {f.seen}: say what a seat keeps of it in REDACTED"
        if f.seen == PUBLIC:
            assert f.name not in O.REDACTED, f"{f.name} is declared public: a seat sees it as it is"
    game = unodsl.load("classic")
    state = game.new_game(3, seed=4)
    saved = __import__("json").loads(state.to_json())
    hidden = O.redacted_state(state, 1)
    for f in FIELDS:
        if f.name not in saved:
            continue
        if f.seen == PUBLIC:
            assert hidden[f.name] == saved[f.name], f.name
        elif f.seen == NOBODY and f.name not in O.REDACTED:
            assert f.name not in hidden, f.name


def test_a_new_field_not_public_is_not_shown_before_it_is_said_how():
    """A field declared OWNER without an entry in REDACTED is removed from the redacted state (fail closed)."""
    extra = fields.Field("secret_count", "int", fields.ROUND, "0", "integer(0)", fields.OWNER, "a test field")
    real = fields.SAVED
    game = unodsl.load("classic")
    state = game.new_game(2, seed=1)
    saved = state.to_json

    class Saving:                                   # the state, with one more saved field
        def __getattr__(self, name):
            return getattr(state, name)

        def to_json(self):
            return saved()[:-1] + ', "secret_count": 3}'
    try:
        fields.SAVED = real + (extra,)
        hidden = O.redacted_state(Saving(), 0)
    finally:
        fields.SAVED = real
    assert "secret_count" not in hidden


def test_the_card_another_seat_drew_is_seen_by_the_drawer_only():
    """The drawn card's event is the drawer's to see (the others a count), so is the pending decision's card."""
    game = unodsl.load("classic")
    for state in _positions(game, seed=2, every=1, limit=80):
        pending = state.pending
        if pending and pending[0] == "drawn":
            drawer = pending[1]
            for seat in range(state.n):
                view, hidden = O.seat_view(state, seat), O.redacted_state(state, seat)
                assert ("drawn" in view) == (seat == drawer)
                assert (hidden["pending"][2] is None) == (seat != drawer)
            drew = [e for e in state.events if e.kind == "drew" and e.player == drawer][-1]
            for seat in range(state.n):
                seen = O.event_seen_by(drew, seat)
                assert seen.cards == (drew.cards if seat == drawer else ())
            return
    pytest.fail("no drawn-card decision in 80 decisions")


# --- no interface reads a field that is not public ---------------------------------------------------


# The packages whose modules show a seat what it may see: they read it from engine/observation.py.
READERS = ("web", "cli", "agents", "text", "rl")
# The names the adapters give a State (a `self` is the reader's own object).
STATE_NAMES = {"state", "st", "world", "trial", "self.state", "self._state", "state.state"}
HIDDEN = {f.name for f in FIELDS if f.seen != PUBLIC}

# (module, field): why the module may read it. Each entry is a read that shows no seat what it may not see.
ALLOWED = {
    ("web/store.py", "history"): "the server keeps a room's action log to replay it after a restart; never sent",
    ("agents/seats.py", "rng"): "all-random seats draw from the engine's generator: State.play_out's game",
    ("agents/seats.py", "seed"): "each seat's generator is seeded from the game's seed (seat_rng); shows nothing",
    ("cli/terminal.py", "seed"): "the bots' generators are seeded from the game's seed (seat_rng); shows nothing",
    **{("agents/worlds.py", name): "the sampler deals its own world, made from the redacted state"
       for name in ("hands", "limbo", "piles", "frames")},
    **{("rl/observation.py", name): "the RL encoder reads the State's lists incrementally for speed; "
       "tests/test_rl_encoder.py holds it equal to State.observation (the draw pile: full_state only)"
       for name in ("hands", "pending", "draw_pile", "revealed", "piles", "vars", "pvars")},
}


def _public_part(node: ast.Attribute, parents: dict) -> bool:
    """A read of what the field's declaration makes public: `X.pending[0]` and `X.pending[1]` (the decision's
    kind and seat), `len(X.history)` and `len(X.events)` (a position: how many, not what)."""
    up = parents.get(node)
    if node.attr == "pending" and isinstance(up, ast.Subscript) and up.value is node:
        return isinstance(up.slice, ast.Constant) and up.slice.value in (0, 1)
    if node.attr in ("history", "events") and isinstance(up, ast.Call):
        return isinstance(up.func, ast.Name) and up.func.id == "len" and up.args == [node]
    return False


def hidden_reads(source: str) -> list[tuple[int, str]]:
    """The (line, field) of every read of a field not public on a State, in `source`."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in HIDDEN
                and ast.unparse(node.value) in STATE_NAMES and not _public_part(node, parents)):
            found.append((node.lineno, node.attr))
    return found


def test_the_scan_finds_a_read_of_a_hidden_field():
    source = ("def f(state, st):\n    a = state.hands[2]\n    b = st.pending[2]\n    c = st.pending[0]\n"
              "    d = len(state.history)\n    e = state.draw_pile[-1]\n    state.hands = []\n")
    assert hidden_reads(source) == [(2, "hands"), (3, "pending"), (6, "draw_pile")]


def test_no_interface_reads_a_field_not_public_but_through_the_observation():
    package = ROOT / "unodsl"
    found, used = [], set()
    for reader in READERS:
        for path in sorted((package / reader).rglob("*.py")):
            module = path.relative_to(package).as_posix()
            for line, name in hidden_reads(path.read_text(encoding="utf-8")):
                if (module, name) in ALLOWED:
                    used.add((module, name))
                else:
                    found.append(f"unodsl/{module}:{line}: reads State.{name} (declared "
                                 f"{fields.BY_NAME[name].seen}): read it through engine/observation.py")
    assert found == []
    assert set(ALLOWED) == used, f"allowed but not read any more: {sorted(set(ALLOWED) - used)}"
