"""Who plays a seat, by spec: the one seat protocol of every front end (play, serve, simulate, compare, the ladder).

A *seat* is what a front end calls: `seat.act(state) -> action id`, deciding from what the seat may
see. The built-in bots are seats already. An *agent* is what a user writes: anything with
`act(view) -> action` (an action string such as 'play red_7', or an id), and optionally
`reset(seat, game)` (called before its first decision of a game) and `observe_result(result)` (called
once when the game ends, with the seat's result). `make_seat` wraps an agent in a `Seated`, which
builds its `AgentView`, bounds each decision in time, gives an illegal or unparsable answer back with
the engine's reason a few times, and then takes the documented fallback, counting every incident.

Specs (`make_seat(spec, rng)`; docs/agents.md):

- a built-in bot, with its options: `heuristic`, `ismcts:200`, `pimc:30:rollout=greedy`;
- a named seat (`register_seat`): a model or policy shipped under a name;
- `py:package.module:Class` (or `py:path/to/file.py:Class`), options after it as `:key=value`,
  passed to the class as keyword arguments (strings);
- `ws://host:port/path` (or `wss://`): a remote program speaking the JSON protocol of docs/agents.md;
- `llm` or `llm:MODEL`: a language model behind an OpenAI-compatible chat endpoint (the URL and the
  key from the environment).

Seeding is the same everywhere: the seat of game seeded S at position q draws from `seat_rng(S, q)`,
whether the front end is `play`, `serve`, `simulate`, `compare` or the ladder. Remote and language
model seats are named here and imported from the layers above on first use (`SEAT_KINDS`), as `py:`
imports a user's class: nothing here imports them.
"""

from __future__ import annotations

import concurrent.futures
import functools
import importlib
import importlib.util
import os
import random
import sys
from collections import Counter
from dataclasses import dataclass, field

from ..engine import IllegalAction
from ..engine.observation import event_mark
from .bots import BOTS, make_bot
from .view import SeatView

FALLBACKS = ("random", "forfeit")
DEFAULT_RETRIES = 2                   # answers given back with the engine's reason before the fallback
NETWORK_TIMEOUT = 60.0                # seconds a remote or language-model seat may take by default

# Seat kinds that live in the layers above agents/, imported by name when a seat of the kind is made.
SEAT_KINDS: dict[str, str] = {
    "ws": "unodsl.text.remote:RemoteAgent",
    "llm": "unodsl.text.llm:ChatAgent",
}

# Named seats: a short name for an agent class ('module:Class'), with default options.
NAMED_SEATS: dict[str, tuple[str, dict]] = {
    "classic-reader": ("unodsl.arena.scripted:ClassicReader", {}),     # the benchmark's scripted agents
    "guesser": ("unodsl.arena.scripted:Guesser", {}),
    "baseline": ("unodsl.rl.policy:PolicyAgent", {}),      # the shipped trained policy: classic, 2 players (rl.md)
}


def register_seat(name: str, target: str, **options: str) -> None:
    """Make `name` a seat spec for the agent class `target` ('package.module:Class'), with default options.

    A package that ships a policy registers it on import, or a user does before seating it; the
    name may then carry options like a bot's (`name:key=value`).
    """
    if name in BOTS or name in ("py", "llm", "ws", "wss") or not name.replace("-", "").replace("_", "").isalnum():
        raise ValueError(f"'{name}' cannot name a seat (a bot's name, a seat kind, or not a plain word)")
    NAMED_SEATS[name] = (target, dict(options))
    parse_seat.cache_clear()


# --- seeding --------------------------------------------------------------------------------------


