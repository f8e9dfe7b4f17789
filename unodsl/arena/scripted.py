"""The benchmark's scripted agents: yardsticks that show what the benchmark can tell apart, with no model.

`classic-reader` plays and answers by the rules of classic UNO as everyone knows them (match the color,
the number or the symbol; a wild on anything; draw at any time), reading only its seat's view: the
stand-in for a player that states a changed rule and still plays the old one. `guesser` answers at random
and plays a random card of its hand. Both speak the seat protocol (`act`) and the benchmark's questions
(`answer`); neither is ever given the list of legal actions at a turn.
"""

from __future__ import annotations

import random

from ..effects import layout as D

CLASSIC_FILE = "unodsl: 1\nname: my reading of the rules\nextends: classic\n"


def _classic_playable(game, card: int, top: int, color: int) -> bool:
    """Classic's matching rule: a wild on anything; else the color in play, or the top card's number or type."""
    if game.k_wild[card] or game.k_color[card] < 0:
        return True
    if color < 0 or top < 0:
        return True
    if game.k_color[card] == color:
        return True
    if game.k_number[card] >= 0:
        return game.k_number[card] == game.k_number[top]
    return game.k_type[card] == game.k_type[top]


class ClassicReader:
    """Plays and judges every variant by classic's rules, from its seat's view only."""

    def __init__(self):
        self.rng = random.Random(0)

    def _plays(self, view) -> list[str]:
        game, obs = view.game, view.observation
        top = game.card_index.get(obs["top"], -1)
        color = game.variant.colors.index(obs["color"]) if obs["color"] in game.variant.colors else -1
        hand = sorted(set(obs["hand"]), key=lambda name: (game.k_wild[game.card_index[name]], name))
        plays = [f"play {name}" for name in hand if _classic_playable(game, game.card_index[name], top, color)]
        if len(obs["hand"]) == 2:
            plays = [p + " uno" for p in plays]
        return plays

    def act(self, view):
        decision = view.decision
        if decision == D.TURN:
            return (self._plays(view) or ["draw"])[0]
        if decision == D.COLOR:
            held = [view.game.k_color[view.game.card_index[c]] for c in view.observation["hand"]]
            counts = [held.count(i) for i in range(len(view.game.variant.colors))]
            return f"color {view.game.variant.colors[counts.index(max(counts))]}"
        if decision == D.DRAWN:
            drawn = view.observation.get("drawn")
            plays = [p for p in self._plays(view) if p.split()[1] == drawn]
            return plays[0] if plays else "keep"
        if decision == D.CHALLENGE:
            return "accept"
        return view.legal_actions[0]        # a decision classic's turn has no words for: the first offered

    def answer(self, question: dict) -> str:
        view = question["view"]
        if question["kind"] == "is_legal":
            legal = self._plays(view) + ["draw"] if view.decision == D.TURN else []
            return "ANSWER: yes" if question["action"] in legal else "ANSWER: no"
        if question["kind"] == "list_legal":
            return "ANSWER:\n" + "\n".join(self._plays(view) + ["draw"])
        return CLASSIC_FILE


class Guesser:
    """Answers at random; plays a random card of its hand (or draws), from its seat's generator."""

    def act(self, view):
        rng = view.rng or random.Random(0)
        hand = view.observation["hand"]
        if view.decision == D.TURN and hand and rng.random() < 0.8:
            return f"play {rng.choice(hand)}"
        if view.decision == D.COLOR:
            return f"color {rng.choice(view.game.variant.colors)}"
        return rng.choice(["draw", "pass", "keep", "accept"])

    def answer(self, question: dict) -> str:
        rng = random.Random(question["id"])
        if question["kind"] == "is_legal":
            return rng.choice(["ANSWER: yes", "ANSWER: no"])
        if question["kind"] == "list_legal":
            hand = question["view"].observation["hand"]
            return "ANSWER:\n" + "\n".join(["draw"] + [f"play {c}" for c in hand if rng.random() < 0.5])
        return CLASSIC_FILE
