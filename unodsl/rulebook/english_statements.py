"""The English of each statement: one `s_RULE` per statement of the effect language.

`StatementEnglish` is a mixin of `english.Translator`, whose phrases for numbers, players,
groups and conditions (`english_expressions`) these sentences are made of.
"""

from __future__ import annotations

from ..effects import ast as A
from .phrases import ELIMINATED_CARDS, _P, Phrase, _cap, _join_if, lower_first, title


# The ways hands go round (`rotate hands left`, `gather and redeal against the direction of play`).
_WAY_WORDS = {None: "in the direction of play", "play": "in the direction of play", "left": "to the left",
              "right": "to the right", "against": "against the direction of play"}


# The rules that make a group of players (a `show hand of P to G` says a group, or one player).
_GROUPS = ("all_players", "others", "opponents", "team_of", "all_from", "others_from", "one_per_team",
           "group_except", "filter_where", "fn_call")


class StatementEnglish:
    """Sentences for statements."""

    # --- statements

    def stmts(self, body) -> list[str]:
        out: list[str] = []
        for stmt in body:
            method = getattr(self, "s_" + stmt.rule, None)
            if method is None:
                raise TypeError(f"the rulebook has no English for the statement '{stmt.rule}'")
            sentence = method(stmt)
            if isinstance(sentence, list):
                out.extend(s for s in sentence if s)
            elif sentence:
                out.append(sentence)
        return out

    def s_nothing(self, s):
        return "Nothing happens." if self.where != "on_start" else "Nothing happens; play starts normally."

    def s_draw(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} {self.cards(s.count)}.")

    def s_draw_until(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} cards one at a time until {who.they} draw a card {who.they} can play.")

    def s_draw_until_cond(self, s):
        who = self.player(s.who)
        until = self.fold(s.test)
        if until is True:                       # the first card drawn meets it
            return _cap(f"{who.verb('draw')} 1 card.")
        if until is False:
            return _cap(f"{who.verb('draw')} every card left to draw.")
        return _cap(f"{who.verb('draw')} cards one at a time, keeping them all, until {self.cond(s.test)} "
                    f"(or no card is left to draw).")

    def s_draw_to(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} until {who.they} hold {self.cards(s.count)}.")

    def s_penalty(self, s):
        who = self.player(s.who)
        text = f"{who.verb('draw')} {self.cards(s.count)} and {'lose' if who.you else 'loses'} {who.their} turn"
        if self.variant.stacking != "none":
            text += f" (unless {who.they} can stack, see Stacking)"
        return _cap(text + ".")

    def s_skip_one(self, s):
        who = self.player(s.who)
        return _cap(f"{who.be()} skipped: {who.they} lose {who.their} next turn.")

    def s_skip_many(self, s):
        n = self.const(s.count)
        if n == 1:
            return f"The next player after {self.me.text} is skipped." if not self.me.you else "The next player is skipped."
        count = str(n) if isinstance(n, int) else self.num(s.count)
        return f"The next {count} players are skipped (never {self.me.text}; with fewer players, each other player once)."

    def s_reverse(self, s):
        return "The direction of play reverses."

    def s_choose_color_self(self, s):
        if not self.variant.colors:
            return None
        return _cap(f"{self.me.verb('choose')} the color that continues play.")

    def s_choose_color_by(self, s):
        if not self.variant.colors:
            return None
        who = self.player(s.who)
        return _cap(f"{who.verb('choose')} the color that continues play.")

    def s_clear_color(self, s):
        if not self.variant.colors:
            return None
        return "No color is in play any more: any card may be played until a color is named."

    def s_secret_choice(self, s):
        choosers, candidates = self.group(s.choosers), self.group(s.candidates)
        self.names[s.name] = Phrase(f"the players chosen most (the {title(s.name)})")
        return (f"Each of {choosers}, in turn, secretly chooses a player from {candidates} other than themselves; "
                f"the choices are then shown together. The players chosen most often are the {title(s.name)}.")

    def s_secret_number(self, s):
        choosers, low, high = self.group(s.choosers), self.value(s.low), self.value(s.high)
        return (f"Each of {choosers}, in turn, secretly chooses a number from {low} to {high}; the numbers are "
                f"then shown together, each becoming its player's {title(s.name)}.")

    def s_set_color(self, s):
        return f"The color in play becomes {self.color(s.color)}."

    def s_let(self, s):
        if isinstance(s.value, A.ChoosePlayer):
            who = self.me if s.value.chooser is None else self.player(s.value.chooser)
            group = self.group(s.value.group)
            self.names[s.name] = _P("the chosen player")
            return _cap(f"{who.verb('choose')} a player from {group}.")
        if isinstance(s.value, A.ChooseColorValue):
            who = self.me if s.value.chooser is None else self.player(s.value.chooser)
            self.names[s.name] = Phrase(f"the {title(s.name)} color")
            if not self.variant.colors:
                return None
            return _cap(f"{who.verb('name')} a color, the {title(s.name)} color; the color in play does not change.")
        if isinstance(s.value, A.ChooseNumber):
            who = self.me if s.value.chooser is None else self.player(s.value.chooser)
            self.names[s.name] = Phrase(f"the {title(s.name)}")
            low, high = self.value(s.value.low), self.value(s.value.high)
            return _cap(f"{who.verb('choose')} a number from {low} to {high}, the {title(s.name)}.")
        if any(isinstance(node, (A.RandomBetween, A.RandomFrom)) for node in A.walk(s.value)):
            # Drawn once, here: later uses read the name, not another draw.
            self.names[s.name] = Phrase(f"the {title(s.name)}")
            return _cap(f"{self.value(s.value)} is drawn; call it the {title(s.name)}.")
        if self.fold(s.value) is None and any(isinstance(node, A.CurrentColor) for node in A.walk(s.value)):
            # The color in play changes as the effect goes on: the value is noted now, under a name.
            self.names[s.name] = Phrase(f"the {title(s.name)} color")
            return _cap(f"{self.color(s.value)} is noted as the {title(s.name)} color.")
        if isinstance(s.value, A.Where):
            # `let NAME = G where COND`: the players meeting COND now; later reads are of them, not tested again.
            self.names[s.name] = Phrase(f"the {title(s.name)}")
            return _cap(f"{self.group(s.value)}, as they are now, are the {title(s.name)}.")
        self.names[s.name] = s.value
        return None

    def s_swap_hands(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('swap')} hands with {who.text}.")

    def s_rotate_hands(self, s):
        return f"Every player passes their hand to the next player {_WAY_WORDS[s.way]}."

    def s_give(self, s):
        giver, taker = self.player(s.giver), self.player(s.taker)
        return _cap(f"{giver.verb('give')} {self.cards(s.count)} of {giver.their} choice{self.meeting(s)} to "
                    f"{taker.text}.")

    def meeting(self, s) -> str:
        """The `where COND` of a pick in words: ", among the cards for which ...", else nothing."""
        if s.test is None:
            return ""
        before, self.card_phrase = self.card_phrase, "that card"
        try:
            test = self.cond(s.test)
        finally:
            self.card_phrase = before
        otherwise = getattr(s, "otherwise", None)
        if otherwise is None:
            return f" (only cards for which {test}; with none, nothing happens)"
        instead = " ".join(self.stmts(otherwise)) or "Nothing happens."
        return f" (only cards for which {test}; with none, instead: {lower_first(instead).removesuffix('.')})"

    def s_discard_where(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('discard')} every card of {who.their} hand for which"
                    f"{self.meeting(s).removeprefix(' (only cards for which').split(';')[0]} "
                    f"(under the top card of the discard pile).")

    def s_exchange(self, s):
        a, b = self.player(s.first), self.player(s.second)
        return _cap(f"{a.text} and {b.text} each pick {self.cards(s.count)} from their own hand, face down; "
                    f"then the picked cards change hands at the same time.")

    def s_look(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('look')} at {who.pos} hand.")

    def s_show_hand(self, s):
        who = self.player(s.who)
        to = s.to
        if to.rule == "var" and self.bound_expr(to) is not None:
            to = self.bound_expr(to)
        if to.rule in _GROUPS:
            shown = "every other player" if to.rule in ("all_players", "all_from") else self.group(to)
            if who.text == self.me.text:         # the owner is never shown their own hand
                shown = shown.replace(" (you included)", "").replace(f" ({who.text} included)", "")
            return _cap(f"{who.verb('show')} {who.their} hand to {shown}; each of them sees it as it is now.")
        return _cap(f"{who.verb('show')} {who.their} hand to {self.player(to).text}, who sees it as it is now.")

    def s_trade(self, s):
        who = self.player(s.who)
        return _cap(f"{self.me.verb('may', 'may')} swap any number of {self.me.their} cards, one for one, with cards "
                    f"of {who.pos} hand (seen face up), so both hands keep their size.")

    def s_discard_color(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('discard')} every card of {self.color(s.color)} from {who.their} hand "
                    f"(under the top card of the discard pile).")

    # named piles

    def pile(self, name) -> str:
        declared = self.variant.piles.get(getattr(name, "name", None))
        if isinstance(name, A.SeatPile) and declared is not None and declared.per_role:   # `armory of captain`
            return f"the {title(name.who.name)}'s {title(name.name)} pile"
        if isinstance(name, A.RolePile):                # `armory of role of next`: the next player's role's
            return f"the {title(name.name)} pile of {self.player(name.who).pos} role"
        if isinstance(name, A.SeatPile):                # a pile of each player: `stock of next`, the next player's
            return f"{self.player(name.who).pos} {title(name.name)} pile"
        if isinstance(name, A.IndexedPile):             # one of an array of piles: `lane 2`, `lane i`
            index = name.index
            bound = self.names.get(index.name) if isinstance(index, A.Var) else None
            if getattr(bound, "pile_array", None) == name.name:      # the pile a `for each i in lane` is at
                return f"that {title(name.name)} pile"
            number = self.const(index)
            if isinstance(number, int):
                return f"the {title(name.name)} {number} pile"
            return f"the {title(name.name)} pile numbered {self.num(index)}"
        return {"draw": "the draw pile", "discard": "the discard pile"}.get(name, f"the {title(name)} pile")

    def s_move(self, s):
        if isinstance(s.count, A.PileCount) and s.count.pile == s.source and s.source != "discard" \
                and not self.held(s.count):
            return _cap(f"every card of {self.pile(s.source)} moves to {self.pile(s.dest)}"
                        + (" (under its top card)." if s.dest == "discard" else "."))
        under = " (under its top card)" if s.dest == "discard" else ""
        source = "from under the top card of the discard pile" if s.source == "discard" else \
            f"from the top of {self.pile(s.source)}"
        verb = "moves" if self.const(s.count) == 1 else "move"
        return _cap(f"{self.cards(s.count)} {verb} {source} to {self.pile(s.dest)}{under}.")

    def s_take(self, s):
        who = self.player(s.who)
        if isinstance(s.count, A.PileCount) and s.count.pile == s.pile and not self._played_on(s.pile) \
                and not self.held(s.count):
            return _cap(f"{who.verb('take')} every card of {self.pile(s.pile)} into {who.their} hand.")
        source = "from under the top card of the discard pile" if s.pile == "discard" else \
            f"from the top of {self.pile(s.pile)}"
        if s.test is not None:
            source = "from under the top card of the discard pile" if s.pile == "discard" else \
                f"from {self.pile(s.pile)}"
            return _cap(f"{who.verb('take')} {self.cards(s.count)} {source}, the first ones looking down from the "
                        f"top{self.meeting(s)}, into {who.their} hand.")
        return _cap(f"{who.verb('take')} {self.cards(s.count)} {source} into {who.their} hand.")

    def s_take_top(self, s):
        who = self.player(s.who)
        if s.pile == "draw":
            return _cap(f"{who.verb('take')} the top card of the draw pile into {who.their} hand.")
        return _cap(f"{who.verb('take')} the top card of {self.pile(s.pile)} into {who.their} hand"
                    + (", and the card under it is the pile's top card." if self._played_on(s.pile) else "."))

    def s_take_all(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('take')} the whole of {self.pile(s.pile)}, its top card included, into "
                    f"{who.their} hand.")

    def _played_on(self, name: str) -> bool:
        """Whether cards are played on the pile `name` (the discard pile, a playable one)."""
        pile = self.variant.piles.get(name)
        return name == "discard" or (pile is not None and pile.playable)

    def s_put(self, s):
        who = self.player(s.who)
        where = f"{self.pile(s.pile)}" + (" (under its top card)" if s.pile == "discard" else "")
        return _cap(f"{who.verb('put')} {self.cards(s.count)} of {who.their} choice{self.meeting(s)} on {where}.")

    def s_redeal(self, s):
        start = "you" if self.me.you else self.me.text
        after = "after" if s.way in (None, "play") else {"left": "to the left of", "right": "to the right of",
                                                          "against": "before"}[s.way]
        going = "" if s.way in (None, "play") else f" and going round {_WAY_WORDS[s.way]}"
        return (f"All hands are gathered, shuffled and dealt out again one card at a time, starting with the "
                f"player {after} {start}{going}.")

    def s_extra_turn(self, s):
        if self.where == "on_start":
            return _cap(f"{self.me.verb('take')} the first turn.")
        return _cap(f"{self.me.verb('take')} another turn.")

    def s_turn_to(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('take')} the next turn.")

    def s_eliminate(self, s):
        who = self.player(s.who)
        return _cap(f"{who.be()} out of the round for good; {who.their} cards go "
                    f"{ELIMINATED_CARDS[self.variant.eliminated_cards]}.")

    def s_lock(self, s):
        color, owner = self.color(s.color), self.player(s.owner)
        wilds = "" if self.variant.lock_allows_wild else " (not even wild cards)"
        until = "your next turn" if owner.you else f"{owner.pos} next turn"
        return (f"Until {until}, the other players may only play cards of {color}{wilds}; "
                f"a player without one draws.")

    def s_must_play(self, s):
        who, color = self.player(s.who), self.color(s.color)
        return _cap(f"{who.verb('must', 'must')} play a card of {color} if {who.they} can; the turn then continues "
                    f"from {who.text}.")

    def s_must_play_block(self, s):
        who, color = self.player(s.who), self.color(s.color)
        otherwise = self.stmts(s.otherwise)
        return [_cap(f"{who.verb('must', 'must')} play a card of {color}; the turn then continues from {who.text}."),
                _join_if(f"If {who.they} cannot", otherwise)]

    def s_must_play_where(self, s):
        who = self.player(s.who)
        before, self.card_phrase = self.card_phrase, "that card"
        try:
            test = self.cond(s.test)
        finally:
            self.card_phrase = before
        first = _cap(f"{who.verb('must', 'must')} play a card for which {test}, if {who.they} can; the turn then "
                     f"continues from {who.text}.")
        if s.otherwise is None:
            return first
        return [first, _join_if(f"If {who.they} cannot", self.stmts(s.otherwise))]

    def s_flip_again(self, s):
        return "Ignore it: leave it in the discard pile and turn up the next card of the draw pile instead."

    def s_return_and_flip(self, s):
        return "Put it back into the draw pile, shuffle, and turn up a new start card."

    def s_score(self, s):
        who = self.player(s.who)
        n = self.const(s.count)
        team = " (with their whole team)" if self.variant.score_by == "team" else ""
        if isinstance(n, int) and not isinstance(n, bool):
            verb = who.verb("score") if n >= 0 else who.verb("lose")
            return _cap(f"{verb} {abs(n)} point{'' if abs(n) == 1 else 's'}{team}.")
        return _cap(f"{who.verb('score')} as many points as {self.num(s.count)}{team}.")

    def s_flip_all(self, s):
        sides = f" ({title(self.variant.sides[0])} or {title(self.variant.sides[1])})" if self.variant.sides else ""
        return (f"Turn every card over, each in its place: every hand, the draw pile and the discard pile. "
                f"Play goes on with the other side up{sides}, in the color of the new top card; if it is a "
                f"wild, {self.me.verb('name')} the color.")

    def s_if_stmt(self, s):
        out: list[str] = []
        first = True
        for clause in s.clauses:
            value = self.fold(clause.test)
            if value is False:
                continue
            if value is True:
                body = self.stmts(clause.body)
                if first:
                    return body
                out.append(_join_if("Otherwise", body))
                return out
            out.append(_join_if(("If " if first else "Otherwise, if ") + self.cond(clause.test),
                                self.stmts(clause.body)))
            first = False
        if s.otherwise is not None:
            body = self.stmts(s.otherwise)
            out.extend(body if first else [_join_if("Otherwise", body)])
        return out

    def s_for_stmt(self, s):
        group = s.group
        pile = self.variant.piles.get(group.name) if isinstance(group, A.Var) and group.name not in self.names else None
        if pile is not None and pile.count:             # `for each i in lane:` each pile of an array, in order
            self.names[s.name] = number = Phrase(f"the number of that {title(pile.name)} pile")
            number.pile_array = pile.name
            return _join_if(f"For each {title(pile.name)} pile in turn, from 1 to {pile.count}", self.stmts(s.body))
        self.names[s.name] = _P("that player")
        return _join_if(f"For {self.each(s.group)}", self.stmts(s.body))

    def s_repeat_stmt(self, s):
        n = self.const(s.count)
        times = "twice" if n == 2 else f"{n} times" if isinstance(n, int) else f"{self.num(s.count)} times"
        body = self.stmts(s.body) or ["nothing."]
        return f"Do the following {times}: " + " ".join([lower_first(body[0])] + body[1:])

    def s_challenge(self, s):
        who = self.player(s.who)
        branches = {b.kind: self.stmts(b.body) for b in s.branches}
        out = [_cap(f"{who.verb('may', 'may')} challenge {self.card_phrase}.")]
        words = {"guilty": f"If {who.they} challenge and it was played illegally",
                 "innocent": f"If {who.they} challenge and it was played legally",
                 "accepted": f"If {who.they} do not challenge"}
        for name in A.BRANCHES:
            body = branches.get(name)
            out.append(_join_if(words[name], body or ["nothing happens."]))
        return out

    def s_choice(self, s):
        who = self.player(s.who)
        parts = []
        for option in s.options:
            offered = True if option.test is None else self.fold(option.test)
            if offered is False:
                continue                        # a ruling leaves it out
            body = " ".join(self.stmts(option.body)) or "Nothing happens."
            when = "" if offered is True else f" (only if {self.cond(option.test)})"
            parts.append(f"{title(option.name)}{when}: {lower_first(body).removesuffix('.')}")
        return _cap(f"{who.verb('choose')} one: " + "; ".join(parts) + ".")

    def s_call(self, s):
        # A procedure is said once, under its name (the rulebook's named effects: `procedure`); a call
        # names it and what its parameters stand for, rather than copying its body into every card.
        proc = self.variant.procedures[s.name]
        args = [f"{self.parameter(name, typ)}: {self.argument(arg, typ)}" for (name, typ), arg in zip(proc.params, s.args)]
        return f"*{_cap(title(s.name))}*" + (f" ({'; '.join(args)})" if args else "") + "."

    def procedure(self, proc) -> str:
        """A procedure said once, as the rulebook defines it: "For a player (the target): the target draws ..."."""
        tree = self.variant.syntax.tree(proc.body)
        kinds = {"player": "a player", "number": "a number", "color": "a color"}
        bound = {name: (_P if typ == "player" else Phrase)(self.parameter(name, typ)) for name, typ in proc.params}
        caller = self.names
        self.names = {**caller, **bound}
        try:
            body = " ".join(self.stmts(tree.body)) if tree is not None else ""
        finally:
            self.names = caller
        body = body or "Nothing happens."
        if not proc.params:
            return body
        given = [f"{kinds[typ]} ({self.parameter(name, typ)})" for name, typ in proc.params]
        return _join_if("Given " + ", ".join(given[:-1]) + (" and " if len(given) > 1 else "") + given[-1], [body])

    @staticmethod
    def parameter(name: str, typ: str) -> str:
        """A procedure's parameter as the rulebook calls it: "the target", "n", "the paint color"."""
        words = title(name)
        if typ == "player":
            return f"the {words}"
        if typ == "color":
            return f"the {words}" if words.endswith("color") else f"the {words} color"
        return words

    def argument(self, e, typ: str) -> str:
        """What a call gives a parameter of type `typ`, as a noun phrase."""
        if typ == "player":
            return self.player(e).text
        if typ == "color":
            return self.color(e)
        return self.num(e)

    def s_set_var(self, s):
        var = self.declared(s.name)
        if var is not None and var.visibility == "hidden":
            return None             # the game's own bookkeeping, which no player sees: not a rule to say
        whose = f"{self.me.pos} " if var is not None and var.per_player else "the "
        return _cap(f"{whose}{title(s.name)} becomes {self.new_value(s.value, var)}.")

    def s_set_var_of(self, s):
        var = self.variant.player_state.get(s.name)
        return _cap(f"{self.player(s.who).pos} {title(s.name)} becomes {self.new_value(s.value, var)}.")

    def new_value(self, e, var) -> str:
        """The value a `set` gives, as a noun phrase (a condition as true or false, a color by its name)."""
        if var is not None and var.type == "bool" and self.fold(e) is None:
            return f"true if {self.cond(e)}, else false"
        if var is not None and var.type == "color":
            return self.color(e)
        return self.value(e)

    def declared(self, name: str):
        """The declared variable (state: or player_state:) of that name, unless a let name hides it."""
        if name in self.names:
            return None
        return self.variant.state.get(name) or self.variant.player_state.get(name)

    def variable(self, e) -> str | None:
        """A declared variable read (`NAME`, `NAME of P`) as a noun phrase, or None for another name."""
        if e.rule == "var_of":
            return f"{self.player(e.who).pos} {title(e.name)}"
        var = self.declared(e.name)
        if var is None:
            return None
        return f"{self.me.pos} {title(e.name)}" if var.per_player else f"the {title(e.name)}"

    def s_draw_stack(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('draw')} the whole pending draw stack at once, which ends it "
                    f"(nothing happens when no stack is pending).")

    def s_pass_stack(self, s):
        who = self.player(s.who)
        return _cap(f"{who.verb('face')} the whole draw stack instead, on the next turn: "
                    f"{who.they} may answer it or draw it.")
