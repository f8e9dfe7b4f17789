"""A game's tables: card kinds and their properties, what may follow what, action ids, seats and teams.

Cards are small integers (kinds) indexing the k_* tables; an action is an integer id whose
ranges are laid out by build_actions and named by action_to_string.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..effects import ast as A
from ..effects import layout as D
from ..effects.types import MAX_CHOSEN, literal_number
from ..model.variant import Stacking
from .errors import IllegalAction


def team_table(players: int, size: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(team index of each seat, partner of each seat or -1) at a table of `players`, teams of `size`."""
    count = players // size if size > 1 else players
    team = tuple(p % count for p in range(players))
    partner = tuple((p + count) % players if size == 2 else -1 for p in range(players))
    return team, partner


def seat_orders(players: int) -> tuple:
    """Every seat order at a table of `players`: [direction][include self][seat] -> a tuple of seats.

    Index 1 is the direction of play +1 and index -1 (the last) is -1; players_from reads it.
    """
    return (None, *(tuple(tuple(tuple((p + i * d) % players for i in range(0 if include else 1, players))
                                for p in range(players)) for include in (False, True))
                    for d in (1, -1)))


# Whether a draw card (its type and draw) may answer one on the discard pile, by stacking rule.
_STACK_ANSWERS = {
    Stacking.NONE: lambda t, d, top_type, top_draw: False,
    Stacking.SAME_TYPE: lambda t, d, top_type, top_draw: t == top_type,
    Stacking.SAME_OR_HIGHER: lambda t, d, top_type, top_draw: d >= top_draw,
    Stacking.PLUS4_ON_PLUS2: lambda t, d, top_type, top_draw: t == top_type or d > top_draw,
    Stacking.ANY_DRAW: lambda t, d, top_type, top_draw: True,
}


def _puts(variant) -> bool:
    """Whether an effect of the variant puts cards on a pile (`P puts N cards on PILE`): a `put` decision."""
    return variant.syntax is not None and any(isinstance(node, A.Put) for tree in variant.syntax.trees.values()
                                              for node in A.walk(tree))


def _option_names(variant) -> tuple[str, ...]:
    """Every option name of the variant's choices and its windows (`windows:`), sorted: the `option NAME` actions
    it has."""
    windows = set(variant.windows)
    if variant.syntax is None:
        return tuple(sorted(windows))
    return tuple(sorted(windows | {option.name for tree in variant.syntax.trees.values() for node in A.walk(tree)
                                   if isinstance(node, A.Choice) for option in node.options}))


def _number_top(variant) -> int:
    """The largest number the variant's number choices may offer (`chooses number from A to B`): the largest
    upper bound written as a number, MAX_CHOSEN when one is not; -1 without number choices (no `number N` action)."""
    if variant.syntax is None:
        return -1
    top = -1
    for tree in variant.syntax.trees.values():
        for node in A.walk(tree):
            if isinstance(node, (A.ChooseNumber, A.SecretNumber)):
                high = literal_number(node.high)
                top = max(top, MAX_CHOSEN if high is None else min(max(high, 0), MAX_CHOSEN))
    return top


