"""The rulebook: a readable description of a compiled variant, in Markdown or plain text.

What each card does comes from its `text` when the author gave one, and otherwise from
english.py's translation of its effect. Output is deterministic: the same variant always
gives the same text, byte for byte.

    python -m tools.rulebooks            # regenerate docs/variants/<variant>.md
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

from ..effects import ast as A
from ..effects.ast import walk
from .english import Translator, describe_condition, describe_effect
from .phrases import ELIMINATED_CARDS, lower_first, title

# ---------------------------------------------------------------------------
# A tiny document model, rendered to Markdown or to plain text.


@dataclass(frozen=True)
class _Block:
    kind: str                  # h1 | h2 | h3 | p | ul | table
    text: str = ""
    items: tuple = ()
    header: tuple = ()


def _render_markdown(blocks: list[_Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"# {b.text}")
        elif b.kind == "h2":
            out.append(f"## {b.text}")
        elif b.kind == "h3":
            out.append(f"### {b.text}")
        elif b.kind == "p":
            out.append(b.text)
        elif b.kind == "ul":
            out.append("\n".join(f"- {item}" for item in b.items))
        elif b.kind == "table":
            rows = [b.header] + list(b.items)
            lines = ["| " + " | ".join(_md_cell(c) for c in b.header) + " |",
                     "|" + "|".join("---" for _ in b.header) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows[1:]]
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _render_text(blocks: list[_Block]) -> str:
    out: list[str] = []
    for b in blocks:
        if b.kind == "h1":
            out.append(f"{b.text}\n{'=' * len(b.text)}")
        elif b.kind == "h2":
            out.append(f"{b.text}\n{'-' * len(b.text)}")
        elif b.kind == "h3":
            out.append(f"{b.text}:")
        elif b.kind == "p":
            out.append(_wrap(_plain(b.text), 78))
        elif b.kind == "ul":
            out.append("\n".join(_wrap(_plain(item), 78, "  * ", "    ") for item in b.items))
        elif b.kind == "table":
            rows = [tuple(_plain(str(c)) for c in b.header)] + [tuple(_plain(str(c)) for c in r) for r in b.items]
            widths = [max(len(r[i]) for r in rows) for i in range(len(b.header))]
            if sum(widths) + 2 * (len(widths) - 1) > 78:
                out.append(_records(rows))
                continue
            lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
            lines.insert(1, "  ".join("-" * w for w in widths))
            out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


def _records(rows: list[tuple]) -> str:
    """A table too wide for a terminal, as one wrapped record per row."""
    header, records = rows[0], []
    for row in rows[1:]:
        lines = [row[0]]
        for name, value in zip(header[1:], row[1:]):
            if value:
                lines.append(_wrap(f"{name}: {value}", 78, "    ", "      "))
        records.append("\n".join(lines))
    return "\n".join(records)


def _plain(text: str) -> str:
    """Markdown inline markup removed: `code` and **bold** become plain words."""
    text = re.sub(r"\*\*([^*]+)\*\*", r"\1", text)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\1", text).replace("`", "")


def _wrap(text: str, width: int, first: str = "", rest: str = "") -> str:
    return textwrap.fill(" ".join(text.split()), width, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


# ---------------------------------------------------------------------------
# The rulebook


def _yaml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _one_line(text: str | None) -> str:
    return " ".join(str(text).split()) if text else ""


def _numbers_summary(by_number: dict) -> str:
    """{0: 1, 1: 2, ..., 9: 2} -> "0: 1, 1-9: 2" (runs of consecutive numbers with the same count)."""
    runs: list[list] = []
    for number in sorted(by_number):
        count = by_number[number]
        if runs and runs[-1][1] == number - 1 and runs[-1][2] == count:
            runs[-1][1] = number
        else:
            runs.append([number, number, count])
    return ", ".join((f"{lo}" if lo == hi else f"{lo}-{hi}") + f": {count}" for lo, hi, count in runs)


def _list_words(items: list[str], conj: str = "and") -> str:
    items = list(items)
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conj} " + items[-1]


def _said(lead: str, game, text, where: str, tail: str = "") -> str:
    """`lead` and the English of an effect, or "" when the effect says nothing a player sees (only the
    game's bookkeeping): an item with nothing after its lead is no item."""
    said = describe_effect(game, text, where)
    return f"{lead}{lower_first(said)}{tail}" if said else ""


def _players_line(v) -> str:
    if v.allowed_players:
        counts = _list_words([str(n) for n in v.allowed_players], "or")
    elif v.min_players == v.max_players:
        counts = str(v.min_players)
    else:
        counts = f"{v.min_players} to {v.max_players}"
    return f"For {counts} players."


class _Rulebook:
    def __init__(self, game):
        self.g = game
        self.v = game.variant
        self.blocks: list[_Block] = []

    def h(self, level: int, text: str) -> None:
        self.blocks.append(_Block(f"h{level}", text))

    def p(self, text: str) -> None:
        if text:
            self.blocks.append(_Block("p", text))

    def ul(self, items) -> None:
        items = tuple(i for i in items if i)
        if items:
            self.blocks.append(_Block("ul", items=items))

    def table(self, header, rows) -> None:
        self.blocks.append(_Block("table", items=tuple(tuple(r) for r in rows), header=tuple(header)))

    # --- sections

    def build(self) -> list[_Block]:
        v = self.v
        self.h(1, v.name)
        self.p(_one_line(v.description))
        self.p(f"*Generated by `unodsl rules` from `{Path(v.path).name}`; edit the variant file, not this page.*")
        if v.sources:
            self.p("Sources: " + "; ".join(v.sources) + ".")
        self.players()
        self.deck()
        self.card_effects()
        self.named_effects()
        self.setup()
        self.turn()
        self.uno()
        self.windows()
        self.house_rules()
        self.round_end()
        self.scoring()
        self.variables()
        self.rulings()
        return self.blocks

    def players(self) -> None:
        v = self.v
        self.h(2, "Players")
        items = [_players_line(v)]
        if v.team_size > 1:
            items.append(f"Players sit in teams of {v.team_size}, teammates spread evenly around the table so "
                         f"that the teams alternate in turn order (with 4 players, partners sit opposite).")
        if v.roles:
            items.append(self.roles_line())
        self.ul(items)
        if any(role.summary for role in v.roles.values()):
            self.table(("Role", "What it is"), [(title(role.name), role.summary or "")
                                                for role in v.roles.values()])

    def roles_line(self) -> str:
        """How the seats' roles are given (roles:), in one sentence."""
        v = self.v
        roles = [f"the {title(r.name)}" + (f" (up to {r.seats} players)" if r.seats > 1 else "")
                 for r in v.roles.values()]
        given = ("to the players at random" if v.roles_given == "random"
                 else "in seat order, the first player listed taking the first")
        return (f"Each player holds a role for the whole match. As it begins, the roles are taken in this order, "
                f"as many as there are players: {', then '.join(roles)}; they are given {given}. Everyone "
                f"knows every player's role.")

    def deck(self) -> None:
        v = self.v
        self.h(2, "The deck")
        if v.sides:
            self.two_sides()
        elif v.colors:
            self.p(f"{v.deck_size} cards in {len(v.colors)} colors: {_list_words([title(c) for c in v.colors])}.")
        else:
            self.p(f"{v.deck_size} cards, with no colors: every card is wild.")
        rows = []
        for ct in v.cards.values():
            colored = [c for c in ct.copies if c]
            total = sum(n for by in ct.copies.values() for n in by.values())
            if colored:
                first = ct.copies[colored[0]]
                same = all(ct.copies[c] == first for c in colored)
                per = (_numbers_summary(first) if None not in first else str(first[None])) if same else "varies"
                colors = "all" if len(colored) == len(v.colors) else ", ".join(title(c) for c in colored)
            else:
                by = ct.copies.get("", {})
                per = "—"
                colors = "none"
                if by and None not in by:
                    per = _numbers_summary(by) + " (in all)"
            points = "face value" if ct.points is None else str(ct.points)
            rows.append(((title(ct.side),) if v.sides else ()) + (ct.name, ct.kind, colors, per, str(total), points))
        self.table((("Side",) if v.sides else ()) + ("Card", "Kind", "Colors", "Copies per color", "Total", "Points"),
                   rows)

    def two_sides(self) -> None:
        """A two-sided deck: its sides, and which face is on the back of which."""
        v = self.v
        (first, other), (first_colors, other_colors) = v.sides, v.side_colors
        pairs = [f"{v.cards[ct.back].name if ct.back in v.cards else ct.back} on the back of {ct.name}"
                 for ct in v.cards.values() if v.dealt(ct) and ct.back]
        colors = [f"{title(b)} on {title(a)}" for a, b in zip(first_colors, other_colors)]
        self.p(f"{v.deck_size} two-sided cards: a {title(first)} face in "
               f"{_list_words([title(c) for c in first_colors])} and a {title(other)} face in "
               f"{_list_words([title(c) for c in other_colors])}. They are dealt and held {title(first)} side up "
               f"(each player sees the other side of the other hands and of the draw pile's top card), and "
               f"play, matching and points always read the side that is up.")
        self.p(f"On the back of each card: {_list_words(pairs)}; {_list_words(colors)}, with the same number.")

    def card_effects(self) -> None:
        v = self.v
        self.h(2, "What the cards do")
        match = describe_condition(self.g, v.match, "match") if v.match is not None else None
        if match == "always":
            self.p("Every card matches any top card: any card may be played on any other.")
        elif match == "never":
            self.p("No card matches the top card: a card may be played only where its own matching allows it.")
        elif match is not None:
            self.p(f"Play a card on the discard pile when it matches the top card: when {match}.")
        elif v.colors:
            self.p("Play a card on the discard pile when it matches the top card by color, number or symbol. "
                   "A wild card can be played on anything.")
        else:
            self.p("Every card is wild: any card may be played on any other.")
        for ct in v.cards.values():
            lines = []
            if ct.text:
                lines.append(_one_line(ct.text))
            elif ct.on_play is not None and describe_effect(self.g, ct.on_play, "on_play"):
                lines.append(describe_effect(self.g, ct.on_play, "on_play"))
            else:
                lines.append("No effect: it only has to match." if ct.kind == "number" or not ct.wild
                             else "No effect.")
            if ct.match is not None:
                own = describe_condition(self.g, ct.match, "match")
                lines.append({"always": "It matches any top card.", "never": "It never matches the top card."}.get(
                    own, f"It matches the top card when {own}."))
            if ct.on_stack is not None:
                lines.append(self.on_stack_line(ct))
            for name, value in ct.attrs.items():
                shown = ("yes" if value else "no") if isinstance(value, bool) else title(str(value))
                lines.append(f"Its {title(name)} is {shown}.")
            lines.extend(self.restriction_lines(ct))
            # What a card does as the last card is said once, under "End of a round".
            self.h(3, f"{ct.name} ({title(ct.side)})" if v.sides else ct.name)
            self.p(" ".join(line for line in lines if line))

    def restriction_lines(self, ct) -> list[str]:
        """A card's restrictions in words: the strict one it cannot be played without, then the one a
        challenge checks."""
        lines = []
        strict = describe_condition(self.g, ct.strict, "condition") if ct.strict else "always"
        if strict == "never":
            return ["It can never be played."]
        if strict != "always":
            lines.append(f"You may play it only when {strict}.")
        bluff = describe_condition(self.g, ct.challenge, "condition") if ct.challenge else "always"
        if bluff == "never":
            lines.append("Playing it is never legal. Nobody checks this when you play it, so you may bluff; a "
                         "challenge finds it out.")
        elif bluff != "always":
            also = "also " if lines else ""
            lines.append(f"You may {also}play it legally only when {bluff}. Nobody checks this when you play it, "
                         "so you may bluff; a challenge finds it out.")
        return lines

    def named_effects(self) -> None:
        """The procedures the effects run (`do NAME(...)`), each said once: a card names it rather than repeating it."""
        v = self.v
        called = sorted({node.name for tree in v.syntax.trees.values() for node in walk(tree)
                         if isinstance(node, A.Call) and node.name in v.procedures}, key=list(v.procedures).index)
        if not called:
            return
        self.h(2, "Named effects")
        self.p("These effects are written once and named: a card that runs one names it, in italics, with what "
               "it is given.")
        for name in called:
            self.h(3, title(name)[:1].upper() + title(name)[1:])
            self.p(Translator(self.g, "on_play").procedure(v.procedures[name]))

    def on_stack_line(self, ct) -> str:
        """What a card with an on_stack effect does on a pending draw stack ("" where it never applies)."""
        when = describe_condition(self.g, ct.on_stack_if, "condition") if ct.on_stack_if is not None else "always"
        if when == "never" or not ct.on_stack.source.strip():
            return ""
        intro = "A player facing a draw stack may play it, when it matches as on a turn"
        intro += "" if when == "always" else f" and {when}"
        return (f"{intro}, instead of answering with a draw card; then, in place of the above: "
                + lower_first(describe_effect(self.g, ct.on_stack, "on_stack")))

    def setup(self) -> None:
        v, g = self.v, self.g
        self.h(2, "Setting up")
        dealer = {"random": "A random player deals the first round.",
                  "high_card": "Each player turns up a card; the highest number deals the first round (symbols "
                               "count as zero, ties turn again).",
                  "seat_0": "The first player listed deals the first round."}.get(v.dealer, "")
        items = [dealer + " The deal passes to the left each round.",
                 f"The dealer shuffles and deals {v.hand_size} cards to each player, one at a time, starting "
                 f"with the player to the dealer's left.",
                 ("The rest of the deck is the draw pile. Its top card is turned up to start the discard pile"
                  + ("; its color is the current color (any card may follow a wild start card until a color is "
                     "named)." if v.colors else "."))
                 if v.start_card else
                 ("The rest of the deck is the draw pile. No card is turned up: the discard pile starts empty, no "
                  "color is named, and the first player may play any card."),
                 "The player to the dealer's left plays first, and play goes to the left."]
        if v.on_deal is not None:
            items.insert(2, _said("After the deal: ", g, v.on_deal, "setup"))
        for pile in v.piles.values():
            face = ("face up: everyone may look through it" if pile.face_up
                    else "face down: only how many cards it holds is known")
            played = (f" Cards are played on it as on the discard pile: it has its own top card and color, a card "
                      f"played on it must match them (its first card may be any card), and \"top card\" and \"the "
                      f"color\" in a card's effect mean those of the pile it was played on. When the draw pile runs "
                      f"out, it is shuffled in with the discard pile, but for its top card."
                      if pile.playable else "")
            dealt = (f"dealt {pile.deal} card{'s' if pile.deal != 1 else ''} from the deck at the start of each "
                     f"round, after the hands and the start card" if pile.deal else "empty at the start of each round")
            if pile.where is not None:                  # filled by a condition, before the hands (`where:`)
                several = pile.per_player or pile.per_role or pile.count
                which = describe_condition(g, pile.where, "match")
                taken = (f"{pile.deal} card{'s' if pile.deal != 1 else ''} taken at random from the deck's cards "
                         f"for which {which}" if pile.deal else
                         f"all the deck's cards for which {which}" + (", dealt round the piles one at a time"
                                                                     if several else ""))
                dealt = (f"filled at the start of each round, before the hands are dealt, with {taken} (fewer when "
                         f"the deck cannot spare them and still deal the hands)")
            if pile.per_player:
                face = ("face up: everyone may look through it" if pile.face_up
                        else "face down: only how many cards it holds is known, to its owner too")
                items.append(f"Each player also has a {title(pile.name)} pile of their own, {dealt}, {face}. "
                             f"Cards on it score nothing.")
                continue
            if pile.per_role:                           # a pile of each role (`per_role: true`)
                dealt += " (a role no player holds is dealt none)" if pile.deal or pile.where is not None else ""
                article = "an" if pile.name[:1].lower() in "aeiou" else "a"
                items.append(f"Each role also has {article} {title(pile.name)} pile of its own, {dealt}, {face}. "
                             f"Cards on it score nothing.")
                continue
            if pile.count:                              # an array of piles (`count: N`)
                played = (" Cards are played on each as on the discard pile: each has its own top card and color, a "
                          "card played on one must match them (its first card may be any card), and \"top card\" and "
                          "\"the color\" in a card's effect mean those of the pile it was played on. When the draw pile "
                          "runs out, they are shuffled in with the discard pile, but for their top cards."
                          if pile.playable else "")
                face = re.sub(r"\bit\b", "each", face)
                items.append(f"The table also has {pile.count} {title(pile.name)} piles, numbered 1 to {pile.count}, "
                             f"each {dealt}, {face}.{played} Cards on them score nothing.")
                continue
            items.append(f"The table also has a {title(pile.name)} pile, {dealt}, {face}."
                         f"{played} Cards on it score nothing.")
        self.ul(items)
        if not v.start_card:
            return
        self.h(3, "The start card")
        groups: dict[str, list[str]] = {}
        for ct in v.cards.values():
            if not v.dealt(ct):
                continue                     # the other side of a two-sided deck is never turned up first
            text = ct.on_start or v.start_default or ct.on_play
            said = describe_effect(g, text, "on_start") if text is not None else ""
            said = said or "Nothing happens; play starts normally."
            groups.setdefault(said, []).append(ct.name)
        self.table(("Start card", "What happens"), [(", ".join(names), said) for said, names in groups.items()])

    def turn(self) -> None:
        v, g = self.v, self.g
        self.h(2, "A turn")
        items = []
        if v.colors:
            items.append("Play one card that matches the top card of the discard pile, or draw.")
        else:
            items.append("Play any one card, or draw when drawing is allowed.")
        if v.turn_start is not None:
            items.append(_said("At the start of your turn, before you play or draw: ", g, v.turn_start, "turn_start"))
        if v.turn_draw is not None:
            items.append(_said("When you draw on your turn: ", g, v.turn_draw, "turn_draw",
                               " The last card this puts in your hand is the card you drew."))
        elif v.no_playable == "draw_until_playable":
            items.append("If you cannot play, draw cards one at a time until you draw one you can play.")
        else:
            items.append("If you cannot play, draw one card.")
        if g.may_always_draw:
            # With `turn.draw` the draw is that effect, which may bring any number of cards.
            items.append("You may also draw instead of playing a card you could play." if v.turn_draw is not None
                         else "You may also draw one card instead of playing a card you could play.")
        elif v.may_draw_if is not None:
            cond = describe_condition(g, v.may_draw_if, "condition")
            if cond == "never":
                items.append("You may not draw while you hold a card you can play.")
            else:
                items.append(f"You may draw instead of playing a card you could play only when {cond}.")
        drawn = {"optional": "If the card you drew can be played, you may play it at once or keep it; no other "
                             "card may be played after drawing. Otherwise your turn ends.",
                 "forced": "If the card you drew can be played, you must play it at once. Otherwise your turn "
                           "ends.",
                 "forbidden": "You keep the card you drew, even if it could be played; your turn ends."
                 if v.turn_draw is None else "You keep the cards you drew, even one you could play; your turn ends."}
        items.append(drawn.get(v.drawn_card, ""))
        if v.sets is not None:
            items.append(self._sets())
        if self._uses(A.Lock):
            items.append("While a color lock is in force, wild cards "
                         + ("count as cards of the locked color." if v.lock_allows_wild else "may not be played."))
        if v.after_draw is not None:
            items.append(_said("After a player (the drawer) draws: ", g, v.after_draw, "after_draw"))
        if v.card_played is not None:
            items.append(_said("Whenever you play a card, once its own effect is done: ", g, v.card_played,
                               "card_played"))
        if v.turn_end is not None:
            items.append(_said("At the end of your turn (you played a card, or drew and kept it or could not play "
                               "it): ", g, v.turn_end, "turn_end"))
        items.append("Skipped players lose their turn; players who are out of the round are passed over.")
        self.ul(items)

    def _sets(self) -> str:
        """turn.sets in words: which cards may go on a set, and when a set may end."""
        rule, g = self.v.sets, self.g
        go_on = describe_condition(g, rule.continue_, "set")
        each = {"always": "any card", "never": "no card"}.get(go_on, f"each one only when {go_on}")
        text = (f"After a card played on your turn (not a drawn card), you may go on playing cards one at a "
                f"time, up to {rule.max} in all, {each}; then stop. Each card's effect happens as it is played, "
                f"and the last card sets the color.")
        finish = describe_condition(g, rule.finish, "set") if rule.finish is not None else "always"
        if finish == "never":
            text += " A set of two or more cards may never end: only a lone card is played."
        elif finish != "always":
            text += (f" A set of two or more cards may end only when {finish}; a card is offered only if the set "
                     f"can still end that way.")
        return text

    def _uses(self, statement: type) -> bool:
        """Whether any effect of the variant has a `statement` (an effects.ast class)."""
        texts = [ct.on_play for ct in self.v.cards.values()] + [ct.on_start for ct in self.v.cards.values()]
        texts += [self.v.start_default, self.v.on_deal, *self.v.event_effects().values(), self.v.turn_draw,
                  self.v.uno_penalty_effect, self.v.on_round_end, self.v.uno_false_call_effect,
                  self.v.uno_wrong_catch_effect, self.v.uno_out_penalty_effect,
                  *(window.effect for window in self.v.windows.values())]
        for text in texts:
            tree = self.v.syntax.tree(text)
            if tree is not None and any(isinstance(node, statement) for node in walk(tree)):
                return True
        return False

    def uno(self) -> None:
        v = self.v
        word = v.uno_call
        self.h(2, f"Calling {word}")
        if not v.uno_enabled:
            self.p(f"There is no {word} call in this variant.")
            return
        g = self.g
        if v.uno_at == 1:
            when, left = "When you play your next-to-last card", "one card"
        else:
            when, left = f"When a play leaves you {v.uno_at} cards", f"{v.uno_at} cards"
        penalty = (f"you draw {v.uno_penalty} cards." if v.uno_penalty_effect is None else
                   _said("this happens: ", g, v.uno_penalty_effect, "uno_penalty") or "nothing happens.")
        items = [f"{when}, call \"{word}\". If another player catches you before the "
                 f"next player begins their turn, {penalty}",
                 f"A player left with {left} by someone else's card (a swap, a pass, a gift) must call {word} too, "
                 f"even one who had called for the hand they held before."]
        if v.uno_partner_may_call:
            items.append(f"Your partner may call {word} for you.")
        items += self.uno_calls(word, left)
        self.ul(items)

    def uno_calls(self, word: str, left: str) -> list[str]:
        """uno.false_call, uno.catch and uno.out in words: what a false call, a wrong accusation and a forgotten
        out call cost, who may catch."""
        v, g = self.v, self.g
        items = []
        if v.uno_false_call is not None:
            cost = (f"you draw {v.uno_false_call} cards" if v.uno_false_call_effect is None else
                    _said("", g, v.uno_false_call_effect, "uno_false_call") or "nothing happens")
            items.append(f"You may call {word} with any play but your last card; a call when the play does not "
                         f"leave you {left} is a false call: {cost.rstrip('.')}. So is a call between turns, while "
                         f"players may catch, by a player who is not due to call; it also ends their catching "
                         f"until the next turn.")
        if v.uno_catch_if is not None:
            items.append(f"A player may catch another only when "
                         f"{describe_condition(g, v.uno_catch_if, 'uno_catch').rstrip('.')}.")
        limit = {"window": "once each time players may catch", "round": "once each round"}.get(v.uno_catch_limit)
        if limit:
            items.append(f"Each player may accuse another of not calling {word} only {limit}.")
        if v.uno_wrong_catch is not None:
            cost = (f"the accuser draws {v.uno_wrong_catch} cards" if v.uno_wrong_catch_effect is None else
                    _said("", g, v.uno_wrong_catch_effect, "uno_wrong") or "nothing happens")
            items.append(f"After a play that leaves a player {left}, any player may accuse another of not calling "
                         f"{word}; accusing a player who called, or who does not hold {left}, is wrong: "
                         f"{cost.rstrip('.')}, and the accuser may accuse no one else before the next turn.")
        if v.uno_out_call is not None:
            out = v.uno_out_call
            cost = (f"you draw {v.uno_out_penalty} cards" if v.uno_out_penalty_effect is None else
                    _said("", g, v.uno_out_penalty_effect, "uno_out") or "nothing happens")
            items.append(f"When you play your last card, call \"{out}\". If you do not, {cost.rstrip('.')} at once, "
                         f"before the card takes effect, and you do not go out while you hold cards.")
        return items

    def windows(self) -> None:
        """windows: the rules a player may invoke at any time, each as who may, when, and what it does."""
        v, g = self.v, self.g
        if not v.windows:
            return
        self.h(2, "At any time")
        who = {"all": "any player", "others": "any player but the one whose turn just ended",
               "opponents": "any opponent of the player whose turn just ended"}
        items = []
        for name, window in v.windows.items():
            when = (f", while {describe_condition(g, window.when, 'window').rstrip('.')}" if window.when is not None
                    else "")
            does = _said("", g, window.effect, "window") or "nothing happens"
            lead = f"**{window.summary.rstrip('.')}.** " if window.summary else ""
            items.append(f"{lead}Between turns, {who[window.who]} may {name.replace('_', ' ')}{when}: "
                         f"{does.rstrip('.')}. Each may do so once each time play passes.")
        self.ul(items)

    def house_rules(self) -> None:
        v, g = self.v, self.g
        items = []
        for rule_id in v.house_rules:
            if rule_id:
                said = v.house_rule_summaries.get(rule_id)
                name = title(rule_id)[:1].upper() + title(rule_id)[1:]
                items.append(f"**{name}.** {said}" if said else f"**{name}** is switched on.")
        if v.stacking != "none":
            answer = {"same_type": "a card of the same type",
                      "same_or_higher": "a draw card whose penalty is at least as large",
                      "plus4_on_plus2": "a card of the same type, or a draw card with a larger penalty",
                      "any_draw": "any draw card"}.get(v.stacking, v.stacking)
            # The cards that stack: those listed (every card type with a draw when none are), and only those
            # that carry a draw, as the engine's stacking table says (E360 and E361 refuse the others).
            listed = v.stack_cards if v.stack_cards is not None else tuple(v.cards)
            cards = [v.cards[c].name for c in listed if c in v.cards and v.cards[c].draw > 0]
            text = (f"**Stacking.** A player who must draw and lose their turn because of a draw card may instead "
                    f"answer with {answer} ({_list_words(cards, 'or') or 'but no card stacks'}); the penalties "
                    f"add up and pass on. The first player who cannot or will not answer draws the whole stack "
                    f"and loses their turn.")
            text += (" A stacked card may still be challenged." if v.stack_challenge
                     else " While a stack is pending, a card cannot be challenged.")
            items.append(text)
        if v.skip_answers:
            cards = [v.cards[c].name for c in v.skip_answers if c in v.cards]
            passed = ("answers add up: the first player who cannot or will not answer loses every turn skipped so "
                      "far" if v.skips_counted else "the skip passes on: the first player who cannot or will not "
                      "answer loses the turns of the last card's skip")
            items.append(f"**Skip stacking.** A player skipped while holding a {_list_words(cards, 'or')} may answer "
                         f"on their turn with one that can be played, whose skip passes it on, or take it and lose the "
                         f"turn; {passed}. Skips add up: a player skipped twice loses two turns.")
        if v.jump_in:
            wilds = "Wild cards may jump in too." if v.jump_in_wilds else "Wild cards may not jump in."
            during = g.ruling_value("jump_in_during_stack")
            text = ("**Jump-in.** Before each turn, any player holding a card identical to the top card (same color "
                    "and same number or symbol) may play it out of turn; play then continues from them. " + wilds)
            if v.stacking != "none":
                text += " Jumping in on a pending draw stack is " + ("allowed." if during else "not allowed.")
            items.append(text)
        if items:
            self.h(2, "House rules")
            self.ul(items)

    def round_end(self) -> None:
        v, g = self.v, self.g
        self.h(2, "End of a round")
        items = []
        if v.round_ends == "team_out":
            items.append("The round ends when every member of a team has played their last card; that team wins "
                         "the round.")
        else:
            items.append("The round ends as soon as a player has played their last card; that player wins the "
                         "round.")
        resolving = [ct.name for ct in v.cards.values() if ct.last_card == "resolve" and ct.draw > 0]
        ignoring = [ct.name for ct in v.cards.values() if ct.last_card == "ignore" and ct.on_play is not None]
        if resolving:
            items.append(f"A {_list_words(resolving, 'or')} played as the last card still takes effect, so the "
                         f"cards it makes others draw count in the scoring.")
        if ignoring:
            items.append(f"A {_list_words(ignoring, 'or')} played as the last card has no effect.")
        if v.on_player_out is not None:
            items.append(_said("When a player (the out player) goes out: ", g, v.on_player_out, "player_out"))
        cond = describe_condition(g, v.eliminate_when, "condition") if v.eliminate_when is not None else "never"
        if cond != "never":
            when = "At once" if cond == "always" else f"As soon as {cond}"
            items.append(f"{when}, you are out of the round for good, however the cards came (this is "
                         f"checked after every card that comes into or leaves a hand: a player knocked out while "
                         f"drawing draws no more); your cards go "
                         f"{ELIMINATED_CARDS[v.eliminated_cards]}. The last player left in the round wins it.")
        if v.win_when is not None:
            wins = describe_condition(g, v.win_when, "condition")
            when = "At once" if wins == "always" else f"As soon as {wins}"
            items.append(f"{when}, you win the round, with the cards you hold (this is checked as each play or "
                         "draw is done; a player who has just played their last card wins first).")
        if v.on_round_end is not None:
            items.append(_said("When a round with a winner ends, before it is scored: ", g, v.on_round_end,
                               "round_end"))
        stall = {"fewest_points": "the player with the fewest points in hand wins it (ties: fewest cards)",
                 "fewest_cards": "the player with the fewest cards wins it (ties: fewest points)",
                 "no_winner": "nobody wins it"}.get(v.stall, v.stall)
        items.append(f"A round that reaches turn {v.max_turns} without a winner, or that can no longer go on, "
                     f"ends as a stall: {stall}.")
        if v.reshuffle:
            items.append("When the draw pile runs out, the discard pile except its top card is shuffled to form a "
                         "new draw pile. If both are empty, a player who must draw draws nothing.")
        else:
            items.append("The draw pile is never made again from the discard pile: once it runs out, a player "
                         "who must draw draws nothing.")
        if v.blocked is not None:
            won = {"fewest_points": "the player with the fewest points in hand wins it (ties: fewest cards)",
                   "fewest_cards": "the player with the fewest cards wins it (ties: fewest points)",
                   "no_winner": "nobody wins it"}[v.blocked]
            items.append(f"The round is blocked, and ends, when at the start of a turn nobody can play a card and "
                         f"the draw pile is empty for good: {won}, and it is scored as any round.")
        self.ul(items)

    def scoring(self) -> None:
        v = self.v
        self.h(2, "Scoring")
        who = "team" if v.score_by == "team" else "player"
        if v.scoring == "none" and not self.g.rules.rounds_score:
            self.p("There is no scoring: the winner of the round wins the game.")
            return
        if v.scoring == "none":
            items = ["The cards left in the hands score nothing: points come only from the effects above.",
                     f"The first {who} to reach {v.target} points wins the game. If several are tied at the top, "
                     f"another round is played."]
        elif v.scoring == "lowest_held":
            items = ["After each round, every player adds up the points of the cards left in their own hand "
                     "(see the deck table).",
                     f"When a total reaches {v.target}, the {who} with the lowest total wins the game."]
        else:
            items = [f"The winner of a round scores the points of all cards left in the other "
                     f"{'teams' if who == 'team' else 'players'}' hands (see the deck table)"
                     + (", for their whole team." if who == "team" else "."),
                     f"The first {who} to reach {v.target} points wins the game. If several are tied at the top, "
                     f"another round is played."]
        if v.scoring == "lowest_held":
            limit = f"the {who} with the lowest total wins."
        elif self.g.ruling_value("target_tie_plays_another_round") is False:
            limit = f"the {who} with the highest total wins (of several tied, the first seat)."
        else:
            limit = f"the {who} with the highest total wins; if several are tied there, nobody does."
        items.append(f"A game that has not ended after {v.max_rounds:,} rounds ends then: {limit}")
        items.append("A single round can also be played on its own: its winner wins.")
        self.ul(items)

    def variables(self) -> None:
        """What the game keeps track of: the declared variables, each with its start, who sees it and its reset."""
        v = self.v
        declared = [*v.state.values(), *v.player_state.values()]
        if not declared:
            return
        self.h(2, "What the game keeps track of")
        self.p("Values the card effects read and change. Each one starts at its initial value; a round value "
               "goes back to it when a round is dealt, a match value is kept from round to round.")
        rows = []
        for var in declared:
            kind = {"int": "number", "bool": "yes or no", "color": "color", "card_type": "card type",
                    "enum": "one of " + ", ".join(map(title, var.values))}[var.type]
            if var.low is not None or var.high is not None:
                kind += f" ({'' if var.low is None else var.low} to {'' if var.high is None else var.high})"
            seen = {"public": "everyone", "private": "its player only", "hidden": "no player"}[var.visibility]
            start = ("none" if var.initial is None else ("yes" if var.initial else "no") if isinstance(var.initial, bool)
                     else v.cards[var.initial].name if var.type == "card_type" and var.initial in v.cards
                     else title(str(var.initial)))
            rows.append((title(var.name)[:1].upper() + title(var.name)[1:], "each player" if var.per_player
                         else "the table", kind, title(start), seen, var.reset.value, _one_line(var.summary)))
        self.table(("Value", "Kept for", "Holds", "Starts at", "Seen by", "Reset each", "Summary"), rows)

    def rulings(self) -> None:
        v = self.v
        if not v.rulings:
            return
        self.h(2, "Rulings")
        self.p("Edge cases the printed rules leave open, and the choice this variant makes. Section numbers "
               "refer to the rules reference.")
        rows = []
        for name, ruling in v.rulings.items():
            value = _yaml_value(self.g.ruling_value(name))
            if ruling.choices:
                value += " (of " + ", ".join(_yaml_value(c) for c in ruling.choices) + ")"
            rows.append((f"`{name}`", value, ruling.section or "", _one_line(ruling.summary)))
        self.table(("Ruling", "Value", "Section", "Summary"), rows)


def render_rulebook(game, fmt: str = "markdown") -> str:
    """Return the rulebook of a compiled variant as Markdown (`markdown`) or plain text (`text`)."""
    if fmt not in ("markdown", "text"):
        raise ValueError(f"unknown rulebook format {fmt!r} (markdown or text)")
    blocks = _Rulebook(game).build()
    return _render_markdown(blocks) if fmt == "markdown" else _render_text(blocks)
