"""The RL environments (unodsl.rl): PettingZoo's and Gymnasium's own checks, the frozen action
space, and an information-set invariance test that fails on any leak of hidden cards."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

import unodsl  # noqa: E402
import unodsl.rl as rl  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
VARIANTS = sorted(str(p.relative_to(REPO)) for p in [*REPO.glob("variants/*.yaml"),
                                                        *REPO.glob("variants/house-rules/*.yaml")])

_games: dict[str, object] = {}


def game(path: str):
    if path not in _games:
        _games[path] = unodsl.load(REPO / path)
    return _games[path]


def tables(sizes=(2, 4)):
    """(variant, players) for every shipped variant at each size it allows."""
    out = []
    for path in VARIANTS:
        for n in sizes:
            try:
                game(path).check_players(n)
            except Exception:
                continue
            out.append(pytest.param(path, n, id=f"{Path(path).stem}-{n}"))
    return out


# --- the action space

# RL action ids per shipped variant and table size; the engine's own space is in the last column.
ACTION_SPACE = {
    "variants/all-wild-grogu.yaml": (96, 101, 135),
    "variants/all-wild.yaml": (21, 26, 115),
    "variants/classic.yaml": (119, 121, 3109),
    "variants/flip.yaml": (231, 233, 12023),
    "variants/frozen-2.yaml": (121, 123, 3221),
    "variants/house-rules/doubles.yaml": (120, 122, 3109),            # + done, to end a set
    "variants/house-rules/draw-to-match.yaml": (119, 121, 3109),
    "variants/house-rules/dry-pile.yaml": (119, 121, 3109),
    "variants/house-rules/force-play.yaml": (118, 120, 3109),
    "variants/house-rules/going-out-bonus.yaml": (119, 121, 3109),
    "variants/house-rules/hand-size-10.yaml": (119, 121, 3109),
    "variants/house-rules/jump-in.yaml": (119, 121, 3109),
    "variants/house-rules/neighbours.yaml": (119, 121, 3109),
    "variants/house-rules/no-bluffing.yaml": (117, 119, 3109),
    "variants/house-rules/piggy-bank.yaml": (173, 175, 3163),
    "variants/house-rules/pressure.yaml": (119, 121, 3109),
    "variants/house-rules/seven-o.yaml": (119, 124, 3109),
    "variants/house-rules/stacking-equal-or-higher.yaml": (119, 121, 3109),
    "variants/house-rules/stacking-mattel.yaml": (119, 121, 3109),
    "variants/house-rules/stacking-plus4-on-plus2.yaml": (119, 121, 3109),
    "variants/house-rules/stacking-progressive.yaml": (119, 121, 3109),
    "variants/house-rules/stockpile.yaml": (173, 175, 3163),          # + put K (on one's own stockpile)
    "variants/house-rules/sum-play.yaml": (120, 122, 3109),           # + done, to end a set
    "variants/house-rules/tempo.yaml": (121, 123, 3111),              # + option keep, option relief
    "variants/house-rules/twin-piles.yaml": (227, 229, 3271),       # + play K [uno] on beside, put K
    "variants/house-rules/uno-accusations.yaml": (119, 121, 3109),   # classic's: false calls and accusations reuse its ids
    "variants/house-rules/uno-out.yaml": (121, 123, 3111),           # + option catch, option let_go (the ruling's)
    "variants/house-rules/uno-at-two.yaml": (173, 175, 3109),       # the penalty's `gives`: a give per kind
    "variants/house-rules/uno-penalty-4.yaml": (119, 121, 3109),
    "variants/house-rules/wild-roulette.yaml": (121, 123, 3111),         # + option pass, option spin
    "variants/no-mercy.yaml": (144, 149, 4851),
    "variants/teams-standard-deck.yaml": (None, 120, 3105),
    "variants/teams.yaml": (None, 283, 8581),
    "variants/tiny.yaml": (9, None, 53),                    # two players only
    "variants/trolls-band-together.yaml": (121, 123, 3221),
    "variants/uno-attack.yaml": (126, 131, 3689),
    "variants/uno-h2o.yaml": (123, 125, 3335),
}


def test_the_golden_action_space_sizes_cover_every_shipped_variant():
    assert sorted(ACTION_SPACE) == VARIANTS


@pytest.mark.parametrize("path, n", tables())
def test_action_space_size_is_frozen(path, n):
    table = rl.ActionTable(game(path), n)
    two, four, engine = ACTION_SPACE[path]
    assert table.size == {2: two, 4: four}[n]
    assert game(path).num_actions == engine
    assert len(set(table.labels)) == table.size


def test_classic_action_table_has_no_trades_targets_or_gives():
    table = rl.ActionTable(game("variants/classic.yaml"), 4)
    assert not any(label.startswith(("trade", "give", "target", "done")) for label in table.labels)
    assert table.labels[:2] == ("play red_0", "play red_1")        # a tuple: the table is shared, immutable
    assert [label for label in table.labels if not label.startswith("play")] == [
        "draw", "keep", "pass", "challenge", "accept", "uno", "color red", "color yellow", "color green",
        "color blue", "catch +1", "catch +2", "catch +3"]


def test_targets_and_catches_are_seat_offsets():
    g = game("variants/house-rules/seven-o.yaml")
    table = rl.ActionTable(g, 4)
    plus_one = table.index["target +1"]
    assert [g.action_to_string(table.to_engine(plus_one, seat)) for seat in range(4)] == [
        "target 1", "target 2", "target 3", "target 0"]
    catch = table.index["catch +3"]
    assert table.from_engine(g.action_from_string("catch 2"), 3) == catch


def test_teams_never_offers_to_catch_a_partner():
    table = rl.ActionTable(game("variants/teams.yaml"), 4)
    assert [label for label in table.labels if label.startswith("catch")] == ["catch +1", "catch +3"]


@pytest.mark.parametrize("path, n", tables())
def test_every_legal_engine_action_has_an_rl_id(path, n):
    """Random games (bots' and fuzzed) reach no engine action outside the frozen space."""
    g = game(path)
    table = rl.ActionTable(g, n)
    rng = random.Random(5)
    for seed in range(40):
        state = g.new_game(players=n, seed=seed)
        while not state.is_over:
            p = state.current_player
            ids = state.legal_action_ids()
            for e in ids:
                assert e in table.rl_of[p], g.action_to_string(e)
            state.apply_id(rng.choice(ids))


# --- PettingZoo


# api_test warns about any Dict observation space, which is what its own masked-action contract asks
# for (`observation` + `action_mask`); only these two warnings are ignored.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("path, n", tables())
def test_pettingzoo_api_and_seed_tests_pass(path, n, capsys):
    api_test(rl.env(REPO / path, num_players=n), num_cycles=200)
    seed_test(lambda: rl.env(REPO / path, num_players=n), num_cycles=200)
    assert "Passed API test" in capsys.readouterr().out


def test_registered_with_pettingzoo():
    import pettingzoo
    env = pettingzoo.make("aec", rl.ENV_ID, variant=REPO / "variants/classic.yaml", num_players=2)
    assert isinstance(env.unwrapped, rl.UnoEnv)


def play(env, seed, policy_seed=0):
    """An episode of random legal actions: its (agent, action, decision) trace and final rewards."""
    env.reset(seed=seed)
    rng = random.Random(policy_seed)
    trace, final = [], {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(legal) == sorted(env.legal_actions(agent))
        action = int(rng.choice(list(legal)))
        trace.append((agent, action, info["decision"]))
        env.step(action)
    return trace, final


def test_the_same_seed_gives_the_same_episode():
    env = rl.env(REPO / "variants/house-rules/seven-o.yaml", num_players=4)
    first, _ = play(env, seed=11)
    second, _ = play(env, seed=11)
    other, _ = play(env, seed=12)
    assert first == second
    assert first != other


def test_mask_is_all_zeros_off_turn_and_infos_name_the_decision():
    env = rl.env(REPO / "variants/classic.yaml", num_players=4)
    env.reset(seed=3)
    acting = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == acting)
        assert bool(env.infos[agent]["legal_actions"]) == (agent == acting)
    assert env.infos[acting]["decision"] == "turn"
    labels = [env.actions.label(i) for i in np.flatnonzero(env.observe(acting)["action_mask"])]
    assert labels == env.infos[acting]["legal_actions"]


def test_an_illegal_action_raises_and_changes_nothing():
    env = rl.env(REPO / "variants/classic.yaml", num_players=2)
    env.reset(seed=3)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    before = env.state.to_json()
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(rl.IllegalActionError, match="is not legal now"):
        env.step(illegal)
    with pytest.raises(rl.IllegalActionError, match="not in Discrete"):
        env.step(env.actions.size)
    assert env.state.to_json() == before and env.agent_selection == agent


def test_out_of_turn_decisions_are_steps_of_the_agent_who_decides():
    """Jump-in windows ask seats that are not the one whose turn it is, each as its own step."""
    env = rl.env(REPO / "variants/house-rules/jump-in.yaml", num_players=4)
    seen = set()
    for seed in range(12):
        trace, _ = play(env, seed=seed)
        seen.update(decision for _, _, decision in trace)
    assert {"turn", "jump", "color", "challenge", "catch"} <= seen


def test_win_rewards_are_zero_sum_and_teams_win_together():
    for path, n in (("variants/classic.yaml", 4), ("variants/teams.yaml", 4)):
        env = rl.env(REPO / path, num_players=n)
        _, rewards = play(env, seed=2)
        assert abs(sum(rewards.values())) < 1e-9
        assert max(rewards.values()) == 1.0
    winners = [a for a, r in rewards.items() if r == 1.0]
    assert len(winners) == 2            # teams of two


def test_turn_cap_truncates():
    env = rl.env(REPO / "variants/classic.yaml", num_players=4, max_turns=5)
    env.reset(seed=1)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        steps += 1
    assert env.state.observation(0)["turn"] == 6 and not env.state.is_over


# --- information-set invariance


def invariance_positions(path, n, full_state=False, games=3, every=9, steps=150):
    """Yield (env, agent, vector seen, vector seen after a resample) along random episodes' first steps."""
    env = rl.env(REPO / path, num_players=n, full_state=full_state)
    rng = random.Random(9)
    for seed in range(games):
        env.reset(seed=seed)
        step = 0
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if step % every == 0:
                real = env.state
                for observer in env.agents:
                    seat = env.seat_of[observer]
                    if real.observation(seat).get("revealed"):
                        continue        # a shown hand is known: resampling it would not be consistent
                    seen = env.observe(observer)
                    env.state = rl.resample_hidden(env.game, real, seat, rng)
                    again = env.observe(observer)
                    env.state = real
                    yield env, observer, seen, again
            step += 1
            if step == steps:
                break
            env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))