class Tables:
    """Game's tables, built once: cards, playability, the action codec, and seats and teams by table size.

    Slot-free: Game declares the slots these methods fill.
    """

    __slots__ = ()

    def build_cards(self) -> None:
        v = self.variant
        self.type_ids = list(v.cards)
        names: list[str] = []
        color, number, face, wild, points, draw, ktype, type_id, category = ([] for _ in range(9))
        faces: dict = {}
        deck: list[int] = []
        kind_of: dict = {}                  # (type id, color, number) -> kind: where a back is looked up
        for t_index, (tid, ct) in enumerate(v.cards.items()):
            for color_name, by_number in ct.copies.items():
                for num, copies in by_number.items():
                    if num is None:
                        name = f"{color_name}_{tid}" if color_name else tid
                        face_key = ("type", tid)
                    else:
                        name = f"{color_name}_{num}{ct.label}" if color_name else f"{tid}_{num}"
                        face_key = ("number", num)
                    if name in names:
                        node = ct.node
                        line, column = ((node.key_line or node.line, node.key_column or node.column)
                                        if node else (1, 1))
                        self.diagnostics.append(Diagnostic(node.path if node else v.path, line, column, "E316",
                                                           f"card id '{name}' is produced by two card types"))
                        continue
                    k = len(names)
                    names.append(name)
                    color.append(v.colors.index(color_name) if color_name else -1)
                    number.append(num if num is not None else -1)
                    face.append(faces.setdefault(face_key, len(faces)))
                    wild.append(ct.wild)
                    points.append(ct.points if ct.points is not None else (num or 0))
                    draw.append(ct.draw)
                    ktype.append(t_index)
                    type_id.append(tid)
                    category.append(ct.kind)
                    kind_of[tid, color_name, num] = k
                    if v.dealt(ct):
                        deck.extend([k] * copies)
        self.card_names = names
        self.card_index = {n: i for i, n in enumerate(names)}
        self.k_color, self.k_number, self.k_wild = color, number, wild
        self.k_points, self.k_draw, self.k_type, self.k_type_id, self.k_category = points, draw, ktype, type_id, category
        self.deck = tuple(deck)                # one pack: a table plays deck.packs of them (deck_up, Flow._deal)
        self.max_packs = max([1, *(packs for _, _, packs in v.packs)])
        self.num_kinds = len(names)
        # playable_after[color + 1][top card] -> the kinds that may follow that card, as a set (a hand's
        # playable kinds are then one C-level intersection), or None when every kind may. Color -1 means
        # "no color named yet": anything goes.
        by_face = []
        for c in range(-1, len(v.colors)):
            row = []
            for f in range(len(faces)):
                ok = frozenset(k for k in range(len(names)) if c < 0 or wild[k] or color[k] == c or face[k] == f)
                row.append(None if len(ok) == len(names) else ok)
            by_face.append(row)
        self.playable_after = [[row[face[k]] for k in range(len(names))] for row in by_face]
        self._build_sides(kind_of)

    def _build_sides(self, kind_of: dict) -> None:
        """A two-sided deck's tables: k_back[kind] is the kind on its other face (None for a one-sided deck),
        side_colors[side] the color indices of a side's cards.

        A kind is one face: a hand, the draw pile and the discard pile hold the faces up on the active
        side, and turning the cards over maps each through k_back. The model checked that every
        first-side type names a back that pairs with it card for card.
        """
        v = self.variant
        colors = list(v.colors)
        if not v.sides:
            self.k_back = None
            self.side_colors = (tuple(range(len(colors))),)
            return
        self.side_colors = tuple(tuple(colors.index(c) for c in side) for side in v.side_colors)
        back = list(range(self.num_kinds))
        for tid, ct in v.cards.items():
            other = v.cards.get(ct.back) if v.dealt(ct) and ct.back else None
            if other is None:
                continue
            for (color, by_number), other_color in zip(ct.copies.items(), other.copies):
                for num in by_number:
                    a, b = kind_of.get((tid, color, num)), kind_of.get((other.id, other_color, num))
                    if a is not None and b is not None:
                        back[a], back[b] = b, a
        self.k_back = back

    def deck_up(self, side: int, players: int = 0) -> tuple[int, ...]:
        """The deck's cards by their faces on `side` (the deck itself on the first side), as a table of `players`
        plays it: deck.packs copies of it (one pack when `players` is not given)."""
        deck = self.deck if not side else tuple(self.k_back[k] for k in self.deck)
        return deck * self.variant.packs_for(players) if players else deck

    def build_actions(self) -> None:
        k = self.num_kinds
        self.A_PLAY, self.A_PLAY_UNO = 0, k
        self.A_DRAW, self.A_KEEP, self.A_PASS = 2 * k, 2 * k + 1, 2 * k + 2
        self.A_CHALLENGE, self.A_ACCEPT, self.A_UNO, self.A_DONE = 2 * k + 3, 2 * k + 4, 2 * k + 5, 2 * k + 6
        self.A_COLOR = 2 * k + 7
        self.A_TARGET = self.A_COLOR + len(self.variant.colors)
        self.max_players = self.variant.max_players
        self.turn_of = tuple((D.TURN, p) for p in range(self.max_players))   # pending turn decisions, made once
        # The decisions whose legal actions are always the same.
        self.fixed_actions = {D.COLOR: tuple(range(self.A_COLOR, self.A_TARGET)),
                              D.CHALLENGE: (self.A_CHALLENGE, self.A_ACCEPT), D.UNO: (self.A_UNO, self.A_PASS)}
        # The colors one may name on each side: all of them on a one-sided deck; on a two-sided one,
        # the active side's (so the color decision is not fixed there).
        self.color_actions = tuple(tuple(self.A_COLOR + c for c in side) for side in self.side_colors)
        if self.k_back is not None:
            del self.fixed_actions[D.COLOR]
        # Team tables, seat orders and empty skip rows by table size, read on the hot path without a
        # call; built by tables_for when a game at that size starts, never for a size not played.
        self.team_tables = [None] * (self.max_players + 1)
        self.orders = [None] * (self.max_players + 1)
        self.no_skips = [None] * (self.max_players + 1)
        self.A_CATCH = self.A_TARGET + self.max_players
        self.A_GIVE = self.A_CATCH + self.max_players
        self.A_TRADE = self.A_GIVE + k
        # `put K` only where the variant declares piles or puts cards on a pile (`P puts N cards on
        # discard` needs no declared pile): every other variant keeps its action space.
        self.A_PUT = self.A_TRADE + k * k
        # The pile slots, one per declared pile and one per seat of a pile of each player (`per_player: true`),
        # max_players of them (a smaller table leaves the last empty), named `stock of p1`; their count depends on
        # the variant alone, so a save's piles are checked by it. Each slot's table below is by slot.
        # An array of piles (`count: N`) has N slots, `lane 1` to `lane N`.
        # A pile of each role (`per_role: true`) has one slot per role in roles.names order, `armory of captain`.
        roles = tuple(self.variant.roles)
        slots = [(name, pile, seat) for name, pile in self.variant.piles.items()
                 for seat in (range(self.max_players) if pile.per_player else
                              range(-2, -pile.count - 2, -1) if pile.count else
                              range(-100, -100 - len(roles), -1) if pile.per_role else (-1,))]
        self.pile_names = tuple(name if seat == -1 else f"{name} of p{seat}" if seat >= 0 else
                                f"{name} of {roles[-seat - 100]}" if seat <= -100 else f"{name} {-seat - 1}"
                                for name, _, seat in slots)
        self.pile_role = tuple(-seat - 100 if seat <= -100 else -1 for _, _, seat in slots)   # a role's slot: the role
        slots = [(name, pile, max(seat, -1)) for name, pile, seat in slots]
        self.pile_seat = tuple(seat for _, _, seat in slots)          # the slot's owner, -1 a shared pile
        self.pile_deal = tuple(pile.deal for _, pile, _ in slots)     # cards dealt onto it as a round starts
        self.pile_fill = (None,) * len(slots)       # the kinds its where: takes (engine/program.py), None: any
        self.pile_base = {}                                           # declared name -> its first slot
        for slot, (name, _, _) in enumerate(slots):
            self.pile_base.setdefault(name, slot)
        self.face_up = tuple(pile.face_up for _, pile, _ in slots)
        self.has_put = bool(self.pile_names) or _puts(self.variant)
        self.A_OPTION = self.A_PUT + (k if self.has_put else 0)
        # One id per option name of the variant's choices (`P chooses:`), last: a variant without any
        # keeps the action space it always had.
        self.option_names = _option_names(self.variant)
        self.option_index = {name: i for i, name in enumerate(self.option_names)}
        # Plays on the playable piles (`playable: true`), last: `play K on PILE` and `play K uno on PILE`, one
        # block of 2 * k per pile; a play on the discard pile keeps the ids 0 .. 2k - 1, so a variant with no
        # other playable pile keeps its action space.
        self.play_piles = tuple(i for i, (_, pile, _) in enumerate(slots) if pile.playable)
        self.pile_playable = tuple(pile.playable for _, pile, _ in slots)
        self.A_PLAY_ON = self.A_OPTION + len(self.option_names)
        # Numbers chosen (`chooses number from A to B`), last: `number 0` to `number N`, N the largest number the
        # variant's number choices may offer; a variant without any keeps its action space.
        self.A_NUMBER = self.A_PLAY_ON + 2 * k * len(self.play_piles)
        self.number_top = _number_top(self.variant)
        self.num_actions = self.A_NUMBER + self.number_top + 1

    def play_on(self, pile: int, k: int, uno: bool) -> int:
        """The action id of playing kind k on `pile` (-1 the discard pile, else a playable declared pile's index)."""
        base = 0 if pile < 0 else self.A_PLAY_ON + 2 * self.num_kinds * self.play_piles.index(pile)
        return base + k + (self.num_kinds if uno else 0)

    def played_on(self, action: int) -> tuple[int, int, bool]:
        """A play's (pile, kind, uno) from its action id (pile -1: the discard pile)."""
        k = self.num_kinds
        if action < 2 * k:
            return -1, action % k, action >= k
        block, rest = divmod(action - self.A_PLAY_ON, 2 * k)
        return self.play_piles[block], rest % k, rest >= k

    def stack_table(self, rule: Stacking) -> list[frozenset]:
        """[top card] -> the kinds that may answer a draw penalty on it by `rule`.

        Only draw cards answer, and only those of stacking.cards when the variant lists them
        (compile_effects made that set: Game.stack_types). Tops of one type and draw share a row.
        """
        answers = _STACK_ANSWERS[rule]
        k_type, k_draw, types = self.k_type, self.k_draw, self.stack_types
        drawers = [k for k in range(self.num_kinds) if k_draw[k] > 0 and (types is None or k_type[k] in types)]
        rows: dict = {}
        table = []
        for top in range(self.num_kinds):
            key = (k_type[top], k_draw[top])
            if key not in rows:
                rows[key] = frozenset(k for k in drawers if answers(k_type[k], k_draw[k], *key))
            table.append(rows[key])
        return table

    def tables_for(self, players: int) -> None:
        """Build the team table, seat orders and empty skip row of a table of `players`, once."""
        if self.orders[players] is None:
            self.team_tables[players] = team_table(players, self.variant.team_size)
            self.orders[players] = seat_orders(players)
            # `skip == no_skips[n]` (nobody to be skipped) is 3x faster than any().
            self.no_skips[players] = [0] * players

    def orders_for(self, players: int) -> tuple:
        """Every seat order at a table of `players` (see seat_orders)."""
        self.tables_for(players)
        return self.orders[players]

    def option_id(self, name: str) -> int:
        """The option number of a choice's option `name` (its action is A_OPTION + it).

        The variant's own options are numbered when the game is built; a tree compiled into
        the game later (tests, tools) adds its new names at the end, so ids given keep their meaning.
        """
        if name not in self.option_index:
            self.option_index[name] = len(self.option_names)
            self.option_names += (name,)
            self.num_actions += 1
        return self.option_index[name]

    # --- actions as strings

    def action_to_string(self, action: int) -> str:
        """Return the short, stable string of an action id."""
        k = self.num_kinds
        names = self.card_names
        if action < k:
            return f"play {names[action]}"
        if action < 2 * k:
            return f"play {names[action - k]} uno"
        fixed = {self.A_DRAW: "draw", self.A_KEEP: "keep", self.A_PASS: "pass", self.A_CHALLENGE: "challenge",
                 self.A_ACCEPT: "accept", self.A_UNO: "uno", self.A_DONE: "done"}
        if action in fixed:
            return fixed[action]
        if action < self.A_TARGET:
            return f"color {self.variant.colors[action - self.A_COLOR]}"
        if action < self.A_CATCH:
            return f"target {action - self.A_TARGET}"
        if action < self.A_GIVE:
            return f"catch {action - self.A_CATCH}"
        if action < self.A_TRADE:
            return f"give {names[action - self.A_GIVE]}"
        if action >= self.A_NUMBER:
            return f"number {action - self.A_NUMBER}"
        if action >= self.A_PLAY_ON:
            pile, kind, uno = self.played_on(action)
            return f"play {names[kind]}{' uno' if uno else ''} on {self.pile_names[pile]}"
        if action >= self.A_OPTION:
            return f"option {self.option_names[action - self.A_OPTION]}"
        if action >= self.A_PUT:
            return f"put {names[action - self.A_PUT]}"
        mine, theirs = divmod(action - self.A_TRADE, k)
        return f"trade {names[mine]} {names[theirs]}"

    def pile_index(self, name: str) -> int | None:
        """A pile slot's index by its name (`bank`, `stock of p1`), or None."""
        return self.pile_names.index(name) if name in self.pile_names else None

    def action_from_string(self, text: str) -> int:
        """Parse an action string; raises IllegalAction if it names nothing."""
        words = text.strip().lower().split()
        if not words:
            raise IllegalAction(text, "empty action")
        verb, args = words[0], words[1:]
        simple = {"draw": self.A_DRAW, "keep": self.A_KEEP, "pass": self.A_PASS, "challenge": self.A_CHALLENGE,
                  "accept": self.A_ACCEPT, "uno": self.A_UNO, "done": self.A_DONE}
        if verb in simple and not args:
            return simple[verb]
        if verb == "play" and len(args) >= 4 and args[-3] == "on" and args[-1].isdigit():   # `on lane 2`
            args = args[:-2] + [f"{args[-2]} {args[-1]}"]
        if verb == "play" and len(args) >= 3 and args[-2] == "on":     # `play K [uno] on PILE`
            pile = -1 if args[-1] == "discard" else self.pile_index(args[-1])
            if pile is not None and (pile < 0 or pile in self.play_piles):
                args = args[:-2]
                if args and len(args) <= 2 and args[0] in self.card_index and args[1:] in ([], ["uno"]):
                    return self.play_on(pile, self.card_index[args[0]], len(args) == 2)
        if verb == "play" and args and len(args) <= 2 and args[0] in self.card_index:
            if len(args) == 1:
                return self.card_index[args[0]]
            if args[1] == "uno":
                return self.num_kinds + self.card_index[args[0]]
        if verb == "color" and len(args) == 1 and args[0] in self.variant.colors:
            return self.A_COLOR + self.variant.colors.index(args[0])
        if verb in ("target", "catch") and len(args) == 1 and args[0].isdigit() and int(args[0]) < self.max_players:
            return (self.A_TARGET if verb == "target" else self.A_CATCH) + int(args[0])
        if verb == "give" and len(args) == 1 and args[0] in self.card_index:
            return self.A_GIVE + self.card_index[args[0]]
        if verb == "put" and len(args) == 1 and args[0] in self.card_index and self.has_put:
            return self.A_PUT + self.card_index[args[0]]
        if verb == "trade" and len(args) == 2 and all(a in self.card_index for a in args):
            return self.A_TRADE + self.card_index[args[0]] * self.num_kinds + self.card_index[args[1]]
        if verb == "option" and len(args) == 1 and args[0] in self.option_index:
            return self.A_OPTION + self.option_index[args[0]]
        if verb == "number" and len(args) == 1 and args[0].isdigit() and int(args[0]) <= self.number_top:
            return self.A_NUMBER + int(args[0])
        raise IllegalAction(text, "not an action of this variant")
