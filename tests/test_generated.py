"""The fast mode's generated rollout (engine/generated.py) plays the reference mode's games, on the language.

tests/test_modes.py plays every shipped variant and house rule both ways, from the start and from
mid-game positions. Here the same proof runs over generated variants (the fuzz templates, which make
every statement of the language): each clean one is played out by the module generated for it and by
the reference mode's listed rollout from the same draws, and the two games must be the same (the same
history, the same saved state at the end). UNODSL_FUZZ=long plays 1,000 template variants and more
games of each (UNODSL_GENERATED_FILES sets how many).

Then what the module is: which cards it generates, the cache on disk, and what `unodsl explain
--generated` prints.
"""

from __future__ import annotations

import ast
import os
import random
import subprocess
import sys

import pytest

import unodsl
from unodsl.engine import Game, generated
from unodsl.runs.simulate import game_seed

from test_fuzz_games import AFTER_DRAW, ON_PLAY, STRICT, VARIABLES, _fill, compile_text, template_variant, variant_text

LONG = os.environ.get("UNODSL_FUZZ") == "long"
FILES = int(os.environ.get("UNODSL_GENERATED_FILES", 1000 if LONG else 80))


def _fast(game: Game) -> Game:
    """The game in the fast mode (the one the module is generated for), whatever UNODSL_FAST says."""
    return game if game.fast else Game(game.variant, game.ruling_overrides, fast=True)


def _same_rollouts(fast: Game, players: int, seed: int, match: bool = False) -> None:
    fast = _fast(fast)
    reference = Game(fast.variant, fast.ruling_overrides, fast=False)
    a, b = fast.new_game(players, seed=seed, match=match), reference.new_game(players, seed=seed, match=match)
    a.play_out(random.Random(seed).random)
    b.play_out(random.Random(seed).random)
    assert a.history == b.history, f"seed {seed}, {players} players: the histories differ"
    assert a.to_json() == b.to_json(), f"seed {seed}, {players} players: the states at the end differ"


def _counts(game: Game) -> list[int]:
    v = game.variant
    return list(v.allowed_players or range(v.min_players, v.max_players + 1))


def loop_variant(rng: random.Random) -> tuple[str, str]:
    """(base, text) of a variant whose turns the generated turn loop plays: one to three cards with effects
    from the fuzz templates (every statement of the language), some under a strict restriction, on a deck
    without the rules the loop leaves to the State (stacking, hooks, ...)."""
    base = rng.choice(["base.yaml", "classic.yaml"])
    cards = {}
    for i in range(rng.randint(1, 3)):
        card = {"per_color": rng.randint(1, 3)} if rng.random() < 0.6 else {"count": rng.randint(1, 3), "wild": "true"}
        card["points"] = rng.choice([0, 5, 20, 50])
        card["on_play"] = _fill(rng.choice(ON_PLAY), rng)
        if rng.random() < 0.3:
            card["on_play"] = f"next draws {rng.randint(0, 4)} and loses turn\n" + card["on_play"]
        if rng.random() < 0.2:                       # judged as the State judges it (the last: in the loop itself)
            card["restriction"] = rng.choice(STRICT + ["not self holds playable"])
            card["restriction_check"] = "strict"
        cards[f"gen_{i}"] = card
    top = dict(VARIABLES)
    low = rng.choice([2, 2, 3])
    top["players"] = f"{{min: {low}, max: {rng.choice([low, 3, 4])}}}"
    top["round"] = {"max_turns": rng.choice([20, 60, 200])}
    if rng.random() < 0.2:                           # a turn's draw the State makes: until playable, or kept back
        top["turn"] = {"no_playable": rng.choice(["draw_one", "draw_until_playable"]),
                       "drawn_card": rng.choice(["optional", "forced", "forbidden"])}
    if rng.random() < 0.2:                           # an after-draw event: every effect that draws is the State's
        top["events"] = {"after_draw": _fill(rng.choice(AFTER_DRAW), rng)}
    if rng.random() < 0.2:                           # teams of two, out together
        top["players"], top["teams"] = "{allowed: [4]}", "{size: 2}"
        top["round"]["ends_when"] = "team_out"
    top["deal"] = {"hand_size": rng.choice([1, 2, 3, 7])}
    top["piles"] = "{bank: {face: down}, pot: {face: up}, stock: {per_player: true, face: down}, lane: {count: 2, face: up}}"
    return base, variant_text(base, cards, top)


