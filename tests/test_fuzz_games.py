"""Reliability of play: a variant that `check` accepts never loses a card, never runs forever, never crashes.

Generated variants (extending tests/corpus/base.yaml or variants/classic.yaml) add cards whose
effects come from the grammar (`tests.test_fuzz.sentences`) or from templates aimed at the
places where adversarial testing found bugs: exchanges larger than a hand, eliminations
followed by hand-offs, decisions inside events, zero-point decks, redeals, rotations, swaps,
trades, `next seat` / `seat after P`, loops and nested ifs; the campaigns extend each template
variant (`_extend`) with the rest of the language (choices, procedures, chance, scores, teams'
words, challenges, piles, `turn.draw`, uno and scoring sections...) and the features of issue 30's
findings (tests/test_fuzz_coverage.py holds them to every grammar rule and schema key). Only the variants `check` accepts
(no error) are played; the shipped variants, house rules and pairs of house rules are played
too. Every game is checked after every action by `GameChecker` (see its docstring for the
list of invariants, docs/reliability.md for what each guarantees).

The default run is bounded (well under 60 s on two cores). UNODSL_FUZZ=long runs the
`slow`-marked campaign: 20,000 template variants (UNODSL_FUZZ_FILES; UNODSL_FUZZ_SHARD=i/n runs
the seeds s with s % n == i, to split it over cores), 3,000 grammar variants, and 200 games per shipped case and
player count (UNODSL_CAMPAIGN_GAMES overrides it; a pair of house rules gets UNODSL_PAIR_GAMES,
default 200, over all its counts). Counts are printed (`-s`) and attached
with `record_property`.
"""

from __future__ import annotations

import itertools
import os
import random
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unodsl.effects import layout as D
from unodsl.agents.simple import HeuristicBot
from unodsl.check import check_file
from unodsl.engine import Game, State

from test_fuzz import GRAMMAR, sentences

REPO = Path(__file__).resolve().parent.parent
BASES = {"base.yaml": Path(__file__).resolve().parent / "corpus" / "base.yaml",
         "classic.yaml": REPO / "variants" / "classic.yaml"}
LONG = os.environ.get("UNODSL_FUZZ") == "long"
slow = pytest.mark.skipif(not LONG, reason="long fuzzing runs only with UNODSL_FUZZ=long")

MAX_DECISIONS = 50_000          # a round not over after this many decisions is a hang
MATCH_DECISIONS = 20_000        # a match still going after this many decisions is cut short (and counted)
DEEP_EVERY = 7                  # save/load, clone and non-interference every this many steps
COUNTS: Counter = Counter()     # variants generated / clean, games, actions checked, per test


def _report(record_property, name: str, keys: list[str]) -> None:
    for key in keys:
        record_property(f"{name}_{key}", COUNTS[f"{name}_{key}"])
    known = ", ".join(f"{k} {COUNTS[k]}" for k in KNOWN if COUNTS[k])
    print(f"\n[fuzz-games] {name}: " + ", ".join(f"{k} {COUNTS[f'{name}_{k}']}" for k in keys)
          + (f" ({known})" if known else ""))


# ---------------------------------------------------------------- the invariants


def _zones(state: State) -> Counter:
    cards = Counter(state.draw_pile)
    cards.update(state.discard)
    for hand in state.hands:
        cards.update(hand)
    for picked in (*state.limbo, *state.piles):
        cards.update(picked)
    return cards


def _sides_in_play(s: State) -> int:
    """Players still in the round (cards in hand, not eliminated), or teams with one, with teams."""
    return len({s.team_index(q) for q in range(s.n) if s.in_play(q)})


def _empty_hand_in_play(s: State) -> bool:
    """In a first_out round, a player not eliminated whose hand is empty (the round should be over)."""
    return s.g.variant.round_ends == "first_out" and any(not h and not e for h, e in zip(s.hands, s.eliminated))


class _At:
    """Where a check failed: the game, the step and the actions so far, spelled out only on failure."""

    def __init__(self, where: str, step: int, state: State):
        self.where, self.step, self.state, self.length = where, step, state, len(state.history)

    def __format__(self, spec: str) -> str:
        actions = [self.state.g.action_to_string(a) for a in self.state.history[:self.length]]
        return f"{self.where}, step {self.step} (actions so far: {actions})"


