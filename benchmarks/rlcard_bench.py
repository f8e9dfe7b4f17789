"""Time RLCard's UnoGame with random legal actions, inside its own virtual environment."""

# Usage: `python benchmarks/rlcard_bench.py [--games N] [--repeats R]` prints one
# JSON object on stdout.  The first run creates `benchmarks/.rlcard-venv` and
# pip-installs the pinned RLCard there (it pulls numpy; rlcard 1.2.0 runs fine
# with numpy 2.x on Python 3.11).  The timing itself runs in a child process of
# the venv's interpreter (`--worker`), so numpy never enters the caller.
#
# What is timed is exactly this loop, per game:
#
#     game.init_game()
#     while not game.is_over():
#         state, pid = game.step(rng.choice(game.get_legal_actions()))
#
# and, as "bare round mechanics", the same game without the `UnoGame` wrapper: the
# dealer, the players and the `UnoRound` made and driven directly, no state dict
# built per step (`get_state`), which is what an engine's rules cost alone:
#
#     dealer, players = Dealer(np_random), [Player(i, np_random) ...]; deal 7 each
#     round = Round(dealer, n, np_random); round.perform_top_card(players, round.flip_top_card())
#     while not round.is_over:
#         round.proceed_round(players, rng.choice(round.get_legal_actions(players, round.current_player)))
#
# A "turn" is one `step` (or `proceed_round`) call.  RLCard's rules differ from the reference
# engine's: it only offers "draw" when nothing is playable, auto-plays a drawn
# card that is a wild or matches the target colour, offers Wild Draw Four only
# when nothing else is legal, and has no challenge, so its games are far shorter.

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".rlcard-venv"
RLCARD_VERSION = "1.2.0"
REQUIREMENTS = [f"rlcard=={RLCARD_VERSION}"]
TURN_CAP = 10_000
WARMUP_GAMES = 50


def venv_python() -> Path:
    """Return the path of the venv's Python interpreter."""
    if sys.platform == "win32":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _venv_ready(python: Path) -> bool:
    """Return True when the venv interpreter imports the pinned RLCard."""
    if not python.exists():
        return False
    probe = "import rlcard, numpy; print(rlcard.__version__)"
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    return result.returncode == 0 and result.stdout.strip() == RLCARD_VERSION


_ready: Path | None = None  # interpreter already checked by this process


def ensure_venv() -> Path | None:
    """Build the venv with RLCard if needed; return its python, or None with a reason on stderr."""
    global _ready
    python = venv_python()
    if _ready == python or _venv_ready(python):
        _ready = python
        return python
    steps = []
    if not python.exists():
        steps.append([sys.executable, "-m", "venv", str(VENV)])
    steps.append([str(python), "-m", "pip", "install", "--quiet",
                  "--disable-pip-version-check", *REQUIREMENTS])
    for command in steps:
        print(f"rlcard_bench: running {' '.join(command)}", file=sys.stderr)
        try:
            result = subprocess.run(command, capture_output=True, text=True)
        except OSError as error:
            print(f"rlcard_bench: cannot build {VENV}: {error}", file=sys.stderr)
            return None
        if result.returncode != 0:
            print(f"rlcard_bench: cannot build {VENV}:\n{result.stdout}{result.stderr}",
                  file=sys.stderr)
            return None
    if not _venv_ready(python):
        print(f"rlcard_bench: rlcard {RLCARD_VERSION} still not importable in {VENV}",
              file=sys.stderr)
        return None
    _ready = python
    return python


def _time_games(game, rng: random.Random, games: int, seed: int) -> dict:
    """Play `games` random games on a reseeded UnoGame and return one timing record."""
    game.np_random.seed(seed)
    rng.seed(seed)
    choice = rng.choice
    turns = stalled = errors = 0
    start = time.perf_counter()
    for _ in range(games):
        game.init_game()
        game_turns = 0
        try:
            while not game.is_over():
                state, pid = game.step(choice(game.get_legal_actions()))
                game_turns += 1
                if game_turns >= TURN_CAP:
                    stalled += 1
                    break
        except IndexError:  # RLCard pops from an empty deck when every card is in hands
            errors += 1
        turns += game_turns
    elapsed = time.perf_counter() - start
    return {
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "turns_per_s": turns / elapsed,
        "turns": turns,
        "turns_per_game": turns / games,
        "stalled": stalled,
        "errors": errors,
    }