@pytest.mark.parametrize("path, n", tables())
def test_observation_is_the_same_for_every_deal_of_the_unseen_cards(path, n):
    checked = 0
    # Three games' worth of positions; a variant of short games (Tiny UNO) plays more games to reach them.
    for _, agent, seen, again in invariance_positions(path, n, games=30):
        assert np.array_equal(seen["observation"], again["observation"]), agent
        assert np.array_equal(seen["action_mask"], again["action_mask"]), agent
        checked += 1
        if checked == 50 * n:
            break
    assert checked > 10


def test_the_invariance_test_catches_a_leak():
    """full_state=True shows the other hands: the same resampling must then change what is seen."""
    changed = sum(not np.array_equal(seen["observation"], again["observation"])
                  for _, _, seen, again in invariance_positions("variants/classic.yaml", 2, full_state=True,
                                                                games=2))
    assert changed > 5


# The encoder against the plain reading of State.observation: tests/test_rl_encoder.py.


# --- Gymnasium


@pytest.mark.parametrize("path, opponents", [("variants/classic.yaml", ["heuristic"]),
                                             ("variants/teams.yaml", ["random", "heuristic", "random"]),
                                             ("variants/all-wild-grogu.yaml", ["random", "random", "random"])])
def test_gym_seat_passes_check_env(path, opponents):
    check_env(rl.GymSeat(REPO / path, seat=1, opponents=opponents, illegal="lose"), skip_render_check=True)