class GameChecker:
    """Plays one game in lockstep with the reference mode and checks the engine's invariants.

    After every action: (i) cards are conserved (hands, piles and limbo make the deck);
    (ii) a game not over has a player in range with a legal action; (iii) the player to act
    is not eliminated, eliminated players hold no cards, and the pending decision is one its
    player can take (`_check_decision`); (v) the reference mode (`Game(variant, fast=False)`)
    offers the same legal actions. Every DEEP_EVERY steps: (iv) a save reloads and a clone
    continues with the same state and legal actions; (viii) permuting the draw pile changes
    no player's observation. At the end: (vi) the game ended within MAX_DECISIONS; (v) the
    reference game ends in the same state; (vii) replaying the seed and actions gives it too.
    """

    def __init__(self, game: Game, reference: Game, label: str, deep_every: int = DEEP_EVERY, deep_other: int = 1):
        self.game, self.reference, self.label = game, reference, label
        # The deep checks (save/load, clone, non-interference) run every `deep_every` steps, and at
        # every `deep_other`-th step where a decision other than a turn is pending (effects paused).
        self.deep_every, self.deep_other = deep_every, deep_other
        self.decks = [Counter(game.deck_up(side)) for side in range(len(game.variant.sides) or 1)]
        self.actions = 0

    def play(self, players: int, seed: int, match: bool = False, heuristic: bool = True) -> State:
        """Play one game, checking it throughout; its final state."""
        rng = random.Random(seed)
        a = self.game.new_game(players, seed=seed, match=match)
        b = self.reference.new_game(players, seed=seed, match=match)
        # Some seats play the heuristic bot so UNO calls, catches and challenges come up.
        bots = [HeuristicBot(random.Random(seed * 31 + s)) if heuristic and rng.random() < 0.5 else None
                for s in range(players)]
        where = f"{self.label}, {players} players, seed {seed}, match {match}"
        # Each round must end within MAX_DECISIONS. A match may need any number of rounds (a deck
        # that scores little takes long to reach the target), so it is cut short, and counted, at
        # a cap; what it played so far is still compared with the reference mode and the replay.
        round_number, round_start = a.round, 0
        for step in range((MATCH_DECISIONS if match else MAX_DECISIONS) + 1):
            at = _At(where, step, a)
            if a.round != round_number:
                round_number, round_start = a.round, step
            assert step - round_start <= MAX_DECISIONS, f"{at}: round {a.round} not over after {MAX_DECISIONS} decisions"
            assert not self._unsettled_setup(a), f"{at}: the set-up left the round undecided but unsettled"
            legal = self._check_state(a, at)
            assert legal == b.legal_action_ids(), f"{at}: the reference mode offers other actions"
            if step % self.deep_every == 0 or (a.decision not in (D.TURN, D.DRAWN, "")
                                               and step % self.deep_other == 0):
                self._check_deep(a, legal, at)
            if a.is_over:
                break
            bot = bots[a.current_player]
            action = bot.act(a) if bot is not None else legal[rng.randrange(len(legal))]
            assert action in legal, f"{at}: the bot chose an illegal action {action}"
            a.apply_id(action)
            b.apply_id(action)
            self.actions += 1
        if not a.is_over:
            assert match, f"{where}: not over after {MAX_DECISIONS} decisions"
            COUNTS["matches_cut_short"] += 1
        assert a.to_json() == b.to_json(), f"{where}: the reference mode ends elsewhere"
        replay = self.game.new_game(players, seed=seed, match=match)
        for action in a.history:
            replay.apply_id(action)
        assert replay.to_json() == a.to_json(), f"{where}: replaying the same actions ends elsewhere"
        return a

    def _unsettled_setup(self, s: State) -> bool:
        """Whether the first turn of a round begins with one side left in play, or a player without cards
        (test_round_ends_when_the_deal_*: set-up effects did not settle the round)."""
        if s.over or s.turns != 1 or s.pending[0] not in (D.TURN, D.JUMP, D.STACK):
            return False                # not the first turn of a round
        # An empty hand not yet counted out: settling would have counted it (and run player_out). In a
        # team_out round a player the set-up put out of cards stays out while a teammate holds cards.
        unsettled = (not h and not e and not o for h, e, o in zip(s.hands, s.eliminated, s.out))
        return _sides_in_play(s) <= 1 or any(unsettled)

    def _check_state(self, s: State, at: _At) -> list[int]:
        deck = self.decks[s.side]                   # by the faces up
        if s.g.variant.packs:                       # deck.packs: the table's own number of packs
            deck = Counter({k: c * s.g.variant.packs_for(s.n) for k, c in deck.items()})
        assert _zones(s) == deck, f"{at}: cards not conserved: {(_zones(s) - deck) or -(deck - _zones(s))}"
        if s.over:
            assert s.legal_action_ids() == [] and s.current_player == -1, f"{at}"
            return []
        for q in range(s.n):
            if s.eliminated[q]:
                assert not s.hands[q], f"{at}: eliminated player {q} holds {s.hand(q)}"
        p = s.current_player
        assert 0 <= p < s.n, f"{at}: current player {p}"
        assert not s.eliminated[p], f"{at}: eliminated player {p} must decide '{s.decision}'"
        legal = s.legal_action_ids()
        assert legal, f"{at}: player {p} has no legal action for '{s.decision}'"
        assert len(set(legal)) == len(legal), f"{at}: an action is listed twice"
        if s.limbo[0] or s.limbo[1]:
            # Cards picked for an exchange wait only while its second pick is pending.
            assert s.pending[0] == D.GIVE and s.pending[3] < 0, f"{at}: cards left in limbo {s.limbo}"
        if s.pending[0] in (D.TURN, D.STACK, D.JUMP, D.DRAWN):
            # A round is over once one player (or team) is left in it; no turn begins after that.
            assert _sides_in_play(s) >= 2, f"{at}: a turn with {_sides_in_play(s)} side(s) left in play"
            assert not _empty_hand_in_play(s), f"{at}: a turn while a player is out of cards in a first_out round"
        self._check_decision(s, p, legal, at)
        return legal

    def _check_decision(self, s: State, p: int, legal: list[int], at: _At) -> None:
        """What each decision promises about its player (decisions.py): they can actually take it."""
        g, kind, hand = s.g, s.pending[0], s.hands[p]
        k = g.num_kinds
        plays = [a % k for a in legal if a < 2 * k]
        assert all(c in hand for c in plays), f"{at}: '{kind}' offers a card player {p} does not hold"
        if kind in (D.TURN, D.STACK, D.FORCED, D.JUMP, D.DRAWN, D.GIVE):
            # Playing, drawing instead, or picking a card needs a hand; a player out of cards never gets one.
            assert hand, f"{at}: player {p} holds no card for '{kind}'"
        if kind == D.DRAWN:
            assert s.pending[2] in hand and plays == [s.pending[2]] * len(plays), f"{at}: the drawn card"
        elif kind == D.TARGET:
            seats = s.pending[3]
            assert len(seats) >= 2 and not any(s.eliminated[q] for q in seats), f"{at}: targets {seats}"
        elif kind == D.GIVE:
            dest = s.pending[3]
            assert s.pending[2] >= 1, f"{at}"
            assert (dest >= 0 and dest != p and not s.eliminated[dest]) or dest in (-1, -2), f"{at}: gift to {dest}"
        elif kind == D.TRADE:
            other = s.pending[2]
            assert other != p and s.hands[other] and hand and not s.eliminated[other], f"{at}: trade with {other}"
        elif kind == D.STACK:
            assert (s.stack > 0 and s.stack_victim == p) or (s.skip_stack > 0 and s.skip_victim == p), (
                f"{at}: stack {s.stack} for {s.stack_victim}, skip {s.skip_stack} for {s.skip_victim}")
        elif kind == D.FORCED:
            # A color (`must play color C`), or -1 for `must play where COND`, whose filter the effect holds.
            assert plays and (s.pending[2] < 0 or all(g.k_color[c] == s.pending[2] for c in plays)), f"{at}: forced play"
        elif kind == D.UNO:
            assert len(hand) == g.uno_left, f"{at}: asked to call UNO holding {len(hand)} (uno.at {g.uno_left})"
        elif kind == D.CATCH:
            # With uno.catch.wrong a window also opens after a due call (an accusation of the caller is wrong).
            assert s.vulnerable or s.callers, f"{at}: a catch window with nobody to catch"
            held = [len(s.hands[v]) for v in s.vulnerable]
            assert held == [g.uno_left] * len(held), f"{at}: catchable players hold {held} (uno.at {g.uno_left})"
        elif kind == D.WINDOW:
            # windows: offered to a member in play, first of those still to be offered, with `pass` beside it.
            assert s.in_play(p) and s.offered[:1] == [p] and g.A_PASS in legal and len(legal) == 2, f"{at}: window"
        elif kind == D.COLOR:
            assert g.variant.colors, f"{at}: a color chosen without colors"
        elif kind == D.CHALLENGE:
            assert not s.eliminated[s.pending[1]], f"{at}"

    def _check_deep(self, s: State, legal: list[int], at: _At) -> None:
        saved = s.to_json()
        for copy, how in ((State.from_json(self.game, saved), "reloaded"), (s.clone(), "cloned")):
            assert copy.to_json() == saved, f"{at}: the {how} state differs"
            assert copy.legal_action_ids() == legal, f"{at}: the {how} state offers other actions"
        if s.over or len(s.draw_pile) < 2:
            return
        # The order of the draw pile is hidden: no observation may depend on it (but for the top
        # card of a two-sided deck, whose other face shows).
        shuffled = s.clone()
        below = shuffled.draw_pile[:-1] if self.game.k_back is not None else shuffled.draw_pile
        random.Random(len(saved)).shuffle(below)
        shuffled.draw_pile[:len(below)] = below
        for q in range(s.n):
            assert shuffled.observation(q) == s.observation(q), f"{at}: player {q} sees the draw pile order"


def _counts(game: Game) -> list[int]:
    v = game.variant
    return list(v.allowed_players or range(v.min_players, v.max_players + 1))


# ---------------------------------------------------------------- variants from text


def compile_text(text: str, base: str = "base.yaml"):
    """(CheckResult, text) of a variant written next to a copy of its base, in a fresh folder."""
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(BASES[base], Path(folder) / base)
        path = Path(folder) / "v.yaml"
        path.write_text(text, encoding="utf-8")
        return check_file(str(path), root=folder)


def _block(effect: str, indent: int) -> str:
    """An effect as a YAML block scalar at `indent` spaces (its lines keep their own indentation)."""
    pad = " " * indent
    lines = effect.replace("\t", "    ").rstrip("\n").split("\n")
    return "|\n" + "\n".join(pad + line if line.strip() else "" for line in lines)


COLORS = {"base.yaml": 2, "classic.yaml": 4}
TOTALS = {"classic.yaml": 108}          # bases that state deck.total: the new cards are added to it


def variant_text(base: str, cards: dict, top: dict | None = None, zero_points: bool = False) -> str:
    """A variant extending `base` with extra cards ({id: {key: value or effect}}) and top-level sections."""
    out = ["unodsl: 1", "name: Generated", f"extends: {base}"]
    deck_rules = (top or {}).get("deck_rules")         # deck.reshuffle and deck.packs, beside deck.total
    if base in TOTALS:
        extra = sum(c.get("count", 0) + c.get("per_color", 0) * COLORS[base] for c in cards.values())
        out.append(f"deck: {{total: {TOTALS[base] + extra}" + (f", {deck_rules[1:-1]}}}" if deck_rules else "}"))
    elif deck_rules:
        out.append(f"deck: {deck_rules}")
    for key, value in (top or {}).items():
        if key == "deck_rules":
            continue
        if isinstance(value, dict):
            out.append(f"{key}:")
            for sub, subvalue in value.items():
                effect = (isinstance(subvalue, str) and sub in ("on_deal", "after_draw", "player_out", "turn_start",
                                                                 "turn_end", "card_played", "draw", "on_end",
                                                                 "penalty", "default")
                          and not subvalue.isdigit())
                text = _block(subvalue, 4) if effect else subvalue
                out.append(f"  {sub}: {text}")
        else:
            out.append(f"{key}: {value}")
    out.append("cards:")
    if zero_points:
        for name in (["number", "skip", "wild"] if base == "base.yaml" else
                     ["number", "draw_two", "reverse", "skip", "wild", "wild_draw_four"]):
            out.append(f"  {name}: {{points: 0}}")
    for name, keys in cards.items():
        out.append(f"  {name}:")
        for key, value in keys.items():
            if isinstance(value, dict):               # restriction: {strict: C, challenge: D}
                out.append(f"    {key}:")
                out.extend(f"      {sub}: {_block(text, 8)}" for sub, text in value.items())
                continue
            if key in ("on_play", "restriction", "on_start", "on_stack"):
                value = _block(value, 6)
            out.append(f"    {key}: {value}")
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- targeted templates

