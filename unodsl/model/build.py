"""Building the typed variant: a merged, schema-checked YAML tree -> a frozen `Variant` and E3xx.

The deck sections (card types, piles, sides) are `cards.CardSections`; this module holds the
builder's accessors, the top-level sections and the cross-checks between them.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum

from ..diagnostics import Diagnostic, suggestion_suffix
from ..source.yaml_tree import Node
from .cards import CardSections
from .variables import build_variables
from .variant import (MAX_CARDS, Conflict, Window, Dealer, Distribution, DrawnCard, EliminatedCards, NoPlayable,
                      CatchLimit, Function, Procedure, Role, RolesGiven, RoundEnds, Ruling, ScoreBy, Scoring, SET_MAX_DEFAULT, SetRule, Stacking, Stall, Text,
                      Variant)

_SNAKE = re.compile(r"[a-z][a-z0-9_]*")     # a name the schema allows as a distribution's value


def _quiet_range(key: str) -> range | None:
    """A player-count range key ("2-6", "7") read without reporting (its problems are reported once)."""
    m = re.fullmatch(r"(\d{1,4})(?:-(\d{1,4}))?", key)
    if not m:
        return None
    low = int(m.group(1))
    high = int(m.group(2)) if m.group(2) else low
    return range(low, high + 1) if low <= high else None


def _packs_for(packs: tuple, players: int) -> int:
    return next((n for low, high, n in packs if low <= players <= high), 1)


def _origin(node: Node) -> str:
    """Where an inherited value was written: a shipped variant by its name, else path:line:col."""
    import os
    from ..source import catalog
    try:
        shipped = os.path.realpath(catalog.folder())
    except FileNotFoundError:
        shipped = None
    real = os.path.realpath(node.path)
    if shipped and os.path.dirname(real) in (shipped, os.path.join(shipped, catalog.HOUSE_RULES)):
        return f"the shipped variant '{os.path.splitext(os.path.basename(real))[0]}' (line {node.line})"
    return f"{node.path}:{node.line}:{node.column}"


class _Builder(CardSections):
    """Turns a merged YAML tree into a Variant, collecting diagnostics."""

    def __init__(self, root: Node, path: str, house_rules: list[Node], links: dict[str, Node | None]):
        self.root = root
        self.path = path
        self.house_rule_nodes = house_rules
        self.links = links
        self.diags: list[Diagnostic] = []

    def error(self, node: Node | None, code: str, message: str, severity: str = "error") -> None:
        """Record a diagnostic at `node` (or at the file start)."""
        if node is None:
            self.diags.append(Diagnostic(self.path, 1, 1, code, message, severity))
        elif node.kind == "map" and node.key_line is not None:
            # A problem with a whole section or card points at the key that names it.
            self.diags.append(Diagnostic(node.path, node.key_line, node.key_column, code, message, severity))
        else:
            self.diags.append(Diagnostic(node.path, node.line, node.column, code, message, severity))

    def deck_total_error(self, total: Node, declared: int, deck_size: int) -> None:
        """E307; a total inherited from a file the user does not edit is reported in the checked file.

        There it is put at what changed the deck: the file's own `cards` key, else the
        `extends`/`include` entry that brought the cards in.
        """
        if total.path == self.path:
            self.error(total, "E307", f"deck.total says {declared} cards but the card types add up to {deck_size}")
            return
        cards = self.get(self.root, "cards")
        at = cards if cards is not None and cards.path == self.path else None
        if at is None and cards is not None:
            at = self.links.get(cards.path)
        if at is None:
            at = self.links.get(total.path)
        self.error(at, "E307", f"the card types add up to {deck_size} cards, but deck.total, inherited from "
                               f"{_origin(total)}, says {declared}: "
                               f"add 'deck: {{total: {deck_size}}}' to this file")

    # --- typed accessors; the schema has already reported type errors, so these stay quiet.

    def get(self, node: Node | None, key: str) -> Node | None:
        if node is None or node.kind != "map":
            return None
        return node.value.get(key)

    def scalar(self, node: Node | None, key: str, default, kind=None):
        child = self.get(node, key)
        if child is None or child.kind != "scalar" or child.value is None:
            return default
        value = child.value
        if kind is int and (not isinstance(value, int) or isinstance(value, bool)):
            return default
        if kind is bool and not isinstance(value, bool):
            return default
        if kind is str and not isinstance(value, str):
            return default
        return value

    def mode(self, node: Node | None, key: str, default: StrEnum) -> StrEnum:
        """A rule mode: the member named by the YAML word; any other value the schema reported (E2xx)."""
        word = self.scalar(node, key, default.value, str)
        return type(default)(word) if word in type(default)._value2member_map_ else default

    def text(self, node: Node | None, key: str) -> Text | None:
        """An effect's source text; anything but a string was already reported by the schema."""
        child = self.get(node, key)
        if child is None or child.kind != "scalar" or not isinstance(child.value, str):
            return None
        return Text(child.value, child)

    def condition(self, node: Node | None, key: str) -> Text | None:
        """A condition's source text; a YAML boolean is the condition `true` or `false`."""
        child = self.get(node, key)
        if child is not None and child.kind == "scalar" and isinstance(child.value, bool):
            return Text("true" if child.value else "false", child)
        return self.text(node, key)

    def strings(self, node: Node | None, key: str) -> list[tuple[str, Node]]:
        child = self.get(node, key)
        if child is None or child.kind != "seq":
            return []
        return [(str(item.value), item) for item in child.value if item.kind == "scalar" and item.value is not None]

    # --- sections

    def build(self) -> Variant | None:
        root = self.root
        colors = [c for c, _ in self.strings(root, "colors")]
        sides = self.build_sides(colors)
        cards = self.build_cards(colors, sides)
        if sides:
            self.check_backs(cards, list(sides))
        players = self.get(root, "players")
        min_p = self.scalar(players, "min", 2, int)
        max_p = self.scalar(players, "max", 10, int)
        allowed = [v for v in (self.scalar_list(players, "allowed")) if isinstance(v, int)] or None
        if allowed:
            min_p, max_p = min(allowed), max(allowed)
        if max_p < min_p:
            self.error(self.get(players, "max"), "E310", f"players.max ({max_p}) is below players.min ({min_p})")
        teams = self.get(root, "teams")
        team_size = self.scalar(teams, "size", 1, int) if teams is not None else 1
        if team_size > 1:
            for n in allowed or range(min_p, max_p + 1):
                if n % team_size:
                    self.error(players, "E311", f"{n} players cannot sit in teams of {team_size}")
                    break
                if n == team_size:
                    self.error(players, "E311", f"{n} players in teams of {team_size} make a single team; "
                                                "a team game needs at least two")
                    break
        deal = self.get(root, "deal")
        hand_size = self.scalar(deal, "hand_size", 7, int)
        deck_node = self.get(root, "deck")
        declared = self.scalar(deck_node, "total", None, int)
        variant_cards = {k: v for k, v in cards.items()}
        self.check_attrs(variant_cards, tuple(colors))
        deck_size = sum(n for ct in variant_cards.values() if not sides or ct.side == next(iter(sides))
                        for by in ct.copies.values() for n in by.values())
        if declared is not None and declared != deck_size:
            self.deck_total_error(self.get(deck_node, "total"), declared, deck_size)
        if deck_size > MAX_CARDS:
            self.error(self.get(root, "cards"), "E308", f"the deck has {deck_size} cards, over the limit of {MAX_CARDS}")
        else:
            start_card = self.scalar(self.get(root, "start"), "card", True, bool)
            packs = self.build_packs(deck_node, allowed or range(min_p, max_p + 1))
            for n in sorted(allowed or range(min_p, max_p + 1), reverse=True):     # the largest table first
                size = deck_size * _packs_for(packs, n)
                if size > MAX_CARDS:
                    self.error(self.get(deck_node, "packs"), "E308", f"with {n} players the deck has {size} cards "
                               f"({_packs_for(packs, n)} packs), over the limit of {MAX_CARDS}")
                    break
                if cards and size < n * hand_size + start_card:
                    where = self.get(deck_node, "packs") or self.get(players, "max") or self.get(root, "cards") or None
                    self.error(where, "E309", f"a deck of {size} cards cannot deal {hand_size} cards to {n} players"
                               + (" and turn a start card" if start_card else ""))
                    break
        if not cards and not self.house_rule_nodes:
            self.error(self.get(root, "cards") or None, "E306", "the variant defines no cards")
        turn = self.get(root, "turn")
        uno = self.get(root, "uno")
        stacking = self.get(root, "stacking")
        stack_on = self.scalar(stacking, "enabled", stacking is not None, bool)
        stack_mode = self.mode(stacking, "answer", Stacking.SAME_TYPE) if stack_on else Stacking.NONE
        stack_cards = None
        if stacking is not None and self.get(stacking, "cards") is not None:
            stack_cards = []
            for card_id, node in self.strings(stacking, "cards"):
                self.check_card_ref(card_id, node, cards)
                stack_cards.append(card_id)
        self.check_stacking(stacking, stack_mode, stack_cards, cards)
        skips = self.get(stacking, "skips") if stack_on else None
        skip_answers = None
        if skips is not None and skips.kind == "map":
            skip_answers = []
            for card_id, node in self.strings(skips, "cards"):
                self.check_card_ref(card_id, node, cards)
                skip_answers.append(card_id)
            if not skip_answers:
                self.error(self.get(skips, "cards") or skips, "E363", "stacking.skips.cards lists no card, so no "
                           "card could answer a skip: list the card types that answer one")
        jump = self.get(root, "jump_in")
        events = self.get(root, "events")
        rnd = self.get(root, "round")
        scoring = self.get(root, "scoring")
        rulings = self.build_rulings(colors)
        state, player_state = build_variables(root, colors, cards, rulings, self.error)
        conflicts = self.build_conflicts()
        self.check_exclusive()
        score_by = self.mode(scoring, "by", ScoreBy.TEAM if team_size > 1 else ScoreBy.PLAYER)
        round_ends = self.mode(rnd, "ends_when", RoundEnds.FIRST_OUT)
        if team_size < 2:
            if score_by is ScoreBy.TEAM:
                self.error(self.get(scoring, "by"), "E312", "scoring.by is 'team' but the variant has no teams")
            if round_ends is RoundEnds.TEAM_OUT:
                self.error(self.get(rnd, "ends_when"), "E312", "round.ends_when is 'team_out' but the variant has no teams")
        return Variant(
            name=self.scalar(root, "name", "unnamed", str),
            description=self.scalar(root, "description", None, str),
            path=self.path,
            sources=tuple(s for s, _ in self.strings(root, "sources")),
            house_rules=tuple(self.house_rule_ids()),
            conflicts=conflicts,
            house_rule_links=self.house_rule_links(),
            min_players=min_p,
            max_players=max_p,
            allowed_players=tuple(allowed) if allowed else None,
            team_size=team_size,
            colors=tuple(colors),
            cards=variant_cards,
            declared_total=declared,
            hand_size=hand_size,
            dealer=self.mode(deal, "dealer", Dealer.RANDOM),
            on_deal=self.text(deal, "on_deal"),
            start_default=self.text(self.get(root, "start"), "default"),
            no_playable=self.mode(turn, "no_playable", NoPlayable.DRAW_ONE),
            may_draw_if=self.condition(turn, "may_draw_if"),
            drawn_card=self.mode(turn, "drawn_card", DrawnCard.OPTIONAL),
            lock_allows_wild=self.scalar(turn, "lock_allows_wild", False, bool),
            turn_draw=self.text(turn, "draw"),
            uno_enabled=self.scalar(uno, "enabled", True, bool),
            uno_penalty=self.scalar(uno, "penalty", 0 if self.text(uno, "penalty") else 2, int),
            uno_penalty_effect=self.text(uno, "penalty"),
            uno_at=self.scalar(uno, "at", 1, int),
            uno_partner_may_call=self.scalar(uno, "partner_may_call", False, bool),
            stacking=stack_mode,
            stack_cards=tuple(stack_cards) if stack_cards is not None else None,
            stack_challenge=self.scalar(stacking, "challenge", False, bool),
            skip_answers=tuple(skip_answers) if skip_answers is not None else None,
            skips_counted=bool(self.scalar(skips, "counted", False, bool)),
            jump_in=self.scalar(jump, "enabled", jump is not None, bool),
            jump_in_wilds=self.scalar(jump, "wilds", False, bool),
            on_player_out=self.text(events, "player_out"),
            after_draw=self.text(events, "after_draw"),
            round_ends=round_ends,
            max_turns=self.scalar(rnd, "max_turns", 3000, int),
            stall=self.mode(rnd, "stall", Stall.FEWEST_POINTS),
            eliminate_when=self.condition(rnd, "eliminate_when"),
            win_when=self.condition(rnd, "win_when"),
            eliminated_cards=self.mode(rnd, "eliminated_cards", EliminatedCards.UNDER_DRAW),
            on_round_end=self.text(rnd, "on_end"),
            scoring=self.mode(scoring, "mode", Scoring.WINNER_COLLECTS),
            target=self.scalar(scoring, "target", 500, int),
            max_rounds=self.scalar(scoring, "max_rounds", 1000, int),
            score_by=score_by,
            rulings=rulings,
            match=self.condition(root, "match"),
            piles=self.build_piles(),
            distributions=self.build_distributions(colors),
            procedures=self.build_procedures(),
            functions=self.build_functions(),
            windows=self.build_windows(),
            state=state,
            player_state=player_state,
            root=root,
            sides=tuple(sides),
            side_colors=tuple(tuple(c) for c in sides.values()),
            sets=self.build_sets(turn),
            uno_call=self.scalar(uno, "call", "UNO", str),
            **self.build_uno_calls(uno),
            house_rule_summaries={self.scalar(node, "id", "", str): " ".join(self.scalar(node, "summary", "", str).split())
                                  for node in self.house_rule_nodes if self.scalar(node, "summary", "", str)},
            start_card=self.scalar(self.get(root, "start"), "card", True, bool),
            reshuffle=self.scalar(deck_node, "reshuffle", True, bool),
            blocked=self.mode(rnd, "blocked", Stall.FEWEST_POINTS) if self.get(rnd, "blocked") is not None else None,
            packs=self.build_packs(deck_node, None),
            turn_start=self.text(events, "turn_start"),
            turn_end=self.text(events, "turn_end"),
            card_played=self.text(events, "card_played"),
            roles=self.build_roles(max_p),
            roles_given=self.mode(self.get(root, "roles"), "given", RolesGiven.SEAT),
        )

    def build_packs(self, deck: Node | None, counts) -> tuple[tuple[int, int, int], ...]:
        """deck.packs: player-count ranges ("2-6", "7") -> packs of the deck, as (low, high, packs); with `counts`
        (the table sizes allowed) its problems are reported: a key that is no range (E303), two ranges that
        share a table size (E362)."""
        node = self.get(deck, "packs")
        if node is None or node.kind != "map":
            return ()
        out = []
        for key, value in node.value.items():
            packs = value.value if value.kind == "scalar" and isinstance(value.value, int) else None
            if packs is None or isinstance(packs, bool) or packs < 1:
                continue                                      # the schema said what is wrong
            span = self.number_range(str(key), value) if counts is not None else _quiet_range(str(key))
            if span is None:
                continue
            for low, high, _ in out:
                if counts is not None and span.start <= high and low <= span.stop - 1:
                    self.error(value, "E362", f"deck.packs: '{key}' players overlaps the range {low}-{high}: "
                               "each table size plays one number of packs")
                    break
            else:
                out.append((span.start, span.stop - 1, packs))
        return tuple(out)

    def check_stacking(self, stacking: Node | None, mode: Stacking, listed: list[str] | None, cards: dict) -> None:
        """What stacking cannot do, said rather than ignored: a listed card without a draw never answers a
        stack (E360), an empty list lets no card answer (E361), an on_stack effect without stacking never
        runs (W303)."""
        if mode is Stacking.NONE:
            for ct in cards.values():
                if ct.on_stack is not None:
                    self.error(ct.on_stack.node, "W303", f"card type '{ct.id}' has an on_stack effect, but stacking "
                               "is off, so no stack is ever pending and it never runs")
            return
        if listed is None:
            return
        if not listed:
            self.error(self.get(stacking, "cards"), "E361", "stacking.cards lists no card, so no card could answer "
                       "a draw penalty: list the card types that stack, or switch stacking off with 'enabled: false'")
        for card_id, node in self.strings(stacking, "cards"):
            ct = cards.get(card_id)
            if ct is not None and ct.draw <= 0:
                self.error(node, "E360", f"card type '{card_id}' is in stacking.cards but has no draw value, so it "
                           f"could never answer a draw penalty: give it 'draw: N' (the penalty it carries)")

    def build_uno_calls(self, uno: Node | None) -> dict:
        """uno.false_call, uno.catch and uno.out, as the Variant's uno_* fields (each a number or an effect)."""
        catch = self.get(uno, "catch")
        fields = {"uno_catch_if": self.condition(catch, "if"),
                  "uno_catch_limit": self.mode(catch, "limit", CatchLimit.NONE)}
        for name, node, key in (("uno_false_call", uno, "false_call"), ("uno_wrong_catch", catch, "wrong")):
            effect = self.text(node, key)
            fields[name + "_effect"] = effect
            fields[name] = 0 if effect is not None else self.scalar(node, key, None, int)
        out = self.get(uno, "out")
        if out is not None:
            effect = self.text(out, "penalty")
            fields.update(uno_out_call=self.scalar(out, "call", "UNO out", str), uno_out_penalty_effect=effect,
                          uno_out_penalty=0 if effect is not None else self.scalar(out, "penalty", 2, int))
        return fields

    def scalar_list(self, node, key):
        child = self.get(node, key)
        if child is None or child.kind != "seq":
            return []
        return [item.value for item in child.value if item.kind == "scalar"]

    def house_rule_ids(self) -> list[str]:
        return [self.scalar(node, "id", "", str) for node in self.house_rule_nodes]

    def build_rulings(self, colors: list[str]) -> dict[str, Ruling]:
        node = self.get(self.root, "rulings")
        out: dict[str, Ruling] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            value_node = self.get(spec, "value")
            value = value_node.value if value_node is not None and value_node.kind == "scalar" else None
            choices_node = self.get(spec, "choices")
            choices = tuple(self.scalar_list(spec, "choices")) if choices_node is not None else None
            if choices and value not in choices:
                shown = ", ".join(json.dumps(c) for c in choices)
                self.error(value_node or spec, "E315",
                           f"ruling '{name}' has value {json.dumps(value)}, not one of its choices [{shown}]")
            kind = self.scalar(spec, "type", None, str)
            if kind == "color" and value not in colors:
                self.error(value_node or spec, "E343", f"ruling '{name}' is a color, but {json.dumps(value)} is not "
                           "one of the colors" + suggestion_suffix(str(value), colors))
            out[name] = Ruling(name, value, self.scalar(spec, "section", None, str),
                               self.scalar(spec, "summary", None, str), choices, spec, kind)
        return out

    def build_roles(self, players: int) -> dict[str, Role]:
        """`roles.names`: the roles seats may have; E370 when they are too few for the most players a table seats."""
        section = self.get(self.root, "roles")
        node = self.get(section, "names")
        out: dict[str, Role] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind == "map":                        # null removed an inherited role; else the schema said
                out[str(name)] = Role(str(name), self.scalar(spec, "seats", 1, int),
                                      self.scalar(spec, "summary", None, str), spec)
        seats = sum(role.seats for role in out.values())
        if out and seats < players:
            self.error(node, "E370", f"the roles give {seats} seat{'s' if seats != 1 else ''} a role, but up to "
                       f"{players} players play: give a role more seats (seats: N)")
        return out

    def build_distributions(self, colors: list[str]) -> dict[str, Distribution]:
        """The `distributions:` map; E350 for one without values, mixing numbers with names, or naming
        something but a color (the schema holds the keys and weights to their form)."""
        node = self.get(self.root, "distributions")
        out: dict[str, Distribution] = {}
        if node is None or node.kind != "map":
            return out
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            pairs = [(int(key) if re.fullmatch(r"-?[0-9]+", key) else key, weight.value)
                     for key, weight in spec.value.items()
                     if weight.kind == "scalar" and type(weight.value) is int and weight.value > 0]
            numbers = sum(isinstance(value, int) for value, _ in pairs)
            if not spec.value:
                self.error(spec, "E350", f"distribution '{name}' has no values")
            elif 0 < numbers < len(pairs):
                self.error(spec, "E350", f"distribution '{name}' mixes numbers and names: give it only one kind")
            elif not numbers and any(value not in colors and _SNAKE.fullmatch(value) for value, _ in pairs):
                bad = next(value for value, _ in pairs if value not in colors and _SNAKE.fullmatch(value))
                self.error(spec, "E350", f"distribution '{name}' names '{bad}', which is not a color"
                           + suggestion_suffix(bad, colors))
            elif pairs:
                out[name] = Distribution(name, tuple(v for v, _ in pairs), tuple(w for _, w in pairs), spec)
        return out

    def _named_specs(self, key: str):
        """(name, spec, typed parameters) of each entry of a `procedures:`-like map (the schema holds its form)."""
        node = self.get(self.root, key)
        if node is None or node.kind != "map":
            return
        for name, spec in node.value.items():
            if spec.kind != "map":
                continue
            params = self.get(spec, "params")
            typed = tuple((param, kind.value) for param, kind in (params.value.items() if params is not None
                                                                   and params.kind == "map" else ())
                          if kind.kind == "scalar" and kind.value in ("player", "number", "color"))
            yield name, spec, typed

    def build_procedures(self) -> dict[str, Procedure]:
        """The `procedures:` map (effects.check checks the bodies and calls)."""
        return {name: Procedure(name, typed, self.text(spec, "body"), spec)
                for name, spec, typed in self._named_specs("procedures")}

    def build_functions(self) -> dict[str, Function]:
        """The `functions:` map (effects.check checks the values and calls)."""
        return {name: Function(name, typed, self.condition(spec, "value"), spec)
                for name, spec, typed in self._named_specs("functions")}

    def build_windows(self) -> dict[str, Window]:
        """The `windows:` map, in file order (effects.check checks the conditions and effects)."""
        node = self.get(self.root, "windows")
        if node is None or node.kind != "map":
            return {}
        return {name: Window(name, self.scalar(spec, "who", "others", str), self.condition(spec, "when"),
                             self.text(spec, "effect"), " ".join(self.scalar(spec, "summary", "", str).split()), spec)
                for name, spec in node.value.items() if spec.kind == "map"}

    def build_conflicts(self) -> dict[str, tuple[Conflict, ...]]:
        out: dict[str, tuple[Conflict, ...]] = {}
        for node in self.house_rule_nodes:
            rule_id = self.scalar(node, "id", "", str)
            items = self.get(node, "conflicts")
            conflicts = []
            for item in (items.value if items is not None and items.kind == "seq" else []):
                conflicts.append(Conflict(self.scalar(item, "with", "", str), self.scalar(item, "ruling", "", str),
                                          self.scalar(item, "why", None, str), item))
            out[rule_id] = tuple(conflicts)
        return out


    def house_rule_links(self) -> dict[str, Node | None]:
        out = {self.scalar(node, "id", "", str): self.links.get(node.path) for node in self.house_rule_nodes}
        for section in ("stacking", "jump_in"):
            node = self.get(self.root, section)
            if node is not None:
                out.setdefault(section, self.links.get(node.path))
        return out

    def check_exclusive(self) -> None:
        """E331 for a house rule that shares its `exclusive` name with one merged before it."""
        first: dict[str, str] = {}
        for node in self.house_rule_nodes:
            rule_id = self.scalar(node, "id", "", str)
            group = self.scalar(node, "exclusive", None, str)
            if group is None:
                continue
            earlier = first.setdefault(group, rule_id)
            if earlier != rule_id:
                # The entry that brought the second one in is what the user has to change.
                self.error(self.links.get(node.path) or self.get(node, "exclusive"), "E331",
                           f"house rules '{earlier}' and '{rule_id}' are both 'exclusive: {group}': "
                           f"include only one of them")

    def build_sets(self, turn: Node | None) -> "SetRule | None":
        """turn.sets: the conditions a set of cards played in one turn is built by, and its longest length."""
        node = self.get(turn, "sets")
        if node is None or node.kind != "map":
            return None
        return SetRule(self.scalar(node, "max", SET_MAX_DEFAULT, int), self.condition(node, "continue"),
                       self.condition(node, "finish"), node)


def build_variant(root: Node, path: str, house_rules: list[Node] = (),
                  links: dict[str, Node | None] | None = None) -> tuple[Variant | None, list[Diagnostic]]:
    """Build the typed variant from a merged, schema-checked tree.

    `links` maps each file of the composition to the checked file's entry that brought it
    in (see `compose.Composition.links`), so problems of the combination point there.
    """
    builder = _Builder(root, path, list(house_rules), dict(links or {}))
    variant = builder.build()
    return variant, builder.diags