def test_gym_seat_plays_an_episode_with_action_masks():
    env = rl.GymSeat(REPO / "variants/classic.yaml", seat=0, opponents=["heuristic", "random", "heuristic"])
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    done, steps = False, 0
    while not done:
        mask = env.action_masks()
        assert mask.any() and (mask == info["action_mask"]).all()
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done, steps = term or trunc, steps + 1
    assert term and reward in (1.0, -1 / 3) and steps > 5
    with pytest.raises(rl.IllegalActionError):
        env.step(0)


def test_gym_seat_raises_on_an_illegal_action_unless_told_to_lose():
    env = rl.GymSeat(REPO / "variants/classic.yaml", opponents=["random"])
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(rl.IllegalActionError, match="is not legal now"):
        env.step(illegal)
    env = rl.GymSeat(REPO / "variants/classic.yaml", opponents=["random"], illegal="lose")
    env.reset(seed=1)
    _, reward, term, _, info = env.step(illegal)
    assert (reward, term, info["illegal_action"]) == (-1.0, True, env.actions.label(illegal))


# --- rl-spec and the docs

SPECS = REPO / "tests" / "rl_spec"


@pytest.mark.parametrize("path", sorted(REPO.glob("variants/*.yaml")), ids=lambda p: p.stem)
def test_rl_spec_golden(path):
    """The printed action table and observation layout; regenerate with `unodsl rl-spec FILE -p 4`
    (at its largest table for a variant of fewer players: Tiny UNO, `-p 2`)."""
    from click.testing import CliRunner
    from unodsl.cli import main
    players = min(4, game(path.relative_to(REPO).as_posix()).variant.max_players)
    result = CliRunner().invoke(main, ["rl-spec", str(path), "--players", str(players)])
    assert result.exit_code == 0, result.output
    assert result.output == (SPECS / f"{path.stem}.txt").read_text(encoding="utf-8")