PLAYERS = ["self", "next", "previous", "next of next", "next seat", "seat after next", "seat after previous",
           "seat after self", "dealer", "most cards", "fewest cards"]

ON_PLAY = [
    "self exchanges {N} with next",
    "self exchanges {N} with {P}",
    "{P} exchanges {N} with {Q}",
    "eliminate self\nextra turn",
    "eliminate self\nturn to {P}",
    "eliminate next\nextra turn",
    "eliminate next\nturn to {P}",
    "eliminate {P}\nturn to {Q}",
    "eliminate self\nchoose color",
    "eliminate self\nlet t = choose player others\nt draws {N}",
    "eliminate self\ngather and redeal",
    "eliminate self\nrotate hands",
    "eliminate self\nself exchanges {N} with next",
    "eliminate self\nnext must play color current",
    "eliminate next\nlook at next\ntrade with next",
    "gather and redeal",
    "rotate hands",
    "rotate hands\nrotate hands\nextra turn",
    "let t = choose player others\nswap hands with t",
    "swap hands with {P}\nextra turn",
    "let t = choose player others\nlook at t\ntrade with t",
    "look at {P}\ntrade with {P}",
    "next seat draws {N}",
    "seat after {P} draws {N}",
    "let v = next seat\neliminate v\nv draws {N}\nturn to v",
    "eliminate next\nseat after self draws {N}\nturn to seat after self",
    "turn to seat after {P}",
    "repeat {N}:\n    next draws 1\n    rotate hands",
    "repeat {N}:\n    let t = choose player all\n    t gives 1 to next of t",
    "repeat {N}:\n    self exchanges 1 with next seat\n    reverse",
    ("if hand(self) > {N}:\n    if next holds playable:\n        skip next\n    else:\n        next draws {N}\n"
     "elif hand(next) < 2:\n    eliminate next\nelse:\n    reverse\n    extra turn"),
    "if players > 2:\n    if hand(previous) > hand(next):\n        eliminate previous\n    turn to previous\nelse:\n    skip next",
    "{P} gives {N} to {Q}",
    "self discards color current",
    "for each p in all:\n    p exchanges 1 with next of p",
    "for each p in others:\n    p draws {N}\n    if hand(p) > 10:\n        eliminate p",
    "next draws {N} and loses turn",
    "{P} draws until playable",
    "{P} draws to {N}",
    "skip next {N}",
    "next must play color current else:\n    next draws {N}",
    "choose color\nlock color current until turn of {P}",
    "choose color\n{P} must play color current",
    "{P} chooses color\nextra turn",
    # named piles (every template variant declares `bank`, face down, and `pot`, face up)
    "move {N} cards from draw to bank\n{P} takes count(bank) cards from bank",
    "self puts 1 card on bank\nmove count(bank) cards from bank to pot",
    "move {N} cards from discard to pot\n{P} takes {N} cards from pot",
    "{P} takes 1 card from discard\nmove count(discard) cards from discard to draw",
    "repeat {N}:\n    self puts 1 card on pot\n    next takes 1 card from pot",
    "eliminate next\nnext takes {N} cards from bank\nself puts 1 card on discard",
    "move {N} cards from draw to discard\nmove {N} cards from pot to draw",
    "move {N} cards from draw to pot\n{P} takes top of pot\n{Q} takes all of bank",
    "{P} takes top of draw\nself puts 1 card on pot\nnext takes all of pot",
    # declared variables (VARIABLES) and the seat expressions
    "set heat = heat + {N}\nif heat >= 5:\n    set heat = heat % 3\n    {P} draws {N}",
    "set mark of {P} = not mark of {P}\nif mark of next:\n    skip next",
    "set hue = current color\nif hue of left of self == current color:\n    turn to right of self",
    'if mode == "a":\n    set mode = "b"\n    reverse\nelse:\n    set mode = "a"\n    turn to left of {P}',
    "turn to previous of {P}\nset heat = direction + heat * {N}",
    "if (hand(self) + direction) % players == 0:\n    {P} draws {N}\nset hue of right of {P} = card.color",
    "repeat heat:\n    left of self draws 1\n    set heat = heat - 1",
]
# A pile of each player (every template variant declares `stock`, per_player, face down): effects added to a
# card's on_play and an eliminate_when, drawn last, so that the variants of the lists above are what they were.
SEAT_PILES = [
    "move {N} cards from draw to stock of {P}\n{Q} takes top of stock of {P}",
    "if count(stock of {P}) > 0:\n    {P} takes {N} cards from stock of {P}\nelse:\n    self puts 1 card on stock of next",
    "{P} takes all of stock of {Q}\nmove {N} cards from stock of self to pot",
    "next takes 1 card from stock of next where card is wild else:\n    move {N} cards from bank to stock of {Q}",
    "if count(cards of stock of {P} where card.color == current) > 0 or top of stock of {Q}.color == current:\n"
    "    skip next\n    self puts {N} cards on stock of {P} where card is number",
]
SEAT_PILES_ELIMINATE_WHEN = "count(stock of self) == 0 and hand(self) >= {N}"
# An array of piles (every template variant declares `lane`, count 2, face up; some make it 3 or playable).
ARRAY_PILES = [
    "for each i in lane:\n    move {N} cards from draw to lane i\n    if count(lane i) > {N}:\n        {P} takes top of lane i",
    "move {N} cards from lane 1 to lane 2\n{P} takes all of lane 2",
    "let n = count(lane 1) % 3\nself puts 1 card on lane n where card is number else:\n    next takes {N} cards from lane 2",
    "for each i in lane:\n    if count(cards of lane i where card.color == current) > 0 or top of lane i.color == current:\n"
    "        {P} takes 1 card from lane i where card is wild",
]
# Matching as data: a top-level `match:` in some variants, from the permissive to the impossible.
MATCH = ["card.number == top.number or card is wild", "top is wild or card.color == current",
         "card.type == top.type or card.color == current or top is number", "true", "false",
         "card.number >= top.number or card.draw > top.draw"]
# turn.sets: (continue, finish or None); the finishing ones make the engine search ahead through the hand.
SETS = [("card.type == top.type and card.number == top.number", None), ("true", None), ("true", "false"),
        ("card is number", "set.sum == set.base.number"), ("card.color == set.first.color", "set.size == 3"),
        ("card.number > top.number or card is wild", "set.sum % 2 == 0"), ("card.color != current", "set.size > 5"),
        ('set.first.kind == "number" and set.sum + card.number <= set.base.number', "set.sum == set.base.number")]
# Declared in every template variant: the ON_PLAY entries above use them.
VARIABLES = {"state": {"heat": "{type: int, min: -9, max: 9}", "mode": "{type: enum, values: [a, b], reset: match}"},
             "player_state": {"mark": "{type: bool, visibility: private}", "hue": "{type: color}",
                              "bet": "{type: int, min: 0, max: 5}"}}
AFTER_DRAW = [
    "if hand(self) < {N}:\n    let p = choose player others\n    p draws 1",
    "let p = choose player others\nif hand(p) < 6:\n    p draws 1",
    "if hand(self) > {N}:\n    eliminate self",
    "if hand(self) > {N}:\n    self gives 1 to next",
    "if hand(self) == {N}:\n    rotate hands",
    "if hand(self) > 9:\n    gather and redeal",
    "let p = choose player all\nswap hands with p",
    "if hand(self) > {N}:\n    self exchanges 2 with next seat",
    "if hand(self) > 8:\n    eliminate self\n    turn to next",
    "let p = choose player others\nlook at p\ntrade with p",
]
ON_DEAL = [
    "for each p in all:\n    p exchanges 1 with next of p",
    "rotate hands",
    "gather and redeal",
    "eliminate next",
    "eliminate self",
    "let t = choose player others\nswap hands with t",
    "next draws {N}",
    "self gives {N} to next",
    "self exchanges {N} with next seat",
]
PLAYER_OUT = [
    "if not partner is out:\n    partner gives half(hand(partner)) to self",
    "eliminate self",
    "next draws {N}",
    "let t = choose player others\nswap hands with t",
    "eliminate partner",
    "self draws {N}",
    "gather and redeal",
    "rotate hands",
    "eliminate next\nturn to next seat",
]
# round.eliminate_when: tested for every player as each resolution settles.
ELIMINATE_WHEN = ["hand(self) >= {N}", "hand(self) == {N}", "points(self) > 60", "hand(self) > hand(next)",
                  "players > 2 and hand(self) < 2", "true"]
# round.win_when: the first player it holds for, as a resolution settles, wins the round.
# What fills a pile before the hands (`where:`): each reads the card alone; some meet every card or none.
PILE_WHERE = ["card is wild", "card is number and card.number >= {N}", "card.color == red", "not card is number",
              "card.draw > 0 or card.color == blue", "card.type == \"gen_0\"", "card.points >= 20", "true",
              "card.number == {N}", "card is action and card.color != red"]