def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` in a run seeded with `seed` (and of a seat's generator: seat_rng)."""
    return (seed * 0x9E3779B97F4A7C15 + index * 0xBF58476D1CE4E5B9) % (2**63)


class SeatRandom:
    """A `random.Random(seed)` made the first time it is used: the draws are that generator's.

    Seeding a Mersenne Twister costs about as much as a tenth of a heuristic game of Classic,
    and the heuristic bot never draws: four generators a game made up front slowed plain
    simulation by 7%. Each method is looked up on the real generator once, then found on this
    object as an attribute.
    """

    def __init__(self, seed: int):
        self._seed = seed

    def __getattr__(self, name: str):              # a name not looked up yet: the real generator's
        rng = self.__dict__.get("_rng")
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        value = getattr(rng, name)
        if callable(value):
            setattr(self, name, value)              # a bound method of the generator: the same each time
        return value


def seat_rng(engine_seed: int, seat: int) -> SeatRandom:
    """The generator of the seat `seat` in the game whose engine is seeded `engine_seed`: every front end's."""
    return SeatRandom(game_seed(engine_seed, seat))


# --- specs ------------------------------------------------------------------------------------------


SETTINGS = {"timeout": float, "fallback": str, "retries": int}     # options every agent seat takes
WS_OPTIONS = ("legal",)               # a ws:// URL's query keys that are the remote seat's own options


@dataclass(frozen=True)
class SeatSpec:
    """A seat spec read: its kind ('bot', 'named', 'py', 'ws', 'llm'), what it names, the options for the
    agent, and the seat's settings (timeout, fallback, retries)."""

    text: str
    kind: str
    target: str = ""
    options: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)


@functools.lru_cache(maxsize=256)
def parse_seat(spec: str) -> SeatSpec:
    """Read a seat spec; ValueError says what is wrong and what exists. Nothing is imported or connected.

    Cached: front ends read the same few specs for every game (the result is shared: do not change it).
    """
    text = spec.strip()
    if not text:
        raise ValueError("an empty seat spec (name a bot, py:module:Class, ws://..., or llm)")
    if text.startswith(("ws://", "wss://")):
        url, _, query = text.partition("?")
        if not url.split("//", 1)[1]:
            raise ValueError(f"'{text}': a ws:// seat needs a host (ws://127.0.0.1:8765)")
        kept, options, settings = [], {}, {}
        for item in filter(None, query.split("&")):
            key, _, value = item.partition("=")
            if key in SETTINGS:
                settings[key] = _setting(text, key, value)
            elif key in WS_OPTIONS:
                options[key] = value
            else:
                kept.append(item)
        return SeatSpec(text, "ws", url + ("?" + "&".join(kept) if kept else ""), options, settings)
    base, _, rest = text.partition(":")
    parts = rest.split(":") if rest else []
    if base == "llm":
        model = ":".join(p for p in parts if "=" not in p)          # a model name may hold colons (llama3:8b)
        options, settings = _options(text, [p for p in parts if "=" in p])
        return SeatSpec(text, "llm", model, options, settings)
    if base == "py":
        if len(parts) < 2 or not parts[0] or not parts[1] or "=" in parts[1]:
            raise ValueError(f"'{text}': a Python seat is py:package.module:Class (or py:file.py:Class)")
        options, settings = _options(text, parts[2:])
        return SeatSpec(text, "py", f"{parts[0]}:{parts[1]}", options, settings)
    if base in NAMED_SEATS:
        target, defaults = NAMED_SEATS[base]
        options, settings = _options(text, parts)
        return SeatSpec(text, "named", target, {**defaults, **options}, settings)
    if base in BOTS:
        if parts:
            make_bot(text, random.Random(0))        # checks the options (cached: once per spec)
        return SeatSpec(text, "bot", text)
    known = ", ".join([*BOTS, *NAMED_SEATS])
    raise ValueError(f"unknown bot '{base}' (choose from {known}; or seat an agent: py:module:Class, "
                     f"ws://host:port, llm:MODEL)")


def _options(text: str, items: list[str]) -> tuple[dict, dict]:
    """key=value items as (the agent's options, the seat's settings)."""
    options, settings = {}, {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"'{text}': option '{item}' is not key=value")
        if key in SETTINGS:
            settings[key] = _setting(text, key, value)
        else:
            options[key] = value
    return options, settings


def _setting(text: str, key: str, value: str):
    try:
        out = SETTINGS[key](value)
    except ValueError:
        raise ValueError(f"'{text}': {key}={value!r} is not a {SETTINGS[key].__name__}") from None
    if key == "fallback" and out not in FALLBACKS:
        raise ValueError(f"'{text}': fallback={value!r} (choose from {', '.join(FALLBACKS)})")
    if key in ("timeout", "retries") and out < 0:
        raise ValueError(f"'{text}': {key} must not be negative")
    return out


def check_seat(spec: str) -> str:
    """The spec as given, once it reads and what it names exists (a py: class is imported; nothing connects)."""
    parsed = parse_seat(spec)
    if parsed.kind in ("py", "named"):
        load_class(parsed.target)
    return parsed.text


def load_class(target: str):
    """The class 'package.module:Class' (or 'path/to/file.py:Class') names; ValueError says why not."""
    module_name, _, name = target.rpartition(":")
    try:
        if module_name.endswith(".py"):
            path = os.path.abspath(module_name)
            if not os.path.isfile(path):
                raise ValueError(f"no file '{module_name}'")
            key = f"unodsl_seat_{abs(hash(path))}"
            module = sys.modules.get(key)
            if module is None:
                spec = importlib.util.spec_from_file_location(key, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[key] = module
                spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except ValueError:
        raise
    except ImportError as err:
        raise ValueError(f"cannot import '{module_name}': {err}") from None
    except Exception as err:                        # the user's module failed while importing
        raise ValueError(f"importing '{module_name}' failed: {type(err).__name__}: {err}") from None
    found = getattr(module, name, None)
    if found is None:
        raise ValueError(f"'{module_name}' has no '{name}'")
    return found


def make_seat(spec: str, rng, **overrides):
    """The seat a spec names, with `rng` its generator (seat_rng): a built-in bot, or an agent in a `Seated`.

    An agent seat's settings come from its spec (`:timeout=5:fallback=forfeit:retries=1`, or
    `?timeout=5` on a ws:// URL), else from `overrides`, else the defaults: `timeout`, seconds one
    decision may take (None: unbounded for a Python class, NETWORK_TIMEOUT for a remote or language
    model seat); `retries`, refused answers given back with the engine's reason (DEFAULT_RETRIES);
    `fallback`, what a decision that fails (timed out, raised, or still illegal) becomes: 'random', a
    random legal action from the seat's generator, logged as such; or 'forfeit', `Forfeit` raised for
    the front end (the ladder scores it a loss; play and serve give the seat to a bot).
    """
    parsed = parse_seat(spec)
    if parsed.kind == "bot":
        return make_bot(parsed.text, rng)
    settings = {"timeout": None, "fallback": "random", "retries": DEFAULT_RETRIES, **overrides, **parsed.settings}
    if settings["fallback"] not in FALLBACKS:
        raise ValueError(f"unknown fallback '{settings['fallback']}' (choose from {', '.join(FALLBACKS)})")
    if parsed.kind in ("ws", "llm"):
        cls = load_class(SEAT_KINDS[parsed.kind])
        agent = cls(parsed.target, **parsed.options)
        if settings["timeout"] is None:
            settings["timeout"] = NETWORK_TIMEOUT
    else:
        cls = load_class(parsed.target)
        try:
            agent = cls(**parsed.options)
        except TypeError as err:
            raise ValueError(f"'{parsed.text}': {err}") from None
    if not callable(getattr(agent, "act", None)):
        raise ValueError(f"'{parsed.text}' has no act(view) method")
    return Seated(agent, rng, parsed.text, **settings)


def seat_all(state, specs: list[str], **settings) -> list:
    """The seats of a new game, `specs` seated in turn, each with its own generator (`seat_rng`).

    When every seat is `random`, they all draw from the engine's own generator instead: that is
    the game `State.play_out` plays, the fast path of plain simulation.
    """
    if all(s == "random" for s in specs):
        return [make_bot("random", state.rng) for _ in range(state.n)]
    return [make_seat(specs[q % len(specs)], seat_rng(state.seed, q), **settings) for q in range(state.n)]


def wants_events(specs: list[str]) -> bool:
    """Whether a game seating `specs` must record its events (an agent is told what happened since it last decided)."""
    return any(parse_seat(s).kind != "bot" for s in specs)


def game_over(seats: list, state) -> None:
    """Tell every seat that listens that the game is over (Seated.observe_result)."""
    for q, seat in enumerate(seats):
        if isinstance(seat, Seated):
            seat.game_over(state, q)


# --- agents in seats ----------------------------------------------------------------------------------


class Forfeit(Exception):
    """A seat whose fallback is 'forfeit' failed a decision; `reason` says how."""

    def __init__(self, seat: int, spec: str, reason: str):
        super().__init__(f"seat {seat} ({spec}) forfeits: {reason}")
        self.seat, self.spec, self.reason = seat, spec, reason

    def __reduce__(self):                   # back from a worker process whole
        return (Forfeit, (self.seat, self.spec, self.reason))


class AgentView(SeatView):
    """What an agent is given to decide from: the seat's view (SeatView), the legal actions as strings,
    what happened since its last decision (`events`, as the seat may see them), the seat's generator,
    and, after a refused answer, the engine's reason (`feedback`) and the attempt number."""

    __slots__ = ("since", "rng", "feedback", "attempt")

    def __init__(self, state, seat: int | None = None, since: int = 0, rng=None):
        deciding = seat is None or (seat == state.current_player)
        super().__init__(state, None if deciding else [])
        if seat is not None:
            self.seat = seat
            if not deciding:
                self.decision = ""
        self.since = since
        self.rng = rng
        self.feedback: str | None = None
        self.attempt = 0

    @property
    def legal_actions(self) -> list[str]:
        """The legal actions as strings ('play red_7', 'draw'), in id order."""
        to_str = self.game.action_to_string
        return [to_str(a) for a in self.legal]

    @property
    def events(self) -> list:
        """What happened since the seat last decided (State.events_for): empty in a game that does not record."""
        return self._state.events_for(self.seat, self.since)

    def events_since(self, since: int) -> list:
        """What the seat may see of the events from State.events[since] (0: the whole game)."""
        return self._state.events_for(self.seat, since)

    def observe(self, encoder):
        """The seat's observation as a `unodsl.rl` encoder makes it (`encoder.encode(state, seat)`): what a trained
        policy reads. The encoders read only what the seat may see (tests/test_rl.py)."""
        return encoder.encode(self._state, self.seat)

    def action_id(self, text: str) -> int:
        """The id of an action string; IllegalAction if it names no action of the variant."""
        return self.game.action_from_string(text)


def resolve(state, answer, legal: list[int]) -> tuple[int | None, str]:
    """The action id an agent's answer means if it is legal now, else (None, the engine's reason)."""
    if isinstance(answer, bool) or not isinstance(answer, (int, str)):
        return None, f"an action is a string such as 'draw' or an id, not {type(answer).__name__}"
    try:
        action = state.g.action_from_string(answer) if isinstance(answer, str) else int(answer)
    except IllegalAction as err:
        return None, f"'{str(answer)[:60]}': {err.reason}"
    if action in legal:
        return action, ""
    try:
        state.clone().apply(action)                     # raises with the engine's reason, on a copy
    except IllegalAction as err:
        return None, err.reason
    except (IndexError, ValueError, KeyError):
        pass
    return None, f"{answer!r} is not a legal action now"


class Seated:
    """An agent in a seat: its view built, each decision bounded in time, refused answers given back with
    the engine's reason up to `retries` times, then the fallback. `incidents` counts every failure by kind
    (timeout, error, illegal, fallback); `log` says each in words."""

    def __init__(self, agent, rng, spec: str, *, timeout: float | None = None, fallback: str = "random",
                 retries: int = DEFAULT_RETRIES):
        self.agent = agent
        self.rng = rng
        self.spec = spec
        self.timeout = timeout
        self.fallback = fallback
        self.retries = retries
        self.incidents: Counter = Counter()
        self.decisions = 0
        self.first_try_illegal = 0
        self.log: list[str] = []
        self.refusals: list[tuple[int, str, str]] = []     # (attempt, decision kind, the engine's reason)
        self._since = 0
        self._started = False
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None

    def act(self, state) -> int:
        """The action id of the agent's answer, or of the fallback."""
        seat = state.current_player
        if not self._started:
            self._started = True
            self._since = 0
            reset = getattr(self.agent, "reset", None)
            if callable(reset):
                self._call(reset, seat, state.g)
        self.decisions += 1
        view = AgentView(state, since=self._since, rng=self.rng)
        legal = view.legal
        failure = ""
        for attempt in range(self.retries + 1):
            view.attempt = attempt
            try:
                answer = self._call(self.agent.act, view)
            except TimeoutError:
                self.incidents["timeout"] += 1
                failure = f"no answer within {self.timeout:g} s"
                break
            except Exception as err:            # the agent's own failure: it must not end the game
                self.incidents["error"] += 1
                failure = f"act raised {type(err).__name__}: {str(err)[:200]}"
                break
            action, reason = resolve(state, answer, legal)
            if action is not None:
                self._since = event_mark(state)
                return action
            self.incidents["illegal"] += 1
            self.refusals.append((attempt, state.decision, reason))
            if attempt == 0:
                self.first_try_illegal += 1
            view.feedback = reason
            failure = f"answered {str(answer)[:60]!r}: {reason}"
        self.incidents["fallback"] += 1
        where = f"turn {state.turns}, {state.decision}"
        if self.fallback == "forfeit":
            self.log.append(f"p{seat} ({self.spec}) forfeits at {where}: {failure}")
            raise Forfeit(seat, self.spec, failure)
        action = legal[self.rng.randrange(len(legal))]
        self.log.append(f"p{seat} ({self.spec}) at {where}: {failure}; "
                        f"played a random legal action instead: {state.g.action_to_string(action)}")
        self._since = event_mark(state)
        return action

    def _call(self, fn, *args):
        if self.timeout is None:
            return fn(*args)
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="unodsl-seat")
        future = self._pool.submit(fn, *args)
        try:
            return future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            # The late answer is dropped; the stuck call keeps its thread, so the next decision gets a new one.
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            raise TimeoutError() from None

    def game_over(self, state, seat: int) -> None:
        """Call the agent's observe_result once, with the seat's result; close its worker thread."""
        observe = getattr(self.agent, "observe_result", None)
        if callable(observe):
            result = {"seat": seat, "winner": state.winner, "won": state.winner is not None
                      and state.same_team(state.winner, seat), "scores": list(state.scores),
                      "incidents": dict(self.incidents)}
            try:
                self._call(observe, result)
            except Exception:                   # noqa: BLE001 - the game is over; a failing hook changes nothing
                self.incidents["error"] += 1
        close = getattr(self.agent, "close", None)
        if callable(close):
            try:
                close()
            except Exception:                   # noqa: BLE001
                pass
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