def test_rl_spec_golden_two_players():
    from unodsl.rl.spec import render_spec
    assert render_spec(game("variants/classic.yaml"), 2) == (SPECS / "classic-2.txt").read_text(encoding="utf-8")


def test_rl_spec_refuses_a_table_size_without_a_traceback():
    from click.testing import CliRunner
    from unodsl.cli import main
    result = CliRunner().invoke(main, ["rl-spec", str(REPO / "variants/teams.yaml"), "--players", "2"])
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    assert "is played by 4, 6 or 8 players, not 2" in result.output
    result = CliRunner().invoke(main, ["rl-spec", str(REPO / "no-such.yaml")])
    assert result.exit_code == 1 and "E101 file not found" in result.output


def doc_examples():
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    return text.split("```python\n")[1:]


@pytest.mark.parametrize("index", range(len(doc_examples())))
def test_docs_rl_examples_run(index, monkeypatch, capsys):
    blocks = [b.split("```", 1)[0] for b in doc_examples()]
    if "import pyspiel" in blocks[index]:
        pytest.importorskip("pyspiel")
    monkeypatch.chdir(REPO)
    exec(compile(blocks[index], f"docs/rl.md example {index + 1}", "exec"), {})


# --- the per-variant tables are shared by the environments of one variant (rl/tables.py)