WIN_WHEN = ["count(stock of self) == 0", "hand(self) <= {N} and hand(next) > {N}", "points(self) > 60",
            "hand(self) == 2", "true"]
# A card played on a pending draw stack (on_stack): where the stack goes, with what comes around it.
ON_STACK = [
    "turn the stack away to {P}",
    "reverse\nturn the stack away to next",
    "if hand(self) > {N}:\n    turn the stack away to {P}\nelse:\n    turn the stack away to self",
    "{P} draws {N}\nturn the stack away to {Q}",
    "choose color\nturn the stack away to {P}",
    "let t = choose player others\nturn the stack away to t",
    "turn the stack away to next\nturn the stack away to {P}",
    "eliminate {P}\nturn the stack away to {P}",
    "skip next\nturn the stack away to next of next",
    "extra turn\nturn the stack away to {P}",
    "rotate hands\nturn the stack away to {P}\nnext draws {N} and loses turn",
    "{P} draws the stack",
    "reverse\nnext draws the stack\nskip next",
]
ON_STACK_IF = ["true", "false", "hand(self) > {N}", "players > 2", "stack > {N}"]
STRICT = ["hand(self) > 2", "not self holds color current", "hand(next) < 4", "players > 2",
          'card.kind == "wild" or hand(self) > 1', "false", "next holds playable", "not mark", "heat < 5"]


# Issue 29's collections, filters, aggregates, picks with `where` and `under`: played by their own campaign
# (test_collection_templates_play_safely), so that the template campaign's variants stay as they were.
COLLECTION_ON_PLAY = [
    "{P} draws count(cards of {Q} where card.color == current or card is wild) % 4",
    "for each p in others except {P} where any(card is wild over cards of player):\n    p draws 1",
    "let t = choose player others where hand(player) == max(hand(player) over others)\nt draws {N}",
    ("if all(card is number over cards of bank) and sum(card.points over cards of pot) > {N}:\n    {P} draws 1\n"
     "move count(cards of draw where card is action) % 3 cards from draw to bank"),
    ("repeat {N}:\n    if min(card.number over cards of discard where card is number) < "
     "max(hand(player) over players where player != self):\n        next draws 1"),
    "{P} gives {N} to {Q} where card is wild or card.color == current",
    "self puts {N} cards on bank where card is number\n{P} takes {N} cards from bank where card.number > 4",
    "{P} discards cards where card.color == current\n{Q} takes 1 card from discard where card is action",
    ("{P} gives {N} to {Q} where card.number > 3 else:\n    {Q} draws 1\n"
     "self puts 1 card on pot where card is wild else: skip next\nnext takes 1 card from pot where card is wild else: reverse"),
    "choose color\n{P} must play where card.color == current or card is wild else:\n    {P} draws {N}",
    "{P} must play where card.number > top.number",
    "choose color\nif under is wild or under.number == card.number:\n    {P} draws {N}\nelif under.color == current:\n    skip next",
]
COLLECTION_STRICT = STRICT + ["count(cards of self where card.color == current) > 1 or any(hand(player) < 3 over others)"]
COLLECTION_ELIMINATE_WHEN = ELIMINATE_WHEN + ["count(cards of self where card is wild) >= {N}"]


# ---- the extension (template_variant(..., extra=rng)): every statement, expression and section the
# language has, and the features of issue 30's findings (forced plays inside forced plays, a penalty
# that may be negative under stacking, unbounded sums, puts on draw and discard, variables where the
# conditions read none). tests/test_fuzz_coverage.py fails when a grammar rule or schema key has none.
EXTRA_ON_PLAY = [
    "self draws 2\nself must play color current",                        # 30.1: forced plays nest
    "next draws hand(next) - hand(self) and loses turn",                 # 30.6: negative under stacking
    "set heat = heat + heat + 1\nset total = total + total + {N}",      # 30.7: unbounded sums
    "self puts {N} cards on discard",                                    # 30.4
    "{P} puts 1 card on draw\nmove 1 card from discard to draw",
    "self chooses:\n    calm:\n        skip next\n    angry if hand(self) > {N}:\n        next draws {N}\n"
    "    pass:\n        nothing",
    "do punish(next, {N})",
    "{P} scores {N}",
    "set color current",
    "let r = random(1, {N})\nnext draws r",
    "let r = random luck\nrepeat r:\n    {P} draws 1",
    "{P} draws until drawn is wild or drawn.number == {N}",
    "if next holds number {N} or next holds card skip:\n    skip next\nelif hand(next) > -{N}:\n    reverse",
    "if count(others) > 1 and max hand of others > min hand of all:\n    nothing\nelse:\n    reverse",
    "for each p in all from next:\n    p draws 1",
    "for each p in others from self:\n    if hand(p) < {N}:\n        p draws 1",
    "if jumped:\n    extra turn",
    "if count(bank) > 0 and top of pot.number > 3:\n    skip next",
    "next may challenge:\n    guilty: self draws 2\n    innocent: next draws 2\n    accepted: skip next",
    "self must play color current else:\n    self draws 1",
    "set heat = stack + direction + players",
    "next draws {N} and loses turn\nif stack > {N}:\n    next draws the stack",
    "if heavy(next, {N}):\n    next draws 1\nset heat = margin(self)",                # functions (issue 29)
    "self draws 1\nself must play where card.color == current or card is wild",
    "{P} must play where card is number else:\n    {P} draws 1",
    "clear color\nif hand(self) > {N}:\n    choose color",
    # decisions beyond the player on turn (issue 29 item 5): a player other than self asked
    "let t = next chooses player all except next\nt draws {N}",
    "let t = {P} chooses player others where hand(player) > {N}\nswap hands with t",
    "next chooses:\n    take:\n        next draws {N}\n    push:\n        next of next draws 1",
    # a color chosen as a value, the color in play unchanged (issue 29): by self, by any player
    "let c = {P} chooses color\n{P} draws until drawn.color == c or drawn is wild\nif self holds color c:\n    set color c",
    "let c = choose color\nnext draws count(cards of self where card.color == c)\nif current == c:\n    skip next",
    # issue 29 item 8: the way hands go round
    "rotate hands left\nif hand(self) > {N}:\n    gather and redeal against the direction of play",
    "reverse\nrotate hands right\ngather and redeal left",
    "gather and redeal right\nrotate hands in the direction of play\nrotate hands against the direction of play",
    "show hand of {P} to others\nshow hand of self to {Q}",
    "show hand of next to players where hand(player) > {N}\nnext draws 1",
    "let v = all secretly choose player all\nfor each p in v:\n    p draws {N}",
    "repeat 2:\n    let v = others secretly choose player all where hand(player) > {N}\n    if count(v) > 1:\n        skip next",
    # a group held by a let, counted by its name (issue 29 item 2)
    "let g = others except {P}\n{Q} draws count(g) % 3\nfor each p in g:\n    p draws 1",
    # ... and read wherever a group is: filtered, folded, chosen from; kept by a filter at the let
    "let g = others where hand(player) > {N}\nif any(hand(player) > {N} over g):\n    let t = {P} chooses player g\n"
    "    t draws max(hand(player) over g) % 3\nfor each p in g where hand(player) < {N}:\n    p draws 1",
    "let v = all secretly choose player all\nlet w = others secretly choose player v where hand(player) > {N}\n"
    "next draws (count(w) + sum(hand(player) over v) + min(hand(player) over w where all(true over v))) % 3",
    "let g = players where hand(player) > {N}\nlet t = choose player g\nif count(g where player != t) > 1:\n    t draws 1",
    "let g = others\nlet v = g secretly choose player g except {P}\nfor each p in v except {Q}:\n"
    "    p draws (max hand of g - min hand of v) % 3",
    # number choices (issue 29 item 5): public, and sealed into a per-player variable (bids)
    "let n = {P} chooses number from 0 to {N}\n{P} draws n",
    "let n = choose number from 1 to (hand(self) + 1)\nnext draws n\nset heat = n",
    "all secretly choose number from 0 to {N} into bet\nfor each p in all where bet of player == max(bet of player over all):\n    p draws 1",
    "repeat 2:\n    others secretly choose number from hand(self) to 3 into bet\n    if bet of next > 1:\n        skip next",
]
ROLE_ON_PLAY = [           # a variant declaring the roles lead and rest
    "if role of {P} is lead:\n    {P} draws {N}\nelse:\n    skip next",
    "for each p in players where role of player is rest:\n    p draws 1",
    "let t = choose player others where not role of player is lead\nt draws {N}",
    "if count(players where role of player is lead) == 1 and role of self is rest:\n    extra turn",
]
# A pile of each role (a variant declaring the roles lead and rest, and `armory`, per_role).
ROLE_PILES = [
    "if count(armory of role of {P}) > 0:\n    {P} takes top of armory of role of {P}\nelse:\n    move {N} cards from draw to armory of lead",
    "move {N} cards from armory of rest to armory of lead\n{P} takes 1 card from armory of role of {Q} where card is wild",
    "if count(cards of armory of lead where card.color == current) > 0 or top of armory of role of next.color == current:\n"
    "    self puts 1 card on armory of role of self\n    {P} takes all of armory of rest",
]
EXTRA_TEAMS = [
    "partner of next draws 1",
    "for each p in opponents:\n    p draws 1",
    "for each p in team of next:\n    p draws 1",
    "if next is partner of self:\n    skip next",
    "for each p in teams:\n    p draws 1",
    "partner draws 1",
    "if not partner is out and hand(partner) > 1:\n    partner gives half(hand(partner)) to next",
]
EXTRA_ON_START = ["flip again", "return and flip again", "nothing", "reverse\nextra turn"]