@pytest.mark.parametrize("make", ["templates", "loop"])
def test_generated_variants_play_the_reference_modes_games(make):
    """Every clean variant, played out both ways at each of its player counts: the fuzz templates (every
    feature, most of them beyond the turn loop) and variants made for the turn loop (every statement on a card)."""
    clean = looped = 0
    for seed in range(FILES):
        if make == "templates":
            base, text = template_variant(random.Random(seed), extra=random.Random(~seed))
        else:
            base, text = loop_variant(random.Random(seed))
        result = compile_text(text, base)
        if result.errors or result.game is None:
            continue
        game = _fast(result.game)
        clean += 1
        looped += generated.fast_loop_refusal(game) is None
        for i, players in enumerate(_counts(game)):
            try:
                _same_rollouts(game, players, seed * 100 + i, match=i % 3 == 2)
            except AssertionError as error:
                raise AssertionError(f"template variant {seed}:\n{text}\n{error}") from None
    assert clean >= FILES // 2
    if make == "loop":
        assert looped >= clean * 3 // 4, f"only {looped} of {clean} variants went through the turn loop"


def test_a_card_played_only_with_no_other_to_play_is_judged_in_the_loop():
    """`not self holds playable` (RLCard's Wild Draw Four, the official rule) is judged from the bitmask of the kinds
    that match, without the State; any other strict restriction is the State's."""
    rlcard = _fast(unodsl.load("benchmarks/rlcard-rules.yaml"))
    alone = [rlcard.type_ids[t] for t in range(len(rlcard.type_ids)) if generated.plays_alone(rlcard, t)]
    assert alone == ["wild_draw_four"]
    source = generated.source_for(rlcard)
    assert "st.current, st.next_player" not in source.split("if legal_kinds & STRICT_MASK")[1].split("m = ")[0]
    classic = _fast(unodsl.load("classic"))
    assert not any(generated.plays_alone(classic, t) for t in range(len(classic.type_ids)))
    for players in (2, 3, 4):
        for index in range(4):
            _same_rollouts(rlcard, players, game_seed(players, index))


def test_a_players_test_is_written_into_the_loop():
    """Classic's reverse (`if players == 2 ...: skip next`): its test is source on the loop's locals, so the effect
    neither opens a frame, nor writes the loop back to the State, nor calls an op."""
    source = generated.source_for(_fast(unodsl.load("classic")))
    reverse = source.split("# cards.reverse.on_play")[1].split("generic = ")
    assert "== 2 else" in reverse[0]
    assert not any(word in reverse[0] for word in ("OPS[", "new_frame", "st.current, st.next_player"))
    assert reverse[1].startswith("False")


@pytest.mark.parametrize("path", ["variants/classic.yaml", "variants/flip.yaml", "benchmarks/reference-rules.yaml",
                                  "benchmarks/rlcard-rules.yaml"])
def test_a_match_plays_the_same_both_ways(path):
    game = unodsl.load(path)
    for index in range(3):
        _same_rollouts(game, 4, game_seed(4, 200 + index), match=True)


def test_classics_cards_are_all_generated():
    """Classic's every card is played in the turn loop: none is handed to the State (the Wild Draw Four's
    challenge included), and the turn loop is used."""
    game = _fast(unodsl.load("classic"))
    assert generated.fast_loop_refusal(game) is None
    source = generated.source_for(game)
    act = next(line for line in source.splitlines() if line.startswith("ACT = "))
    acts = ast.literal_eval(act.removeprefix("ACT = ").partition("#")[0].strip())
    assert len(acts) == game.num_kinds and generated.HAND_OVER not in acts
    for name in ("draw_two", "reverse", "skip", "wild", "wild_draw_four"):
        assert f"cards.{name}.on_play" in source


def test_the_turn_loop_says_why_it_is_not_used():
    assert generated.fast_loop_refusal(_fast(unodsl.load("no-mercy"))) is not None
    assert generated.fast_loop_refusal(Game(unodsl.load("classic").variant, fast=False)) == "the reference mode"
    source = generated.source_for(unodsl.load("no-mercy"))
    assert "# The turn loop: not used: " in source