def _play(env, seed: int, steps: int) -> list:
    """Observations and infos of `steps` random steps of `env` from a reset with `seed`."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter(steps):
        obs, _, term, trunc, info = env.last()
        seen.append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(), info["legal_actions"]))
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
    return seen


def test_environments_of_one_game_share_its_tables_and_keep_their_own_views():
    g = unodsl.load("variants/classic.yaml")
    a, b, four = rl.env(g, num_players=2), rl.env(g, num_players=2), rl.env(g, num_players=4)
    assert a.actions is b.actions and a._action_strings is b._action_strings
    assert a.encoder is not b.encoder and a.encoder.fields is b.encoder.fields and a.encoder.low is b.encoder.low
    assert a.encoder._views is not b.encoder._views
    assert not {id(v) for v in a.encoder._views} & {id(v) for v in b.encoder._views}
    assert four.actions is not a.actions and four.encoder.fields is not a.encoder.fields
    assert rl.GymSeat(g, opponents=["random"]).actions is a.actions


def test_games_of_the_same_rules_share_the_tables_and_envs_from_a_file_share_the_game():
    g, again = unodsl.load("variants/classic.yaml"), unodsl.load("variants/classic.yaml")
    assert g is not again
    a, b = rl.env(g, num_players=2), rl.env(again, num_players=2)
    assert a.actions is b.actions and a._action_strings is b._action_strings and a.encoder.low is b.encoder.low
    assert a.encoder.game is g and b.encoder.game is again      # each encoder names its own Game
    # From a file (or a shipped name), every env of the same rules and mode plays the one compiled Game.
    c, d = rl.env("variants/classic.yaml", num_players=2), rl.env("classic", num_players=2)
    assert c.game is d.game and c.actions is a.actions and rl.GymSeat("classic", opponents=["random"]).game is c.game
    assert rl.parallel_env("classic", num_players=2).game is c.game
    # The reference mode compiles its own Game; the tables are the same.
    reference = unodsl.load("variants/classic.yaml", fast=False)
    assert rl.env(reference, num_players=2).actions is a.actions


def test_environments_of_other_rules_do_not_share():
    classic = rl.env("classic", num_players=2)
    others = [rl.env("flip", num_players=2), rl.env("variants/house-rules/stacking-mattel.yaml", num_players=2),
              rl.env(unodsl.load("classic", include=["seven-o"]), num_players=2),
              rl.env(unodsl.load("classic", rulings={"two_player_reverse_is_skip": False}), num_players=2)]
    for env in others:
        assert env.game is not classic.game and env.game.digest != classic.game.digest
        assert env.actions is not classic.actions and env._action_strings is not classic._action_strings
        assert env.encoder.fields is not classic.encoder.fields and env.encoder.low is not classic.encoder.low
    assert len({id(env.actions) for env in others}) == len(others)


def test_the_shared_tables_are_read_only():
    a, b = rl.env("classic", num_players=2), rl.env("classic", num_players=2)
    before = (list(b.actions.labels), b.encoder.low.copy(), b.encoder.high.copy(), list(b._action_strings))
    with pytest.raises(ValueError):
        a.encoder.low[0] = 5.0
    with pytest.raises(ValueError):
        a.encoder.high[:] = 0.0
    with pytest.raises(TypeError):
        a.actions.labels[0] = "play anything"
    with pytest.raises(TypeError):
        a.actions.engine_of[0][0] = 7
    with pytest.raises(TypeError):
        a.actions.rl_of[0][0] = 7
    with pytest.raises(TypeError):
        a.actions.index["draw"] = 0
    with pytest.raises(TypeError):
        a._action_strings[0] = "play anything"
    with pytest.raises((TypeError, AttributeError)):
        a.encoder.fields.append(a.encoder.fields[0])
    with pytest.raises(TypeError):
        a.encoder.offset["hand"] = 3
    with pytest.raises(TypeError):
        a.encoder._hand_at[0] = 3
    assert (list(b.actions.labels), list(b._action_strings)) == (before[0], before[3])
    assert (b.encoder.low == before[1]).all() and (b.encoder.high == before[2]).all()
    # An observation is the env's own array: changing it changes no table and no other env's next observation.
    a.reset(seed=1)
    b.reset(seed=1)
    obs = a.observe(a.agent_selection)
    obs["observation"][:] = 99.0
    obs["action_mask"][:] = 1
    assert (b.observe(b.agent_selection)["observation"] != 99.0).any()
    assert (a.observe(a.agent_selection)["observation"] == b.observe(b.agent_selection)["observation"]).all()


def test_the_tables_of_a_variant_go_with_its_last_game():
    import gc
    import weakref

    from unodsl.rl import tables
    g = unodsl.load("variants/tiny.yaml")
    rl.env(g, num_players=2)
    held = weakref.ref(tables.tables_of(g))
    assert tables.tables_of(unodsl.load("variants/tiny.yaml")) is held()
    del g
    gc.collect()
    assert held() is None


def test_environments_of_one_game_played_in_turn_see_what_each_sees_alone():
    g = unodsl.load("variants/classic.yaml")
    alone = [_play(rl.env(g, num_players=2), seed, 120) for seed in (1, 2)]
    # Fresh Game, two envs stepped alternately: the shared layout holds no state of either.
    g2 = unodsl.load("variants/classic.yaml")
    envs = [rl.env(g2, num_players=2) for _ in range(2)]
    rngs = [random.Random(seed) for seed in (1, 2)]
    for env, seed in zip(envs, (1, 2)):
        env.reset(seed=seed)
    together: list[list] = [[], []]
    iters = [iter(env.agent_iter(120)) for env in envs]
    live = [True, True]
    while any(live):
        for i, env in enumerate(envs):
            if not live[i]:
                continue
            agent = next(iters[i], None)
            if agent is None:
                live[i] = False
                continue
            obs, _, term, trunc, info = env.last()
            together[i].append((agent, obs["observation"].tolist(), obs["action_mask"].tolist(),
                                info["legal_actions"]))
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[int(rngs[i].random() * len(legal))]))
    assert together == alone