def _extend(rng: random.Random, base: str, cards: dict, top: dict, teams: bool) -> None:
    """Add to a template variant what the templates leave out: one more card with an extra effect, and
    some of the sections and keys the language has (each with its chance)."""
    effects = EXTRA_TEAMS if teams and rng.random() < 0.5 else EXTRA_ON_PLAY
    card = {"per_color": 1, "points": 10, "on_play": _fill(rng.choice(effects), rng)}
    if "challenge" in card["on_play"]:
        card["restriction"] = "not self holds color current"
    if rng.random() < 0.5:
        card.update(name="Extra", text="An extra card.", label="x", attrs="{value: 3}")
    if rng.random() < 0.3:
        card["on_start"] = rng.choice(EXTRA_ON_START)
    if "attrs" in card and rng.random() < 0.4:
        card["match"] = "card.color == current or top.value == card.value"
    if rng.random() < 0.2:
        card["draw"] = rng.randint(1, 3)
    cards["gen_extra"] = card
    second = EXTRA_TEAMS if teams else EXTRA_ON_PLAY          # a second card: more of them in each variant
    cards["gen_extra_2"] = {"count": 2, "wild": "true", "points": 0, "on_play": _fill(rng.choice(second), rng)}
    if base == "base.yaml" and rng.random() < 0.3:       # (classic states its deck's total)
        cards["gen_numbered"] = {"numbers": '{"1-3": 1}', "kind": "number", "points": "face", "colors": "[red, blue]",
                                 "label": "n"}
    top["state"] = dict(top["state"], total="{type: int, initial: 1, summary: A sum, visibility: hidden}")
    top["player_state"] = dict(top["player_state"], mood="{type: enum, values: [calm, angry], reset: round}",
                               score="{type: int, min: 0, max: 9, initial: 2, reset: match}")
    top["procedures"] = "{punish: {params: {who: player, n: number}, body: \"who draws n\"}}"
    top["distributions"] = "{luck: {1: 5, 2: 3, 3: 1}}"
    top["functions"] = ("{heavy: {params: {p: player, n: number}, value: \"hand(p) > n\", summary: A big hand.}, "
                        "margin: {params: {p: player}, value: \"hand(p) - hand(next of p)\"}}")
    top["rulings"] = ("{flag: {value: true, summary: A flag., section: \"1.2\", tag: A}, "
                      "pick: {value: a, choices: [a, b]}}")
    if rng.random() < 0.3:
        top["description"], top["version"], top["sources"] = "Generated.", 2, "[a fuzz campaign]"
    if rng.random() < 0.4:
        penalty = rng.choice(["2", "self draws 2", "catcher gives 1 to self", "self draws 1\ncatcher draws 1"])
        top["uno"] = {"at": str(rng.choice([1, 2])), "call": "UNO", "penalty": penalty,
                      "enabled": rng.choice(["true", "true", "false"])}
        if teams:
            top["uno"]["partner_may_call"] = "true"
        # uno.false_call and uno.catch (calls and accusations that can be wrong).
        if rng.random() < 0.4:
            top["uno"]["false_call"] = rng.choice(["2", "0", "self draws 1", "\"self draws 1; skip next\""])
        if rng.random() < 0.4:
            catch = {"if": rng.choice(["catcher == next", "hand(catcher) > hand(self)", "true"]),
                     "limit": rng.choice(["none", "window", "round"]),
                     "wrong": rng.choice(["2", "self draws 1", "\"next draws 1\""])}
            chosen = [f"{key}: {value}" for key, value in catch.items() if rng.random() < 0.7]
            top["uno"]["catch"] = "{" + ", ".join(chosen) + "}"
        # uno.out: a call with the last card, forgetting it costs (cards, or an effect that may ask a decision).
        if rng.random() < 0.4:
            out = {"call": "Last card", "penalty": rng.choice(["2", "0", "self draws 1", "skip next",
                                                               "\"next chooses:\\n  catch: self draws 2\\n  let_go: nothing\""])}
            chosen = [f"{key}: {value}" for key, value in out.items() if rng.random() < 0.7]
            top["uno"]["out"] = "{" + ", ".join(chosen) + "}"
    if rng.random() < 0.25:
        # windows: rules invoked at any time between turns (an effect that may ask, a condition that may change).
        slap = {"who": rng.choice(["all", "others", "opponents"]),
                "when": rng.choice(["true", "hand(self) > 1", "top is number and top.number < 5"]),
                "effect": rng.choice(["self draws 1", "next draws 1", "self gives 1 to next", "skip next",
                                      "\"self chooses:\\n  a: self draws 1\\n  b: next draws 1\""]),
                "summary": "A slap."}
        chosen = [f"{key}: {value}" for key, value in slap.items() if key == "effect" or rng.random() < 0.7]
        top["windows"] = "{slap: {" + ", ".join(chosen) + "}" + (", knock: {effect: self draws 1}}"
                                                                   if rng.random() < 0.3 else "}")
    if rng.random() < 0.2:
        top["jump_in"] = "{enabled: true, wilds: %s}" % rng.choice(["true", "false"])
    if rng.random() < 0.3:
        top["scoring"] = "{mode: %s, target: %d, by: %s, max_rounds: %d}" % (
            rng.choice(["winner_collects", "lowest_held", "none"]), rng.choice([50, 200]),
            "team" if teams else "player", rng.choice([3, 20]))
    turn = top.setdefault("turn", {})
    if rng.random() < 0.25:
        turn["draw"] = rng.choice(["self draws 1", "self draws 2", "self draws until playable",
                                   "self draws 1\nif hand(self) > 9:\n    next draws 1"])
    if rng.random() < 0.25:
        turn["may_draw_if"] = rng.choice(['"hand(next) < 3"', "'true'", "'false'", '"not self holds wild"'])
    if rng.random() < 0.2:
        turn["lock_allows_wild"] = rng.choice(["true", "false"])
    if not turn:
        del top["turn"]
    top["deal"]["dealer"] = rng.choice(["random", "high_card", "seat_0"])
    if rng.random() < 0.2:
        top["start"] = {"default": rng.choice(EXTRA_ON_START)}
    if rng.random() < 0.2:
        top["round"]["on_end"] = rng.choice(["self scores 5", "for each p in others:\n    p scores 1", "nothing"])
    if teams and rng.random() < 0.5:
        top["teams"] = "{size: 2, seating: alternate}"
    if rng.random() < 0.2:
        top["colors"] = "[red, blue]" if base == "base.yaml" else "[red, yellow, green, blue]"
    if "stacking" in top and rng.random() < 0.5:
        if "draw" in card:
            top["stacking"]["cards"] = "[gen_extra]"
        top["stacking"]["challenge"] = rng.choice(["true", "false"])
        top["stacking"]["enabled"] = "true"
    if rng.random() < 0.1:
        top["match"] = "heat > 3 or card.color == current"          # refused (E516): a variable in a match
    if rng.random() < 0.1:
        top.setdefault("turn", {})["sets"] = "{max: 3, continue: 'card.number == top.number and heat < 5'}"  # E540
    # issue 29 item 8: seats with roles, read in conditions
    if rng.random() < 0.4:
        top["roles"] = {"given": rng.choice(["seat", "random"]),
                        "names": "{lead: {summary: Leads.}, rest: {seats: 10}}"}
        cards["gen_role"] = {"count": 1, "wild": "true", "points": 0, "on_play": _fill(rng.choice(ROLE_ON_PLAY), rng)}
    # issue 29 item 7: two restrictions on one card, a strict one and a challengeable one (or one of them by key)
    if rng.random() < 0.3:
        both = {"strict": rng.choice(STRICT), "challenge": card.get("restriction", rng.choice(STRICT))}
        card["restriction"] = {key: both[key] for key in rng.choice([("strict", "challenge"), ("strict",),
                                                                     ("challenge",)])}
    # issue 29 item 7: a pending skip answered and passed on (stacking.skips), with or without draw stacking
    if rng.random() < 0.3:
        stacking = top.setdefault("stacking", {"answer": "none"})
        stacking["skips"] = "{cards: [%s], counted: %s}" % (rng.choice(["skip", "skip, gen_extra", "gen_extra_2"]),
                                                           rng.choice(["true", "false"]))
        if rng.random() < 0.5:
            cards["gen_skips"] = {"per_color": 1, "points": 20,
                                  "on_play": rng.choice(["skip next\nskip next", "skip next 2", "skip {P}",
                                                         "skip next\nnext draws 1"]).replace("{P}",
                                                                                            rng.choice(PLAYERS))}


