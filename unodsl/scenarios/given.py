"""Reading a scenario's names and building its position from `given:`.

Card ids, colors, action strings and seats are read against the variant, each problem a
ScenarioError with the key path it came from (E602-E608), so the runner can point at
the line. The position is set up through the engine's public `Game.position(...)`.
"""

from __future__ import annotations

import random
from collections import Counter

from ..diagnostics import suggestion_suffix
from ..engine import Game, IllegalAction, State, VariableError

REST_PLACES = ("draw_pile", "discard")


class ScenarioError(Exception):
    """A scenario that cannot be set up or read; `where` is the key path inside the scenario."""

    def __init__(self, code: str, message: str, where: tuple = ()):
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = tuple(where)


# ---------------------------------------------------------------------------
# Reading ids


def card_kind(game: Game, name, where: tuple) -> int:
    """The kind (int) of a card id, or a ScenarioError naming the closest id."""
    if isinstance(name, str) and name in game.card_index:
        return game.card_index[name]
    raise ScenarioError("E602", f"unknown card id '{name}'" + suggestion_suffix(str(name), game.card_names), where)


def color_index(game: Game, name, where: tuple) -> int:
    """The index of a color name in the variant (`none` means no color named yet: -1)."""
    colors = game.variant.colors
    if name in colors:
        return colors.index(name)
    if name == "none":
        return -1
    listed = ", ".join(colors) if colors else "none (the variant has no colors)"
    raise ScenarioError("E605", f"unknown color '{name}' (the colors are {listed})"
                        + suggestion_suffix(str(name), colors), where)


def action_id(game: Game, text, where: tuple) -> int:
    """The engine id of an action string, or E606 if the variant has no such action."""
    try:
        return game.action_from_string(str(text))
    except IllegalAction as err:
        reason = "" if err.reason == "not an action of this variant" else f" ({err.reason})"
        raise ScenarioError("E606", f"'{text}' is not an action of this variant{reason}; actions look "
                            "like 'play red_7', 'play red_7 uno', 'draw', 'keep', 'color blue', 'target 2', "
                            "'challenge', 'accept', 'catch 1', 'give red_3', 'pass'", where) from None


def variable_section(game: Game, key: str, name: str, where: tuple) -> None:
    """E610 unless `name` is a variable of the variant's section `key` (state or player_state)."""
    v = game.variant
    section, other = (v.state, v.player_state) if key == "state" else (v.player_state, v.state)
    if name in section:
        return
    if name in other:
        raise ScenarioError("E610", f"variable '{name}' is {'per player' if key == 'state' else 'global'}: "
                            f"give it under {'player_state' if key == 'state' else 'state'}", where)
    raise ScenarioError("E610", f"unknown {key} variable '{name}'" + suggestion_suffix(name, section), where)


