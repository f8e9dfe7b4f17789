"""The effect checker's statement rules: one `s_RULE` per statement, its operands' types (E5xx).

`StatementChecks` is a mixin of `check._Unit`, whose scopes, `expect` and `fail` these methods use.
"""

from __future__ import annotations

from . import ast as A
from .procedures import MAX_EXPANDED
from .types import BOOL, CARDS, CARDS_READ_WHERE_WRITTEN, COLOR, GROUP, INT, MAX_REPEAT, PLAYER, ROUND_OVER_REFUSES, _Broken
from .types import MAX_CHOSEN, literal_number
from ..diagnostics import suggestion_suffix
from ..model.variables import Visibility, VarType

# The values a `let` asks a player for: a decision, refused where nobody decides any more (E514).
_CHOICES = (A.ChoosePlayer, A.ChooseColorValue, A.ChooseNumber)


class StatementChecks:
    """The check of each statement, and of the points and round-end effects."""

    # --- statements

    def block(self, body) -> None:
        for stmt in body:
            try:
                if self.ctx.where == "round_end":
                    self._keeps_score(stmt)
                getattr(self, "s_" + stmt.rule)(stmt)
            except _Broken:
                continue

    def suite(self, body) -> None:
        self.scopes.append({})
        self.block(body)
        self.scopes.pop()

    def _who(self, s):
        self.expect(s.who, PLAYER)

    def _who_count(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.count, INT)

    def _none(self, s):
        pass

    s_draw = s_draw_to = s_penalty = _who_count
    s_draw_until = s_draw_stack = s_skip_one = s_choose_color_by = s_swap_hands = s_look = s_trade = s_turn_to = s_eliminate = _who
    s_nothing = s_reverse = s_choose_color_self = s_rotate_hands = s_redeal = s_extra_turn = s_clear_color = _none

    def s_show_hand(self, s):
        self.expect(s.who, PLAYER)
        to = self.expr(s.to)
        if to not in (PLAYER, GROUP):
            self.fail(s.to.span, "E501", f"expected a player or a group to show the hand to, got a {to}")

    def s_skip_many(self, s):
        self.expect(s.count, INT)

    def s_set_color(self, s):
        self.expect(s.color, COLOR)

    def s_let(self, s):
        if isinstance(s.value, A.ChoosePlayer):
            if s.value.chooser is not None:
                self.expect(s.value.chooser, PLAYER)
            self.expect(s.value.group, GROUP)
            self.checked.types[id(s.value)] = PLAYER
            self.bind(s.name, s, PLAYER)
            return
        if isinstance(s.value, A.ChooseColorValue):
            if s.value.chooser is not None:
                self.expect(s.value.chooser, PLAYER)
            self.checked.types[id(s.value)] = COLOR
            self.bind(s.name, s, COLOR)
            return
        if isinstance(s.value, A.ChooseNumber):
            if s.value.chooser is not None:
                self.expect(s.value.chooser, PLAYER)
            self._number_range(s.value.low, s.value.high)
            self.checked.types[id(s.value)] = INT
            self.bind(s.name, s, INT)
            return
        typ = self.expr(s.value)
        if typ == CARDS:
            self.fail(s.value.span, "E545", CARDS_READ_WHERE_WRITTEN)
        self.bind(s.name, s, typ)

    def _number_range(self, low, high) -> None:
        """A number choice's bounds are numbers; those written as numbers lie within 0..MAX_CHOSEN, low first
        (E560): the variant's `number N` actions are the numbers its choices may offer."""
        self.expect(low, INT)
        self.expect(high, INT)
        lo, hi = literal_number(low), literal_number(high)
        for bound, value in ((low, lo), (high, hi)):
            if value is not None and not 0 <= value <= MAX_CHOSEN:
                self.fail(bound.span, "E560", f"a number chosen lies from 0 to {MAX_CHOSEN}, not {value}")
        if lo is not None and hi is not None and lo > hi:
            self.fail(high.span, "E560", f"the numbers from {lo} to {hi} are none: write the lower bound first")

    def s_secret_number(self, s):
        self.expect(s.choosers, GROUP)
        self._number_range(s.low, s.high)
        var = self.v.player_state.get(s.name)
        where = s.name_span or s.span
        if var is None:
            if s.name in self.v.state:
                self.fail(where, "E521", f"'{s.name}' is global (state:): a sealed number goes into each "
                          "member's own value, a per-player variable (player_state:)")
            self._unknown_variable(where, s.name, "per-player")
        if var.type is not VarType.INT or var.visibility is not Visibility.PUBLIC:
            self.fail(where, "E561", f"'{s.name}' must be a public int (player_state: {{type: int}}) to hold "
                      "the numbers chosen, which every player sees once they are shown")
        self.checked.refers[id(s)] = var

    def s_secret_choice(self, s):
        self.expect(s.choosers, GROUP)
        self.expect(s.candidates, GROUP)
        self.bind(s.name, s, GROUP)

    def s_give(self, s):
        self.expect(s.giver, PLAYER)
        self.expect(s.count, INT)
        self.expect(s.taker, PLAYER)
        self._pick_where(s)

    def _pick_where(self, s) -> None:
        """`... where COND` on a statement that picks cards: COND reads each candidate as `card`."""
        if s.test is not None:
            with self._reading(s, CARDS):
                self.expect(s.test, BOOL)
        if getattr(s, "otherwise", None) is not None:
            self.suite(s.otherwise)

    def s_discard_where(self, s):
        self.expect(s.who, PLAYER)
        with self._reading(s, CARDS):
            self.expect(s.test, BOOL)

    def s_exchange(self, s):
        self.expect(s.first, PLAYER)
        self.expect(s.count, INT)
        self.expect(s.second, PLAYER)

    def s_discard_color(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.color, COLOR)

    def s_lock(self, s):
        self.expect(s.color, COLOR)
        self.expect(s.owner, PLAYER)

    def s_must_play(self, s):
        self.expect(s.who, PLAYER)
        self.expect(s.color, COLOR)

    def s_must_play_where(self, s):
        self.expect(s.who, PLAYER)
        self._pick_where(s)

    def s_must_play_block(self, s):
        self.s_must_play(s)
        self.suite(s.otherwise)

    # named piles

    def pile_array(self, e):
        """The declared array of piles (`count: N`) that `e` names, when it is a bare name that nothing nearer
        (a local, a declared variable) takes; else None."""
        if isinstance(e, A.Var) and self.lookup(e.name) is None and self.variable(e.name) is None:
            pile = self.v.piles.get(e.name)
            if pile is not None and pile.count:
                return pile
        return None

    def pile(self, s, name) -> None:
        """E502 for a pile that is neither `draw`, `discard` nor declared (`piles:`); E557 for a pile of each player
        named without its owner, or a shared pile named with one (`NAME of P`, A.SeatPile)."""
        if isinstance(name, A.SeatPile) and getattr(self.v.piles.get(name.name), "per_role", False):
            self.role_pile(name)
            return
        if isinstance(name, A.RolePile):            # `armory of role of P`: the pile of P's role
            self.expect(name.who, PLAYER)
            declared = self.v.piles.get(name.name)
            if declared is None:
                own = [n for n, pile in self.v.piles.items() if pile.per_role]
                self.fail(name.span, "E502", f"unknown pile of each role '{name.name}'"
                          + suggestion_suffix(name.name, own or list(self.v.piles)))
            elif not declared.per_role:
                self.fail(name.span, "E557", f"'{name.name}' is not a pile of each role: name it without 'of role "
                          f"of' ('{name.name}'), or declare it per_role: true")
            return
        if isinstance(name, A.SeatPile):
            self.expect(name.who, PLAYER)
            declared = self.v.piles.get(name.name)
            if declared is None:
                self.fail(name.span, "E502", f"unknown pile '{name.name}'"
                          + suggestion_suffix(name.name, list(self.v.piles)))
            elif not declared.per_player:
                self.fail(name.span, "E557", f"'{name.name}' is one pile for the whole table: name it without "
                          f"'of' ('{name.name}'), or declare it per_player: true")
            return
        if isinstance(name, A.IndexedPile):
            self.expect(name.index, INT)
            declared = self.v.piles.get(name.name)
            if declared is None:
                self.fail(name.span, "E502", f"unknown pile '{name.name}'"
                          + suggestion_suffix(name.name, list(self.v.piles)))
            elif not declared.count:
                self.fail(name.span, "E557", f"'{name.name}' is one pile, not an array of piles: name it without a "
                          f"number ('{name.name}'), or declare it count: N")
            return
        known = ["draw", "discard", *self.v.piles]
        if name not in known:
            self.fail(s.span, "E502", f"unknown pile '{name}'" + suggestion_suffix(name, known))
        elif name in self.v.piles and self.v.piles[name].per_player:
            self.fail(s.span, "E557", f"'{name}' is each player's own pile: say whose ('{name} of self', "
                      f"'{name} of next')")
        elif name in self.v.piles and self.v.piles[name].per_role:
            first = next(iter(self.v.roles), "ROLE")
            self.fail(s.span, "E557", f"'{name}' is each role's own pile: say which ('{name} of {first}', "
                      f"'{name} of role of self')")
        elif name in self.v.piles and self.v.piles[name].count:
            self.fail(s.span, "E557", f"'{name}' is an array of {self.v.piles[name].count} piles: say which "
                      f"('{name} 1' to '{name} {self.v.piles[name].count}')")

    def role_pile(self, name: A.SeatPile) -> None:
        """`armory of captain`: a pile of each role named by a role (E502 for a name that is no role, with a
        did-you-mean); E557 for one named by a player, whose role says which (`armory of role of P`)."""
        who, roles = name.who, list(self.v.roles)
        if isinstance(who, A.Var) and who.name in roles:
            return
        if isinstance(who, A.Var) and self.lookup(who.name) is None and self.variable(who.name) is None:
            self.fail(name.span, "E502", f"unknown role '{who.name}'" + suggestion_suffix(who.name, roles))
            return
        self.fail(name.span, "E557", f"'{name.name}' is each role's own pile: name the role ('{name.name} of "
                  f"{roles[0]}') or a player's role ('{name.name} of role of P')")

    def e_seat_pile(self, e):
        self.pile(e, e)
        return CARDS

    e_indexed_pile = e_seat_pile
    e_role_pile = e_seat_pile

    def s_move(self, s):
        self.expect(s.count, INT)
        self.pile(s, s.source)
        self.pile(s, s.dest)

    def s_take(self, s):
        self._who_count(s)
        self.pile(s, s.pile)
        if s.test is not None and s.pile == "draw":
            self.fail(s.span, "E546", "'takes ... where' looks through a pile for the cards meeting the condition; "
                      "the draw pile is drawn from, never looked through (draw with 'P draws until COND')")
        self._pick_where(s)

    def s_take_top(self, s):
        self.expect(s.who, PLAYER)
        self.pile(s, s.pile)
        if s.pile == "discard":
            self.fail(s.span, "E552", "the discard pile's top card stays in play: take the cards under it with "
                      "'P takes N cards from discard'")

    s_take_all = s_take_top

    def s_put(self, s):
        self._who_count(s)
        self.pile(s, s.pile)
        self._pick_where(s)

    def e_pile_count(self, e):
        if isinstance(e.pile, str) and self.lookup(e.pile) is not None:
            return self._held_count(e)
        self.pile(e, e.pile)
        return INT

    def _held_count(self, e):
        """`count(NAME)`, NAME a `let` or `for each` name in scope: the group it holds, even where a pile has the
        name (as `cards of NAME` reads the player); lower reads `refers` for it."""
        node, typ = self.lookup(e.pile)
        if typ != GROUP:
            self.fail(e.span, "E501", f"count({e.pile}) counts a group of players, but '{e.pile}' holds a {typ}")
        self.checked.refers[id(e)] = node
        return INT

    def e_pile_top_attr(self, e):
        self.pile(e, e.pile)
        return self.e_card_attr(e)
    def s_draw_until_cond(self, s):
        self.expect(s.who, PLAYER)
        self.drawing = True
        try:
            self.expect(s.test, BOOL)
        finally:
            self.drawing = False

    def s_flip_again(self, s):
        if self.ctx.where != "on_start":
            self.fail(s.span, "E507", "'flip again' only makes sense for the start card (on_start or start.default)")

    s_return_and_flip = s_flip_again

    def s_flip_all(self, s):
        if not self.v.sides:
            self.fail(s.span, "E515", "'flip all cards' turns over a two-sided deck, but the variant's cards "
                      "have one side (declare sides: at the top level)")

    def s_if_stmt(self, s):
        broken = False
        for clause in s.clauses:
            try:
                self.expect(clause.test, BOOL)
            except _Broken:
                broken = True                   # keep going: the bodies may hold more problems
            self.suite(clause.body)
        if s.otherwise is not None:
            self.suite(s.otherwise)
        if broken:
            raise _Broken("bad condition")

    def s_for_stmt(self, s):
        if self.pile_array(s.group) is not None:    # `for each i in lane:` i is each pile's number, from 1
            self.checked.refers[id(s.group)] = s.group.name
            self.scopes.append({})
            self.bind(s.name, s, INT)
            self.block(s.body)
            self.scopes.pop()
            return
        self.expect(s.group, GROUP)
        self.scopes.append({})
        self.bind(s.name, s, PLAYER)
        self.block(s.body)
        self.scopes.pop()

    def s_repeat_stmt(self, s):
        self.expect(s.count, INT)
        if isinstance(s.count, A.Int) and len(s.count.digits) <= 9 and int(s.count.digits) > MAX_REPEAT:
            self.fail(s.count.span, "E506", f"repeat {int(s.count.digits)} is over the limit of {MAX_REPEAT}")
        self.suite(s.body)

    def s_challenge(self, s):
        self.expect(s.who, PLAYER)
        card = self.c.current_card
        if self.ctx.where == "on_play" and card is not None and card.challenge is None:
            self.error(s.span, "W501", f"'{card.id}' may be challenged but has no challenge restriction to check",
                       "warning")
        seen = set()
        for branch in s.branches:
            if branch.kind in seen:
                self.error(branch.span, "E511", f"branch '{branch.kind}' is given twice")
            seen.add(branch.kind)
            self.suite(branch.body)

    def s_choice(self, s):
        self.expect(s.who, PLAYER)
        if len(s.options) < 2:
            self.error(s.span, "E531", "a choice needs at least two options")
        seen = set()
        for option in s.options:
            if option.name in seen:
                self.error(option.span, "E530", f"option '{option.name}' is given twice")
            seen.add(option.name)
            if option.test is not None:
                try:
                    self.expect(option.test, BOOL)
                except _Broken:
                    self.failed = True          # keep going: the bodies may hold more problems
            self.suite(option.body)

    def s_call(self, s):
        procedures = self.v.procedures
        if s.name not in procedures:
            self.fail(s.span, "E535", f"unknown procedure '{s.name}'" + suggestion_suffix(s.name, procedures))
        params = procedures[s.name].params
        if len(s.args) != len(params):
            wanted = ", ".join(name for name, _ in params) or "none"
            self.fail(s.span, "E536", f"procedure '{s.name}' takes {len(params)} argument"
                      f"{'' if len(params) == 1 else 's'} ({wanted}), not {len(s.args)}")
        for arg, (_, typ) in zip(s.args, params):
            self.expect(arg, typ)
        graph = self.c.graph
        cycle = graph.cycle(self.ctx.procedure, s.name) if graph is not None and self.ctx.procedure else None
        if cycle is not None:
            self.fail(s.span, "E537", "procedures cannot call themselves, directly or through others: "
                      + " -> ".join(cycle))
        if self.c.bodies.get(s.name) is None:
            self.failed = True                  # its body is broken, and said so where it is written
            raise _Broken(s.name)
        if graph.size[s.name] > MAX_EXPANDED:
            self.fail(s.span, "E538", f"procedure '{s.name}' would inline more than {MAX_EXPANDED:,} statements "
                      "and expressions here (with the procedures it calls)")
    # --- points, and the effects of the turn's draw, the UNO penalty and the round's end

    s_score = _who_count

    def _keeps_score(self, s):
        """round.on_end runs once the round is over: nobody decides and nobody draws any more (E514)."""
        if s.rule in ROUND_OVER_REFUSES or (isinstance(s, A.Let) and isinstance(s.value, _CHOICES)):
            self.fail(s.span, "E514", "the round is over: round.on_end may keep score or move cards, "
                      "but no one decides or draws any more")
        if isinstance(s, A.Call) and (culprit := self._decides_or_draws(s.name)) is not None:
            self.fail(s.span, "E514", "the round is over: round.on_end may keep score or move cards, "
                      f"but no one decides or draws any more (procedure '{culprit}' does)")

    def _decides_or_draws(self, name: str) -> str | None:
        """The first procedure run by a call of `name` (itself, or one it calls) that decides or draws, if any."""
        procedures, syntax = self.v.procedures, self.v.syntax
        todo, seen = [name], set()
        while todo:
            current = todo.pop()
            if current in seen or current not in procedures or syntax is None:
                continue
            seen.add(current)
            tree = syntax.tree(procedures[current].body)
            for node in A.walk(tree) if tree is not None else ():
                if node.rule in ROUND_OVER_REFUSES or (isinstance(node, A.Let)
                                                       and isinstance(node.value, _CHOICES)):
                    return current
                if isinstance(node, A.Call):
                    todo.append(node.name)
        return None

    def e_catcher(self, e):
        if self.ctx.where not in ("uno_penalty", "uno_catch"):
            self.fail(e.span, "E509", "'catcher' only means something in uno.penalty (the player who caught you) "
                      "and uno.catch.if (the player who would accuse)")
        return PLAYER

    # --- a draw stack turned away (a card's on_stack effect)

    def s_pass_stack(self, s):
        if self.ctx.where != "on_stack":
            self.fail(s.span, "E541", "'turn the stack away to' only means something in a card's on_stack effect "
                      "(the card is played on a pending draw stack)")
        self.expect(s.who, PLAYER)