def _fill(template: str, rng: random.Random, big: int = 7) -> str:
    return (template.replace("{N}", str(rng.randint(1, big)))
            .replace("{P}", rng.choice(PLAYERS)).replace("{Q}", rng.choice(PLAYERS)))


def template_variant(rng: random.Random, on_play: list = ON_PLAY, strict: list = STRICT,
                     eliminate_when: list = ELIMINATE_WHEN, extra: random.Random | None = None) -> tuple[str, str]:
    """(base, text) of a variant made from the templates, with small tables and small hands; with `extra`
    (a generator of its own, so that `rng` makes the same variant as before), extended by _extend."""
    base = rng.choice(["base.yaml", "base.yaml", "classic.yaml"])
    teams = rng.random() < 0.15
    cards, top = {}, dict(VARIABLES)
    for i in range(rng.randint(1, 3)):
        card = {"per_color": rng.randint(1, 3)} if rng.random() < 0.6 else {"count": rng.randint(1, 3), "wild": "true"}
        card["points"] = rng.choice([0, 5, 20, 50])
        card["on_play"] = _fill(rng.choice(on_play), rng)
        if rng.random() < 0.2:
            card["restriction"] = rng.choice(strict)
            card["restriction_check"] = "strict"
        if rng.random() < 0.2:
            card["draw"] = rng.randint(1, 4)
            card["on_play"] = f"next draws {card['draw']} and loses turn\n" + card["on_play"]
        if rng.random() < 0.2:
            card["last_card"] = "ignore"
        cards[f"gen_{i}"] = card
    if teams:
        top["players"] = "{allowed: [4]}" if rng.random() < 0.5 else "{allowed: [4, 6]}"
        top["teams"] = "{size: 2}"
        top["round"] = {"ends_when": "team_out", "max_turns": rng.choice([40, 150])}
    else:
        low = rng.choice([2, 2, 3])
        top["players"] = f"{{min: {low}, max: {rng.choice([low, 3, 4])}}}" if rng.random() < 0.7 else None
        top["round"] = {"max_turns": rng.choice([20, 60, 200]), "stall": rng.choice(["fewest_points", "fewest_cards",
                                                                                     "no_winner"])}
    if top["players"] is None:
        del top["players"]
    if rng.random() < 0.2:
        top["round"]["eliminate_when"] = f"\"{_fill(rng.choice(eliminate_when), rng, 12)}\""
        top["round"]["eliminated_cards"] = rng.choice(["under_draw", "under_discard", "into_draw"])
    deal = {"hand_size": rng.choice([1, 2, 3, 7])}
    if rng.random() < 0.3:
        deal["on_deal"] = _fill(rng.choice(ON_DEAL), rng)
    top["deal"] = deal
    events = {}
    if rng.random() < 0.3:
        events["after_draw"] = _fill(rng.choice(AFTER_DRAW), rng)
    if teams and rng.random() < 0.7:
        events["player_out"] = _fill(rng.choice(PLAYER_OUT), rng)
    if events:
        top["events"] = events
    if rng.random() < 0.2:
        top["turn"] = {"no_playable": rng.choice(["draw_one", "draw_until_playable"]),
                       "drawn_card": rng.choice(["optional", "forced", "forbidden"])}
    if rng.random() < 0.15:
        top["stacking"] = {"answer": rng.choice(["same_type", "same_or_higher", "plus4_on_plus2", "any_draw"])}
        for card in cards.values():                   # cards that turn the stack away, on half of them
            if rng.random() < 0.5:
                card["on_stack"] = _fill(rng.choice(ON_STACK), rng)
                if rng.random() < 0.4:
                    card["on_stack_if"] = f"\"{_fill(rng.choice(ON_STACK_IF), rng)}\""
    top["piles"] = "{bank: {face: down}, pot: {face: up}, stock: {per_player: true, face: down}, lane: {count: 2, face: up}}"
    if rng.random() < 0.2:
        top["match"] = rng.choice(MATCH)
    zero_points = rng.random() < 0.2
    if rng.random() < 0.25:
        go_on, finish = rng.choice(SETS)
        top.setdefault("turn", {})["sets"] = (f"{{max: {rng.randint(2, 6)}, continue: '{go_on}'"
                                              + (f", finish: '{finish}'}}" if finish else "}"))
    # The turn hooks and the play hook (drawn last, so that the variants above are what they were).
    for hook, templates in (("turn_start", AFTER_DRAW), ("turn_end", ON_PLAY), ("card_played", ON_PLAY)):
        if rng.random() < 0.15:
            top.setdefault("events", {})[hook] = _fill(rng.choice(templates), rng)
    # How a round starts and stops: no start card, no reshuffle, a blocked end, a second pack (drawn last too).
    if rng.random() < 0.2:
        top["start"] = "{card: false}"
    if rng.random() < 0.2:
        top["deck_rules"] = f"{{reshuffle: false, packs: {{'3-4': {rng.randint(1, 3)}}}}}"
    if rng.random() < 0.2:
        top["round"]["blocked"] = rng.choice(["fewest_points", "fewest_cards", "no_winner"])
    if extra is not None:
        _extend(extra, base, cards, top, teams)
    # A pile played on beside the discard pile (drawn last, so that the variants above are what they were);
    # a set is played on the discard pile only (E326).
    if "sets" not in top.get("turn", {}) and rng.random() < 0.3:
        top["piles"] = ("{bank: {face: down}, pot: {face: up, playable: true}, stock: {per_player: true, face: down}, "
                        "lane: {count: 2, face: up}}")
    # Piles dealt as a round starts, a pile of each player face up or down, effects on it (drawn last too).
    if rng.random() < 0.4:
        card = cards[rng.choice([name for name, keys in cards.items() if "on_play" in keys])]
        card["on_play"] = card["on_play"] + "\n" + _fill(rng.choice(SEAT_PILES), rng)
        if rng.random() < 0.3:
            top["round"]["eliminate_when"] = f"\"{_fill(SEAT_PILES_ELIMINATE_WHEN, rng, 12)}\""
    if rng.random() < 0.4:
        top["piles"] = top["piles"].replace(
            "stock: {per_player: true, face: down}",
            f"stock: {{per_player: true, face: {rng.choice(['up', 'down'])}, deal: {rng.randint(0, 4)}}}")
        if rng.random() < 0.3:
            top["piles"] = top["piles"].replace("bank: {face: down}", f"bank: {{face: down, deal: {rng.randint(1, 3)}}}")
    # An array of piles: effects on it, three piles, played on, dealt (drawn last too).
    if rng.random() < 0.4:
        card = cards[rng.choice([name for name, keys in cards.items() if "on_play" in keys])]
        card["on_play"] = card["on_play"] + "\n" + _fill(rng.choice(ARRAY_PILES), rng)
        lane = f"count: {rng.choice([2, 3])}, face: up" + (", playable: true" if "sets" not in top.get("turn", {})
                                                           and rng.random() < 0.5 else "")
        lane += f", deal: {rng.randint(1, 2)}" if rng.random() < 0.3 else ""
        top["piles"] = top["piles"].replace("lane: {count: 2, face: up}", f"lane: {{{lane}}}")
    # A pile of each role, where _extend declared roles: effects on it, face up or down, dealt (drawn last too).
    if "roles" in top and rng.random() < 0.5:
        top["piles"] = (top["piles"][:-1] + f", armory: {{per_role: true, face: {rng.choice(['up', 'down'])}, "
                        f"deal: {rng.randint(0, 3)}}}}}")
        card = cards[rng.choice([name for name, keys in cards.items() if "on_play" in keys])]
        card["on_play"] = card["on_play"] + "\n" + _fill(rng.choice(ROLE_PILES), rng)
    # A round won by a rule (round.win_when): a pile of each player running out among them (drawn last too).
    if rng.random() < 0.25:
        wins = [w for w in WIN_WHEN if "stock" not in w or "stock: {per_player" in top.get("piles", "")]
        top["round"]["win_when"] = f"\"{_fill(rng.choice(wins), rng, 12)}\""
    # Piles filled by a condition before the hands (where:), with the deal they have or none (drawn last too).
    if "piles" in top and rng.random() < 0.3:
        for name in re.findall(r"(\w+): \{", top["piles"]):
            if rng.random() < 0.5:
                test = _fill(rng.choice(PILE_WHERE), rng, 9)
                top["piles"] = re.sub(rf"\b{name}: \{{([^}}]*)\}}", lambda m: f"{name}: {{{m[1]}, where: {test}}}",
                                      top["piles"], count=1)
    return base, variant_text(base, cards, top, zero_points=zero_points)


