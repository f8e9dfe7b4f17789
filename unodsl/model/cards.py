"""The deck sections of a variant: card types and their copies, attributes, piles, the sides of a
two-sided deck (E301-E303, E313, E314, E317-E319, E325).

`CardSections` is a mixin of `build._Builder`: its methods read the tree through the builder's
accessors (`get`, `scalar`, `strings`) and report through its `error`.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from ..diagnostics import suggestion_suffix
from ..source.yaml_tree import Node
from .variant import MAX_COUNT, CardType, LastCard, Pile, RestrictionCheck, Scoring, Text

_KIND_WORDS = {"bool": "true/false", "int": "number", "color": "color", "string": "string"}
# What `card.NAME` reads on every card; `attrs:` may not reuse these names (E325).
BUILTIN_ATTRIBUTES = ("number", "points", "draw", "color", "type", "kind")


def attr_kind(value: object, colors: tuple[str, ...]) -> str:
    """What an `attrs:` value is: "bool", "int", "color" (a string naming a color) or "string"."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    return "color" if value in colors else "string"


class CardSections:
    """The builder's card, pile and side sections."""

    def check_card_ref(self, card_id: str, node: Node, cards: dict) -> None:
        if card_id not in cards:
            self.error(node, "E301", f"unknown card type '{card_id}'" + suggestion_suffix(card_id, cards))

    def build_cards(self, colors: list[str], sides: dict[str, list[str]]) -> dict[str, CardType]:
        cards_node = self.get(self.root, "cards")
        out: dict[str, CardType] = {}
        if cards_node is None or cards_node.kind != "map":
            return out
        for card_id, spec in cards_node.value.items():
            if spec.kind == "scalar" and spec.value is None:
                continue                     # `card: null` in an including file removes the type
            if spec.kind != "map":
                continue
            side, side_colors = "", colors
            if sides:
                side = self.scalar(spec, "side", next(iter(sides)), str)
                if side not in sides:
                    self.error(self.get(spec, "side"), "E317", f"unknown side '{side}'" + suggestion_suffix(side, sides))
                    continue
                side_colors = sides[side]
            else:
                for key in ("side", "back"):
                    if self.get(spec, key) is not None:
                        self.error(self.get(spec, key), "E317", f"'{key}' needs a two-sided deck: "
                                   "declare its sides at the top level (sides: {light: [...], dark: [...]})")
            card = self.build_card(card_id, spec, colors, side_colors)
            if card is not None and sides:
                card = replace(card, side=side, back=self.scalar(spec, "back", None, str))
            if card is not None:
                out[card_id] = card
        return out

    def _given_twice(self, card_id: str, twice: list[int], key: str, node: Node,
                     given_by: dict[int, tuple[str, Node]]) -> None:
        """E303 once for each earlier key that gave some of `twice` again; an inherited key is named, with
        where it comes from and how to remove it."""
        shown = set()
        for n in twice:
            other_key, other = given_by[n]
            if other_key in shown:
                continue
            shown.add(other_key)
            numbers = [m for m in twice if given_by[m][0] == other_key]
            which = (f"number {numbers[0]}" if len(numbers) == 1 else
                     f"numbers {numbers[0]}-{numbers[-1]}" if numbers == list(range(numbers[0], numbers[-1] + 1))
                     else "numbers " + ", ".join(map(str, numbers)))
            verb = "is" if len(numbers) == 1 else "are"
            if other.path != node.path:
                self.error(node, "E303", f"{which} of '{card_id}' given by '{key}' here {verb} also given by "
                           f"'{other_key}', inherited from {os.path.basename(other.path)} (line {other.line}): "
                           f"to replace that range, remove it with '\"{other_key}\": null'")
            else:
                self.error(node, "E303", f"{which} of '{card_id}' given by '{key}' {verb} also given by "
                           f"'{other_key}'")

    def build_card(self, card_id: str, spec: Node, colors: list[str],
                   side_colors: list[str] | None = None) -> CardType | None:
        wild = self.scalar(spec, "wild", False, bool)
        numbers_node = self.get(spec, "numbers")
        numbers: dict[int | None, int] = {}
        given_by: dict[int, tuple[str, Node]] = {}          # number -> the key and count that gave it
        if numbers_node is not None and numbers_node.kind == "map":
            for key, count_node in numbers_node.value.items():
                count = count_node.value if count_node.kind == "scalar" else None
                if not isinstance(count, int) or isinstance(count, bool):
                    continue
                rng = self.number_range(str(key), count_node)
                if rng is None:
                    continue
                if count > MAX_COUNT or count < 0:
                    continue                  # the schema reports the range (E204)
                twice = [n for n in rng if n in numbers]
                if twice:
                    self._given_twice(card_id, twice, str(key), count_node, given_by)
                for n in rng:
                    numbers[n] = count
                    given_by[n] = (str(key), count_node)
        per_color = self.scalar(spec, "per_color", None, int)
        count = self.scalar(spec, "count", None, int)
        for key, val in (("per_color", per_color), ("count", count)):
            if self.get(spec, key) is not None and val is None:
                return None                   # present but not an integer: the schema reports it (E202)
            if val is not None and not 0 <= val <= MAX_COUNT:
                return None                   # the schema reports the range (E204)
        card_colors = colors if side_colors is None else side_colors
        if self.get(spec, "colors") is not None:
            card_colors = []
            for color, node in self.strings(spec, "colors"):
                if color not in colors:
                    self.error(node, "E302", f"unknown color '{color}'" + suggestion_suffix(color, colors))
                else:
                    card_colors.append(color)
        given = [k for k in ("numbers", "per_color", "count") if self.get(spec, k) is not None]
        if len(given) != 1:
            self.error(spec, "E303", f"card type '{card_id}' needs exactly one of numbers, per_color or count"
                       + (f" (it has {', '.join(given)})" if given else ""))
            return None
        copies: dict[str, dict[int | None, int]] = {}
        if numbers_node is not None and not numbers:
            self.error(numbers_node, "E303", f"card type '{card_id}' lists no valid numbers")
            return None
        if count is not None:
            copies[""] = {None: count}
        elif wild and not card_colors:
            copies[""] = numbers if numbers else {None: per_color or 0}
        else:
            for color in card_colors:
                copies[color] = dict(numbers) if numbers else {None: per_color}
        kind = self.scalar(spec, "kind", "number" if numbers else ("wild" if wild else "action"), str)
        points_node = self.get(spec, "points")
        points: int | None = 0
        if points_node is not None and points_node.kind == "scalar":
            if points_node.value == "face":
                points = None
                if not numbers:
                    self.error(points_node, "E313", f"'{card_id}' scores its face value but has no numbers")
            elif isinstance(points_node.value, int):
                points = points_node.value
        elif self.mode(self.get(self.root, "scoring"), "mode", Scoring.WINNER_COLLECTS) is not Scoring.NONE:
            self.error(spec, "E314", f"card type '{card_id}' has no points but scoring is on")
        return CardType(
            id=card_id,
            name=self.scalar(spec, "name", card_id.replace("_", " ").title(), str),
            kind=kind,
            wild=wild,
            copies=copies,
            points=points,
            draw=self.scalar(spec, "draw", 0, int),
            label=self.scalar(spec, "label", "", str),
            **self.restrictions(card_id, spec),
            on_play=self.text(spec, "on_play"),
            on_start=self.text(spec, "on_start"),
            last_card=self.mode(spec, "last_card", LastCard.RESOLVE),
            text=self.scalar(spec, "text", None, str),
            node=spec,
            attrs=self.card_attrs(card_id, spec),
            match=self.condition(spec, "match"),
            on_stack=self.text(spec, "on_stack"),
            on_stack_if=self.condition(spec, "on_stack_if"),
        )

    def restrictions(self, card_id: str, spec: Node) -> dict[str, Text | None]:
        """A card's strict and challenge conditions: `restriction: C` is the one `restriction_check` names,
        `restriction: {strict: C, challenge: D}` one or both (E327: neither, or a restriction_check beside)."""
        node = self.get(spec, "restriction")
        if node is None or node.kind != "map":
            one = self.condition(spec, "restriction")
            check = self.mode(spec, "restriction_check", RestrictionCheck.CHALLENGE)
            return {"strict": one if check is RestrictionCheck.STRICT else None,
                    "challenge": one if check is RestrictionCheck.CHALLENGE else None}
        check = self.get(spec, "restriction_check")
        # One inherited from a one-condition restriction (extends:, a house rule) gives way to the keys.
        if check is not None and check.value is not None and check.path == node.path:
            self.error(check, "E327", f"'{card_id}' names its restrictions' checks by key (strict:, challenge:): "
                                      "restriction_check is for a one-condition restriction")
        if not node.value:
            self.error(node, "E327", f"'{card_id}' has a restriction with no condition: give strict:, challenge: "
                                     "or both")
        return {"strict": self.condition(node, "strict"), "challenge": self.condition(node, "challenge")}

    def build_piles(self) -> dict[str, Pile]:
        """The declared piles; `draw` and `discard` name the two every game has (E319)."""
        node = self.get(self.root, "piles")
        out: dict[str, Pile] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue                              # null removed an inherited pile; else the schema reported it
            if name in ("draw", "discard"):
                self.error(spec, "E319", f"'{name}' is the {name} pile every game has: give the pile another name")
                continue
            face_up = self.scalar(spec, "face", "up", str) == "up"
            playable = bool(self.scalar(spec, "playable", False, bool))
            if playable and not face_up:
                self.error(self.get(spec, "playable") or spec, "E326",
                           f"the playable pile '{name}' is face down: a card is played on a top card all can see "
                           "(face: up)")
            elif playable and self.get(self.get(self.root, "turn"), "sets") is not None:
                self.error(self.get(spec, "playable") or spec, "E326",
                           f"the playable pile '{name}' and turn.sets: a set is played on the discard pile only")
            per_player = bool(self.scalar(spec, "per_player", False, bool))
            if per_player and playable:
                self.error(self.get(spec, "per_player") or spec, "E329",
                           f"the pile '{name}' is each player's own and playable: a pile of each player is not "
                           "played on yet (declare one shared playable pile, or take cards from it)")
            deal = self.scalar(spec, "deal", 0, int)
            count = self.scalar(spec, "count", 0, int)
            if per_player and count:
                self.error(self.get(spec, "count") or spec, "E328",
                           f"the pile '{name}' is each player's own and an array of {count}: a pile of each player "
                           "is one pile per player")
                count = 0
            per_role = bool(self.scalar(spec, "per_role", False, bool))
            if per_role:
                where = self.get(spec, "per_role") or spec
                names = self.get(self.get(self.root, "roles"), "names")
                if names is None or names.kind != "map" or not names.value:
                    self.error(where, "E371", f"the pile '{name}' is each role's own, but the variant declares no "
                                              "roles (roles: names:)")
                    per_role = False
                else:
                    other = [key for key, on in (("per_player: true", per_player), (f"count: {count}", count),
                                                 ("playable: true", playable)) if on]
                    if other:
                        self.error(where, "E372", f"the pile '{name}' is each role's own and {other[0]}: a pile of "
                                                  "each role is one pile per role, not played on (no per_player, "
                                                  "count or playable)")
                        per_role = False
            out[str(name)] = Pile(str(name), face_up, spec, playable, per_player, deal, count, per_role,
                                  self.condition(spec, "where"))
        return out

    def check_attrs(self, cards: dict[str, CardType], colors: tuple[str, ...]) -> None:
        """E318 for an attribute that holds values of two kinds on two card types (card.NAME has one type)."""
        first: dict[str, tuple[str, str]] = {}
        for card in cards.values():
            for name, value in card.attrs.items():
                kind = attr_kind(value, colors)
                seen = first.setdefault(name, (kind, card.id))
                if seen[0] != kind:
                    node = self.get(self.get(card.node, "attrs"), name)
                    self.error(node, "E318", f"attribute '{name}' is a {_KIND_WORDS[kind]} on '{card.id}' but a "
                                             f"{_KIND_WORDS[seen[0]]} on '{seen[1]}'")

    def card_attrs(self, card_id: str, spec: Node) -> dict[str, object]:
        """A card type's `attrs:`; a name the language already gives every card is E325."""
        node = self.get(spec, "attrs")
        out: dict[str, object] = {}
        if node is None or node.kind != "map":
            return out
        for name, value in node.value.items():
            if name in BUILTIN_ATTRIBUTES:
                self.error(value, "E325", f"'{name}' is already an attribute of every card (card.{name}): "
                                          f"give '{card_id}' an attribute of another name")
            elif value.kind == "scalar" and isinstance(value.value, (bool, int, str)):
                out[str(name)] = value.value          # any other value the schema reported (E202)
        return out

    def number_range(self, key: str, node: Node) -> range | None:
        m = re.fullmatch(r"(\d{1,4})(?:-(\d{1,4}))?", key)
        if not m:
            self.error(node, "E303", f"'{key}' is not a number or a range like 1-9")
            return None
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) else lo
        if hi < lo:
            self.error(node, "E303", f"range {key} is empty")
            return None
        return range(lo, hi + 1)

    # --- a two-sided deck

    def build_sides(self, colors: list[str]) -> dict[str, list[str]]:
        """`sides:` (side name -> its colors, in order), or {} for a one-sided deck; E302 for a color
        that is not one of the variant's."""
        node = self.get(self.root, "sides")
        out: dict[str, list[str]] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            out[name] = []
            for color, at in self.strings(node, name):
                if color not in colors:
                    self.error(at, "E302", f"unknown color '{color}'" + suggestion_suffix(color, colors))
                else:
                    out[name].append(color)
        if len(out) != 2:
            self.error(node, "E317", f"a two-sided deck has two sides, not {len(out)}")
            return {}
        return out

    def check_backs(self, cards: dict[str, CardType], sides: list[str]) -> None:
        """E317 unless every first-side type names a back on the other side that pairs with it card for
        card (color by position in the type's colors, the same numbers, the same copies), and every
        other-side type is the back of exactly one type; E301 for a back of an unknown type."""
        first, other = sides
        backed: dict[str, str] = {}
        for ct in cards.values():
            back_node = self.get(ct.node, "back")
            if ct.side != first:
                if back_node is not None:
                    self.error(back_node, "E317", f"'{ct.id}' is on the {other} side: only the {first} side's "
                               f"card types name their back (the {other} face is printed on it)")
                continue
            if ct.back is None:
                self.error(ct.node, "E317", f"card type '{ct.id}' is on the {first} side of a two-sided deck "
                           f"and needs a 'back:', the {other} card type printed on its other face")
                continue
            back = cards.get(ct.back)
            if back is None:
                self.error(back_node, "E301", f"unknown card type '{ct.back}'"
                           + suggestion_suffix(ct.back, [c.id for c in cards.values() if c.side == other]))
            elif back.side != other:
                self.error(back_node, "E317", f"the back of '{ct.id}' must be a card type of the {other} side, "
                           f"but '{back.id}' is on the {first} side")
            elif back.id in backed:
                self.error(back_node, "E317", f"'{back.id}' is already the back of '{backed[back.id]}': "
                           "each card type of the other side backs one type")
            elif list(ct.copies.values()) != list(back.copies.values()):
                self.error(back_node, "E317", f"'{ct.id}' and its back '{back.id}' do not pair card for card: "
                           f"they need as many colors (the first of one backs the first of the other, and so on), "
                           f"the same numbers and the same copies of each ({_copies(ct)} against {_copies(back)})")
            else:
                backed[back.id] = ct.id
        for ct in cards.values():
            if ct.side == other and ct.id not in backed and not any(c.back == ct.id for c in cards.values()):
                self.error(ct.node, "E317", f"card type '{ct.id}' is on the {other} side but is the back of "
                           f"no card type: name it as the 'back:' of a {first} card type")


def _copies(ct: CardType) -> str:
    """A type's cards in short, for a diagnostic: '4 colors x 2 copies of 1-9' and the like."""
    colors = [c for c in ct.copies if c] or ["no color"]
    counts = sorted({n for by in ct.copies.values() for n in by.values()})
    numbers = sorted(n for n in next(iter(ct.copies.values()), {}) if n is not None)
    what = f"numbers {numbers[0]}-{numbers[-1]}" if numbers else "the card"
    return f"{len(colors) if colors != ['no color'] else 'no'} color{'s' if len(colors) != 1 else ''}, " \
           f"{'/'.join(map(str, counts))} of {what}"