def seat_index(n: int, value, where: tuple, what: str = "seat") -> int:
    """`value` as a seat of an n-player game, or E604."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ScenarioError("E604", f"{what} {value!r} does not exist with {n} players (seats 0 to {n - 1})", where)
    return value


def scenario_players(game: Game, scenario: dict) -> int:
    """The player count: `players`, else the number of given hands, else 4 (or the nearest allowed)."""
    v = game.variant
    allowed = list(v.allowed_players or range(v.min_players, v.max_players + 1))
    given = scenario.get("given") or {}
    if "players" in scenario:
        n = scenario["players"]
        where = ("players",)
    elif given.get("hands"):
        n = len(given["hands"])
        where = ("given", "hands")
    else:
        return min(allowed, key=lambda k: (abs(k - 4), k))
    if n not in allowed:
        contiguous = allowed == list(range(allowed[0], allowed[-1] + 1))
        shown = f"{allowed[0]} to {allowed[-1]}" if contiguous else ", ".join(map(str, allowed))
        raise ScenarioError("E604", f"{v.name} is played by {shown} players, not {n}", where)
    return n


# ---------------------------------------------------------------------------
# Building the position


def build_state(game: Game, scenario: dict) -> State:
    """Start a game and overwrite its zones with the scenario's `given`; raises ScenarioError.

    Cards the scenario does not place are dealt (hands not given), turned up (no `top`)
    or put under the draw pile (or under the discard pile with `rest: discard`), so the
    state holds exactly the variant's deck.
    """
    given = scenario.get("given") or {}
    n = scenario_players(game, scenario)
    if "teams" in scenario and bool(scenario["teams"]) != (game.variant.team_size > 1):
        raise ScenarioError("E608", "teams: true needs a variant with teams" if scenario["teams"]
                            else "this variant is always played in teams", ("teams",))

    side = 0
    if "side" in given:
        try:
            side = game.side_index(given["side"])
        except ValueError as err:
            raise ScenarioError("E608", str(err) + suggestion_suffix(str(given["side"]), game.variant.sides),
                                ("given", "side")) from None
    faces = game.deck_up(side, n)
    pool = Counter(faces)
    copies = Counter(faces)

    def take(name, where: tuple) -> int:
        k = card_kind(game, name, where)
        if pool[k] <= 0:
            used = copies[k] - pool[k] + 1
            raise ScenarioError("E603", f"the scenario uses {used} copies of {name}, the deck has {copies[k]}", where)
        pool[k] -= 1
        return k

    hands_given = given.get("hands")
    if hands_given is not None and len(hands_given) > n:
        raise ScenarioError("E604", f"{len(hands_given)} hands given for {n} players", ("given", "hands"))
    hands: list[list[int] | None] = [None] * n
    for seat, cards in enumerate(hands_given or []):
        hands[seat] = [take(c, ("given", "hands", seat, i)) for i, c in enumerate(cards)]

    if "top" in given and "start_card" in given:
        raise ScenarioError("E608", "give either top or start_card, not both", ("given", "start_card"))
    if "start_card" in given and "turn" in given:
        raise ScenarioError("E608", "with start_card the start card decides who plays first; remove turn",
                            ("given", "turn"))
    starter_key = "start_card" if "start_card" in given else "top"
    no_top = given.get("top") == "none"         # an empty discard pile: a variant without a start card
    if no_top and game.variant.start_card:
        raise ScenarioError("E608", "top: none is an empty discard pile, only for a variant without a start card "
                            "(start.card: false)", ("given", "top"))
    top = take(given[starter_key], ("given", starter_key)) if starter_key in given and not no_top else None
    below = [take(c, ("given", "discard", i)) for i, c in enumerate(given.get("discard") or [])]
    pile_top_first = [take(c, ("given", "draw_pile", i)) for i, c in enumerate(given.get("draw_pile") or [])]
    piles = {}
    for name, cards in (given.get("piles") or {}).items():
        if name not in game.pile_names:
            raise ScenarioError("E608", f"unknown pile '{name}'" + suggestion_suffix(name, game.pile_names),
                                ("given", "piles", name))
        piles[name] = [take(c, ("given", "piles", name, i)) for i, c in enumerate(cards)]

    # Everything not placed, in a seeded order: dealt first, then the rest.
    rest = []
    for k in sorted(pool):
        rest.extend([k] * pool[k])
    random.Random(0).shuffle(rest)
    for seat in range(n):
        if hands[seat] is None:
            hands[seat] = [rest.pop() for _ in range(min(game.variant.hand_size, len(rest)))]
    if top is None and not no_top:
        if not rest:
            raise ScenarioError("E603", "no card is left to turn up as the top card", ("given",))
        numbers = [i for i, k in enumerate(rest) if game.k_category[k] == "number"]
        top = rest.pop(numbers[-1] if numbers else -1)

    rest_place = given.get("rest", "draw_pile")
    if isinstance(rest_place, int) and not isinstance(rest_place, bool):
        hands[seat_index(n, rest_place, ("given", "rest"))].extend(rest)
        rest = []
    elif rest_place not in REST_PLACES:
        raise ScenarioError("E608", f"rest must be one of {', '.join(REST_PLACES)} or a seat", ("given", "rest"))
    discard = (rest if rest_place == "discard" else []) + below + ([] if no_top else [top])
    draw_pile = pile_top_first + (rest[::-1] if rest_place == "draw_pile" else [])

    direction = given.get("direction", 1)
    dealer = seat_index(n, given["dealer"], ("given", "dealer"), "dealer") if "dealer" in given else None
    if "turn" in given:
        turn = seat_index(n, given["turn"], ("given", "turn"))
        if dealer is None:
            dealer = (turn - direction) % n
    else:
        dealer = (-direction) % n if dealer is None else dealer
        turn = (dealer + direction) % n
    color = color_index(game, given["color"], ("given", "color")) if "color" in given else None
    scores = given.get("scores")
    if scores is not None and len(scores) != n:
        raise ScenarioError("E604", f"{len(scores)} scores given for {n} players (scores are by seat)",
                            ("given", "scores"))
    uno_called = [seat_index(n, seat, ("given", "uno_called", i))
                  for i, seat in enumerate(given.get("uno_called") or [])]
    pinned = None
    if "random" in given:               # the next random outcomes: numbers, or colors by name
        pinned = list(given["random"] or [])
        for i, value in enumerate(pinned):
            if isinstance(value, str) and value not in game.variant.colors:
                color_index(game, "" if value == "none" else value, ("given", "random", i))     # E605
    roles = given.get("roles")
    if roles is not None:
        declared = game.variant.roles
        if len(roles) != n:
            raise ScenarioError("E604", f"{len(roles)} roles given for {n} players (roles are by seat)", ("given", "roles"))
        for i, name in enumerate(roles):
            if name not in declared:
                hint = suggestion_suffix(str(name), declared) if declared else " (the variant declares no roles)"
                raise ScenarioError("E611", f"unknown role {name!r}{hint}", ("given", "roles", i))
    variables = {**(given.get("state") or {}), **(given.get("player_state") or {})}
    for key in ("state", "player_state"):
        for name in given.get(key) or {}:
            variable_section(game, key, name, ("given", key, name))
    # The engine's own set-up: a start card begins the round exactly as a dealt round does.
    try:
        return game.position(hands, draw_pile, discard, dealer=dealer, turn=turn, direction=direction, color=color,
                             scores=scores, uno_called=uno_called, match=bool(scenario.get("match", False)),
                             start=starter_key == "start_card", side=side, piles=piles,
                             variables=variables, random_values=pinned, roles=roles)
    except VariableError as err:
        key = "player_state" if err.name in (given.get("player_state") or {}) else "state"
        raise ScenarioError("E610", str(err), ("given", key, err.name)) from None