def _play_generated(name: str, text: str, base: str, seed: int, games: int) -> bool:
    """Check a generated variant; if clean, play `games` games of it at its allowed counts. True if played."""
    COUNTS[f"{name}_generated"] += 1
    result = compile_text(text, base)
    if result.errors or result.game is None:
        return False
    COUNTS[f"{name}_clean"] += 1
    game = result.game
    checker = GameChecker(game, Game(game.variant, fast=False), f"generated variant:\n{text}\n")
    counts = _counts(game)
    rng = random.Random(seed)
    scored = any(game.k_points) and game.variant.scoring != "none"
    for i in range(games):
        # A match needs points to reach its target: without them it ends only at scoring.max_rounds
        # (test_a_match_on_a_zero_point_deck_ends), too long for a fuzz game, so it plays single rounds.
        match = i % 4 == 3 and scored
        COUNTS["zero_point_single_rounds"] += i % 4 == 3 and not scored
        state = checker.play(rng.choice(counts), seed * 1000 + i, match=match)
        COUNTS[f"{name}_games"] += 1
        COUNTS[f"{name}_stalled"] += state.stalled
    COUNTS[f"{name}_actions"] += checker.actions
    return True


_KEYS = ["generated", "clean", "games", "stalled", "actions"]
KNOWN = ["zero_point_single_rounds", "matches_cut_short"]


def _shard() -> tuple[int, int]:
    """UNODSL_FUZZ_SHARD=i/n: this run takes the seeds s with s % n == i (the long campaign on n cores)."""
    spec = os.environ.get("UNODSL_FUZZ_SHARD", "0/1")
    match = re.fullmatch(r"(\d+)/(\d+)", spec)
    if not match or not int(match[1]) < int(match[2]):
        raise pytest.UsageError(f"UNODSL_FUZZ_SHARD must be i/n with 0 <= i < n, not {spec!r}")
    return int(match[1]), int(match[2])


def _template_campaign(record_property, name: str, variants: int, games: int) -> None:
    part, parts = _shard() if LONG else (0, 1)
    for seed in range(part, variants, parts):
        base, text = template_variant(random.Random(seed), extra=random.Random(~seed))
        _play_generated(name, text, base, seed, games)
    _report(record_property, name, _KEYS)
    assert COUNTS[f"{name}_clean"] >= len(range(part, variants, parts)) // 2, \
        "most template variants should check clean"


def test_template_variants_play_safely(record_property):
    _template_campaign(record_property, "templates", 200, 3)


@slow
@pytest.mark.slow
def test_template_variants_play_safely_long(record_property):
    """The issue's campaign size: 20,000 files (UNODSL_FUZZ_FILES), 2 games of each clean one, every action
    compared with the reference mode (GameChecker); UNODSL_FUZZ_SHARD=i/n splits it over n processes."""
    _template_campaign(record_property, "templates_long", int(os.environ.get("UNODSL_FUZZ_FILES", 20_000)), 2)


def test_collection_templates_play_safely(record_property):
    """Issue 29's collections, picks with `where` and `under` in generated variants: never a lost card, a hang
    or a crash, both modes the same game, saved and loaded mid-game (GameChecker)."""
    name = "collections"
    for seed in range(60):
        base, text = template_variant(random.Random(seed), COLLECTION_ON_PLAY, COLLECTION_STRICT,
                                      COLLECTION_ELIMINATE_WHEN)
        _play_generated(name, text, base, seed, 3)
    _report(record_property, name, _KEYS)
    assert COUNTS[f"{name}_clean"] >= 30, "most collection variants should check clean"


# ---------------------------------------------------------------- variants from the grammar


def _grammar_settings(examples: int):
    return settings(max_examples=examples, deadline=None, database=None, derandomize=not LONG,
                    suppress_health_check=list(HealthCheck))


_WORD = re.compile(r'"[^"\n]*"|[a-z_][a-z0-9_]*')
_ATTRS = ("number", "points", "draw", "color", "type", "kind")


def _tame(sentence: str) -> str:
    """A grammar sentence with the names a generated variant cannot back turned into ones it can.

    The grammar's NAME is any identifier: as a variable it is unknown (E502), after `card.`
    not an attribute, after `holds card` no card type, after `rule.` no ruling; and `flip
    again` belongs to start effects only (E507). Without this nearly every sentence is
    refused before it is played. Variables all become `p`, bound to a player first.
    """
    sentence = re.sub(r"\b(return and )?flip again\b", "nothing", sentence)
    out, last = [], ""
    for match in _WORD.finditer(sentence):
        word = match.group()
        if word.startswith('"') or word in GRAMMAR.keywords or word in ("red", "blue", "yellow", "green"):
            new = word
        elif last == "rule":
            new = "flag"
        elif last == "card" and sentence[:match.start()].rstrip().endswith("."):
            new = _ATTRS[len(word) % len(_ATTRS)]
        elif last == "card":
            new = "skip"
        else:
            new = "p"
        out.append((match.start(), match.end(), new))
        last = word
    for start, end, new in reversed(out):
        sentence = sentence[:start] + new + sentence[end:]
    return "let p = next\n" + sentence


@st.composite
def grammar_variant(draw):
    """(base, text): one to three cards whose on_play, and maybe an after_draw, come from the grammar."""
    base = draw(st.sampled_from(["base.yaml", "classic.yaml"]))
    cards = {}
    for i in range(draw(st.integers(1, 3))):
        cards[f"gen_{i}"] = {"per_color": 2, "points": 10,
                             "on_play": _tame(draw(sentences("effect", budget_tokens=40)))}
    top = {"round": {"max_turns": 20}, "deal": {"hand_size": draw(st.sampled_from([2, 4, 7]))},
           "rulings": {"flag": "{value: true}"}}
    if draw(st.booleans()):         # the team words (partner, opponents, teams) need teams
        top["players"] = "{allowed: [4]}"
        top["teams"] = "{size: 2}"
    if draw(st.booleans()):
        top["events"] = {"after_draw": _tame(draw(sentences("effect", budget_tokens=30)))}
    hook = draw(st.sampled_from([None, "turn_start", "turn_end", "card_played"]))
    if hook is not None:            # a turn hook or the play hook, from the grammar too
        top.setdefault("events", {})[hook] = _tame(draw(sentences("effect", budget_tokens=30)))
    return base, variant_text(base, cards, top)


def _grammar_campaign(record_property, name: str, examples: int) -> None:
    @_grammar_settings(examples)
    @given(grammar_variant(), st.integers(0, 10 ** 6))
    def run(case, seed):
        base, text = case
        _play_generated(name, text, base, seed, 1)
    run()
    _report(record_property, name, _KEYS)


def test_grammar_variants_play_safely(record_property):
    _grammar_campaign(record_property, "grammar", 150)


@slow
@pytest.mark.slow
def test_grammar_variants_play_safely_long(record_property):
    _grammar_campaign(record_property, "grammar_long", 3000)


# ---------------------------------------------------------------- the shipped variants and house rules

VARIANT_FILES = sorted((REPO / "variants").glob("*.yaml"))
HOUSE_RULES = sorted((REPO / "variants" / "house-rules").glob("*.yaml"))
PAIRS = list(itertools.combinations(HOUSE_RULES, 2))
CAMPAIGN_GAMES = int(os.environ.get("UNODSL_CAMPAIGN_GAMES", "200"))   # long run: per case and player count
PAIR_GAMES = int(os.environ.get("UNODSL_PAIR_GAMES", "200"))           # long run: per pair, over its counts
CASES = ([f"variant:{p.name}" for p in VARIANT_FILES] + [f"house:{p.name}" for p in HOUSE_RULES]
         + [f"pair:{a.name}+{b.name}" for a, b in PAIRS])