def _time_bare_rounds(players: int, rng: random.Random, games: int, seed: int) -> dict:
    """As _time_games, the same loop on RLCard's round mechanics alone: no UnoGame, no state dict per step."""
    import numpy
    from rlcard.games.uno import Dealer, Player, Round

    np_random = numpy.random.RandomState(seed)
    rng.seed(seed)
    choice = rng.choice
    turns = stalled = errors = 0
    start = time.perf_counter()
    for _ in range(games):
        dealer = Dealer(np_random)
        seats = [Player(i, np_random) for i in range(players)]
        for player in seats:
            dealer.deal_cards(player, 7)
        round_ = Round(dealer, players, np_random)
        round_.perform_top_card(seats, round_.flip_top_card())
        legal, proceed = round_.get_legal_actions, round_.proceed_round
        game_turns = 0
        try:
            while not round_.is_over:
                proceed(seats, choice(legal(seats, round_.current_player)))
                game_turns += 1
                if game_turns >= TURN_CAP:
                    stalled += 1
                    break
        except IndexError:  # as in _time_games
            errors += 1
        turns += game_turns
    elapsed = time.perf_counter() - start
    return {"seconds": elapsed, "games_per_s": games / elapsed, "turns_per_s": turns / elapsed, "turns": turns,
            "turns_per_game": turns / games, "stalled": stalled, "errors": errors}


def worker(games: int, repeats: int, players: int, seed: int, bare: bool = False) -> dict:
    """Run inside the venv: time `repeats` batches of `games` RLCard games (after a warm-up); `bare`: the
    round mechanics alone (_time_bare_rounds)."""
    import numpy
    import rlcard
    from rlcard.games.uno.game import UnoGame

    rng = random.Random(seed)
    if bare:
        _time_bare_rounds(players, rng, WARMUP_GAMES, seed + 1)
        runs = [_time_bare_rounds(players, rng, games, seed) for _ in range(repeats)]
    else:
        game = UnoGame(num_players=players)
        _time_games(game, rng, WARMUP_GAMES, seed + 1)
        runs = [_time_games(game, rng, games, seed) for _ in range(repeats)]
    return {
        "engine": f"rlcard {rlcard.__version__} {'round mechanics' if bare else 'UnoGame'}",
        "rlcard_version": rlcard.__version__,
        "numpy_version": numpy.__version__,
        "python": sys.version.split()[0],
        "games": games,
        "players": players,
        "seed": seed,
        "repeats": repeats,
        "games_per_s": _median(r["games_per_s"] for r in runs),
        "turns_per_s": _median(r["turns_per_s"] for r in runs),
        "turns_per_game": _median(r["turns_per_game"] for r in runs),
        "runs": runs,
    }


def _median(values) -> float:
    """Return the median of an iterable of numbers."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def measure_rlcard(games: int, repeats: int, players: int = 4, seed: int = 0, bare: bool = False) -> dict | None:
    """Time RLCard in its venv and return the worker's JSON record, or None (reason on stderr); `bare`: its
    round mechanics alone."""
    python = ensure_venv()
    if python is None:
        return None
    command = [str(python), str(Path(__file__).resolve()), "--worker",
               "--games", str(games), "--repeats", str(repeats),
               "--players", str(players), "--seed", str(seed)] + (["--bare"] if bare else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"rlcard_bench: worker failed:\n{result.stderr}", file=sys.stderr)
        return None
    return json.loads(result.stdout)


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and print the RLCard timing as JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bare", action="store_true", help="time the round mechanics alone, without UnoGame")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        record = worker(args.games, args.repeats, args.players, args.seed, args.bare)
    else:
        record = measure_rlcard(args.games, args.repeats, args.players, args.seed, args.bare)
        if record is None:
            return 1
    print(json.dumps(record, indent=None if args.worker else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