def test_the_module_is_cached_on_disk_by_its_source(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("UNODSL_NO_CACHE", raising=False)
    monkeypatch.setattr(generated, "_MODULES", {})
    game = _fast(unodsl.load("classic"))
    source = generated.source_for(game)
    path = tmp_path / "unodsl" / "generated" / f"unodsl_generated_{generated.digest_of(source)}.py"
    game.new_game(2, seed=1).play_out()           # the first rollout makes the module
    assert path.read_text(encoding="utf-8") == source
    # A damaged file is written again, and the game plays as before.
    path.write_text("this is not python (", encoding="utf-8")
    monkeypatch.setattr(generated, "_MODULES", {})
    other = unodsl.load("classic")
    _same_rollouts(other, 3, 7)
    assert path.read_text(encoding="utf-8") == source


def test_without_a_cache_the_module_is_made_in_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("UNODSL_NO_CACHE", "1")
    monkeypatch.setattr(generated, "_MODULES", {})
    _same_rollouts(unodsl.load("classic"), 2, 11)
    assert not (tmp_path / "unodsl").exists()


def test_an_unwritable_cache_is_not_an_error(tmp_path, monkeypatch):
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")          # the cache folder's parent is a file: nothing can be made
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    monkeypatch.delenv("UNODSL_NO_CACHE", raising=False)
    monkeypatch.setattr(generated, "_MODULES", {})
    _same_rollouts(unodsl.load("classic"), 4, 5)


def test_explain_generated_prints_the_module():
    out = subprocess.run([sys.executable, "-m", "unodsl", "explain", "classic", "--generated"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout == generated.source_for(unodsl.load("classic"))
    compile(out.stdout, "<explained>", "exec")        # the printed module is Python


def test_the_turn_hand_off_is_made_from_the_field_declaration(monkeypatch):
    """Each TURN field of engine/fields.py is reset as the loop hands a turn on (in its local where the loop
    holds one): declaring a field TURN is all it takes."""
    import dataclasses

    from unodsl.engine import fields
    reset = generated._turn_reset()
    for f in fields.FIELDS:
        if f.reset == fields.TURN:
            assert f"{generated._TURN_LOCALS.get(f.name, 'st.' + f.name)} = {f.initial}" in reset
    flips = [dataclasses.replace(f, reset=fields.TURN) if f.name == "flips" else f for f in fields.FIELDS]
    monkeypatch.setattr(fields, "FIELDS", flips)
    assert "st.flips = 0" in generated._turn_reset()
    assert "st.flips = 0" in generated.source_for(_fast(unodsl.load("classic")))


def _compiler_ready() -> bool:
    import importlib.util
    import shutil
    return importlib.util.find_spec("Cython") is not None and shutil.which(os.environ.get("CC", "cc")) is not None


@pytest.mark.skipif(not _compiler_ready(), reason="the compiled tier needs Cython (the compiled extra) and a C compiler")
@pytest.mark.parametrize("name", ["classic", "no-mercy", "all-wild-grogu", "benchmarks/rlcard-rules.yaml"])
def test_the_compiled_module_plays_the_same_games(tmp_path, monkeypatch, name):
    """UNODSL_COMPILE=1: the module compiled by Cython and the C compiler, cached beside the source, plays the
    reference mode's games, a match included (every decision the turn loop takes, a challenge, a refill).
    Classic's masks of kinds are C integers; No Mercy's 68 kinds do not fit one, and stay Python integers."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("UNODSL_NO_CACHE", raising=False)
    monkeypatch.setenv("UNODSL_COMPILE", "1")
    monkeypatch.setattr(generated, "_MODULES", {})
    game = _fast(unodsl.load(name))
    assert ("__builtin_popcountll" in generated.source_for(game, typed=True)) == (game.num_kinds <= 62)
    for players in (2, 3, 4):
        _same_rollouts(game, players, game_seed(players, 5))
    _same_rollouts(game, 4, game_seed(4, 9), match=True)
    assert type(game.rollout).__name__ == "cython_function_or_method"      # compiled, not the plain module
    assert list((tmp_path / "unodsl" / "generated").glob("unodsl_generated_*.so"))


def test_without_a_compiler_the_plain_module_plays_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("UNODSL_COMPILE", "1")
    monkeypatch.setenv("CC", "no-such-compiler")
    monkeypatch.setattr(generated, "_MODULES", {})
    game = _fast(unodsl.load("classic"))
    with pytest.warns(RuntimeWarning, match="not compiled"):
        game.new_game(2, seed=3).play_out()
    assert type(game.rollout).__name__ == "function"
    _same_rollouts(game, 3, 4)


def test_the_process_keeps_a_bounded_number_of_modules(monkeypatch):
    """A process that plays many variants out keeps the KEPT most recently used modules, not one per variant
    for ever; a Game keeps its own rollout, and a module forgotten is made again, the same."""
    monkeypatch.setattr(generated, "_MODULES", {})
    monkeypatch.setattr(generated, "KEPT", 5)
    games = []
    for seed in range(8):
        base, text = loop_variant(random.Random(seed))
        games.append(_fast(compile_text(text, base).game))
        games[-1].new_game(games[-1].variant.min_players, seed=seed).play_out()
    assert len(generated._MODULES) == 5
    assert generated.digest_of(generated.source_for(games[0])) not in generated._MODULES
    assert generated.digest_of(generated.source_for(games[-1])) in generated._MODULES
    first = Game(games[0].variant, games[0].ruling_overrides, fast=True)   # a new Game: its module made again
    _same_rollouts(first, first.variant.min_players, 3)
    assert len(generated._MODULES) == 5