SAMPLE = [c for c in CASES if not c.startswith("pair:")] + [c for c in CASES if c.startswith("pair:")][::14]


def _pair_text(first: Path, second: Path) -> str:
    return (f"unodsl: 1\nname: {first.stem} with {second.stem}\nextends: {REPO / 'variants' / 'classic.yaml'}\n"
            f"include: [{first}, {second}]\n")


def shipped_game(case: str):
    """(Game, None) for a campaign case, or (None, the errors) for a pair that `check` refuses."""
    kind, _, name = case.partition(":")
    if kind == "variant":
        result = check_file(str(REPO / "variants" / name))
    elif kind == "house":
        result = check_file(str(REPO / "variants" / "house-rules" / name))     # with its check_with base
    else:
        first, second = (REPO / "variants" / "house-rules" / n for n in name.split("+"))
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "pair.yaml"
            path.write_text(_pair_text(first, second), encoding="utf-8")
            result = check_file(str(path), root="/")
    if result.errors or result.game is None:
        assert kind == "pair", [d.header() for d in result.diagnostics]
        return None, [d.header() for d in result.errors]
    return result.game, None


def _campaign_case(record_property, case: str, games_per_count: int | None, games_in_all: int = 0,
                   deep_every: int = DEEP_EVERY, deep_other: int = 1) -> None:
    """Play a case: `games_per_count` games at every allowed player count, or `games_in_all` spread over them."""
    game, refused = shipped_game(case)
    if game is None:
        COUNTS["campaign_pairs_refused"] += 1
        record_property("refused", "; ".join(refused))
        pytest.skip(f"check refuses the pair: {refused[0]}")
    checker = GameChecker(game, Game(game.variant, fast=False), case, deep_every, deep_other)
    counts = _counts(game)
    plan = ([(n, i) for n in counts for i in range(games_per_count)] if games_per_count
            else [(counts[i % len(counts)], i) for i in range(games_in_all)])
    games = stalled = 0
    for players, index in plan:
        state = checker.play(players, players * 100_003 + index, match=(index % 10 == 9))
        games += 1
        stalled += state.stalled
    for key, value in (("games", games), ("stalled", stalled), ("actions", checker.actions)):
        COUNTS[f"campaign_{key}"] += value
        record_property(key, value)
    COUNTS["campaign_cases"] += 1
    print(f"\n[fuzz-games] {case}: {games} games at {len(counts)} player counts, {stalled} stalled, "
          f"{checker.actions} actions checked (campaign so far: cases {COUNTS['campaign_cases']}, "
          f"games {COUNTS['campaign_games']}, actions {COUNTS['campaign_actions']}, "
          f"pairs refused {COUNTS['campaign_pairs_refused']})")


@pytest.mark.parametrize("case", SAMPLE)
def test_shipped_cases_play_safely(record_property, case):
    _campaign_case(record_property, case, None, games_in_all=2)


@slow
@pytest.mark.slow
@pytest.mark.parametrize("case", CASES)
def test_shipped_cases_play_safely_long(record_property, case):
    # Pairs get PAIR_GAMES in all rather than per player count, and the deep checks are spaced
    # out: the whole campaign then fits in about half an hour on two cores.
    if case.startswith("pair:"):
        _campaign_case(record_property, case, None, PAIR_GAMES, deep_every=25, deep_other=5)
    else:
        _campaign_case(record_property, case, CAMPAIGN_GAMES, deep_every=25, deep_other=5)


# ---------------------------------------------------------------- bugs found, pinned


def _setup_eliminates(section: str) -> Game:
    result = compile_text(f"unodsl: 1\nname: Generated\nextends: base.yaml\n{section}\n")
    assert not result.errors, [d.header() for d in result.diagnostics]
    return result.game


# A set-up effect (on_deal, a start card) that left one player in play did not end the round: the
# lone player played on, and the fast path then parted from the reference mode. Fixed: set-up settles.
@pytest.mark.parametrize("section", ["deal: {on_deal: eliminate next}", "start: {default: eliminate next}"])
def test_round_ends_when_the_deal_leaves_one_player(section):
    state = _setup_eliminates(section).new_game(2, seed=0)
    assert state.eliminated == [True, False]
    assert state.is_over and state.winner == 1


def test_fast_and_reference_agree_after_the_deal_left_one_player():
    game = _setup_eliminates("deal: {on_deal: eliminate next}")
    fast, reference = game.new_game(2, seed=0), Game(game.variant, fast=False).new_game(2, seed=0)
    assert fast.is_over and fast.to_json() == reference.to_json()


# A deal effect that emptied a hand (the dealer gives all their cards away) did not end a first_out
# round; the fast path then played on where the reference mode ended the round.
def test_round_ends_when_the_deal_empties_a_hand():
    game = _setup_eliminates("deal: {hand_size: 3, on_deal: self gives 3 to next}")
    fast, reference = game.new_game(3, seed=0), Game(game.variant, fast=False).new_game(3, seed=0)
    for action in ["give blue_3", "give red_skip", "give red_9", "play blue_3"]:
        if fast.is_over:
            break
        fast.apply(action)
        reference.apply(action)
    assert fast.is_over and fast.to_json() == reference.to_json()


# A match whose every round ends in its own set-up (the deal eliminates the dealer, leaving one player)
# dealt each next round from inside the last one: past about a hundred rounds, a RecursionError.
# Found by the long template campaign. Fixed: Flow.new_round deals such rounds in a loop.
def test_a_match_whose_rounds_all_end_in_their_set_up_plays_them_all():
    game = _setup_eliminates("deal: {on_deal: eliminate self}")
    for fast in (True, False):
        state = Game(game.variant, fast=fast).new_game(2, seed=0, match=True)
        assert state.is_over and state.round == game.variant.max_rounds == 1000


# A set-up that puts a player out of cards in a team_out round runs the player-out events before any
# turn; one that paused for a decision there saved a state the loader refused ('next_player' -1 with
# 'after' "outs"). Found by the long template campaign. Fixed: the loader allows it before the first turn.
def test_a_state_paused_in_the_set_ups_player_out_events_saves_and_loads():
    game = _setup_eliminates("players: {allowed: [4]}\nteams: {size: 2}\nround: {ends_when: team_out}\n"
                             "deal: {hand_size: 1, on_deal: self gives 1 to next}\n"
                             "events: {player_out: next gives 1 to next of next}")
    for fast in (True, False):
        state = Game(game.variant, fast=fast).new_game(4, seed=0)
        state.apply_id(state.legal_action_ids()[0])         # the dealer gives away their only card
        assert state.decision == D.GIVE and state.after == "outs" and state.next_player == -1
        assert State.from_json(game, state.to_json()).to_json() == state.to_json()


# A player eliminated (round.eliminate_when) while the catch window was open stayed catchable: the
# catch made them draw, and an eliminated player held cards. Found by the long template campaign
# (template seed 649, its fourth game); fixed in ops.eliminate. This pins that game, checked throughout.
def test_a_player_eliminated_while_the_catch_window_is_open_cannot_be_caught():
    base, text = template_variant(random.Random(649))
    game = compile_text(text, base).game
    assert game.variant.eliminate_when and "after_draw" in text
    GameChecker(game, Game(game.variant, fast=False), "template 649").play(3, 649_003, match=True)


# A gift whose taker a card of it knocked out (round.eliminate_when) went on to the eliminated player:
# 'give' asked for the next card with an eliminated destination. Found by the extended template
# campaign (template 186, its second game, issue 30's "keep it fixed"); fixed in Moves._apply_give.
def test_a_gift_stops_when_a_card_of_it_eliminates_the_taker():
    base, text = template_variant(random.Random(186), extra=random.Random(~186))
    game = compile_text(text, base).game
    assert game.variant.eliminate_when and " gives " in text
    GameChecker(game, Game(game.variant, fast=False), "template 186").play(4, 186_001)


# A match on a deck whose every card scores 0 never ended: no score reaches the target. scoring.max_rounds
# (default 1,000) bounds it; here 30, so the test plays few rounds.
def test_a_match_on_a_zero_point_deck_ends():
    game = _setup_eliminates("cards: {number: {points: 0}, skip: {points: 0}, wild: {points: 0}}\n"
                             "scoring: {max_rounds: 30}")
    state = game.new_game(2, seed=1, match=True)
    rng = random.Random(1)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            break
        legal = state.legal_action_ids()
        state.apply_id(legal[rng.randrange(len(legal))])
    assert state.is_over, f"still playing after {MAX_DECISIONS} decisions, round {state.round}, scores {state.scores}"
    assert state.round == 30 and state.scores == [0, 0] and state.winner is None
