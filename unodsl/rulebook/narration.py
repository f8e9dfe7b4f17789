"""The game told in words, for a seat: what happened (from `State.events_for`), the hand, the choices.

The terminal (`unodsl play`) and the web server (`unodsl serve`) both speak through this module, so a
player reads the same sentences at a keyboard and in a browser. Everything here works on what the seat
may see already (its events as engine/observation.py gives them, its own hand, its legal actions): nothing
reads the state, which keeps the words honest.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict

from ..effects import layout as D
from ..engine import MAX_FRAMES, Game, IllegalAction
from ..engine import events as E

DECISION_HELP = {
    D.TURN: "your turn: play a card or draw",
    D.DRAWN: "you drew a playable card: play it or keep it",
    D.COLOR: "choose the new color",
    D.TARGET: "choose a player",
    D.CHALLENGE: "challenge the card just played on you, or accept it",
    D.GIVE: "choose a card to give",
    D.TRADE: "swap a card with the hand you looked at, or stop",
    D.STACK: "answer the draw penalty with a stacking card, or draw the stack",
    D.FORCED: "play a card of the required color",
    D.JUMP: "jump in with the identical card, or pass",
    D.CATCH: "catch a player who did not call UNO, or pass",
    D.UNO: "you are down to one card: call UNO, or pass",
    D.PUT: "choose a card to put on the pile",
    D.OPTION: "choose one of the options",
    D.SET: "go on with your set: play another card, or stop (done)",
    D.WINDOW: "you may use the rule offered now (option NAME), or pass",
    D.NUMBER: "choose a number (number N)",
}


DIRECTIONS = {1: "clockwise", -1: "counterclockwise"}     # the one word for the direction of play, everywhere


def direction_words(direction: int) -> str:
    """The direction of play in words: clockwise (+1, the deal's) or counterclockwise."""
    return DIRECTIONS[1 if direction >= 0 else -1]


def decision_help(kind: str, legal: list[str] | None = None, color_value: bool = False) -> str:
    """What a decision asks, in words; a drawn card that must be played is not offered to keep, and a color
    named as a value (`let NAME = P chooses color`, the observation's `color_value`) leaves the color in play."""
    if kind == D.DRAWN and legal is not None and "keep" not in legal:
        return "you drew a playable card: you must play it"
    if kind == D.COLOR and color_value:
        return "name a color; the color in play stays"
    if kind == D.STACK and legal is not None and "pass" in legal:     # a pending skip (stacking.skips)
        return "answer the skip with a card that passes it on, or pass and lose the turn"
    return DECISION_HELP.get(kind, kind)


_WORDS: OrderedDict = OrderedDict()     # id(game) -> (game, its card words by id, the ids by words in lower case)
_WORDS_KEPT = 32                        # the games whose words are kept (a Game takes no weak reference)


def _card_table(game) -> tuple[dict, dict]:
    entry = _WORDS.get(id(game))
    if entry is None or entry[0] is not game:
        words = _said(game)
        entry = _WORDS[id(game)] = (game, words, {w.lower(): name for name, w in words.items()})
        while len(_WORDS) > _WORDS_KEPT:
            _WORDS.popitem(last=False)
    else:
        _WORDS.move_to_end(id(game))
    return entry[1], entry[2]


def _said(game) -> dict[str, str]:
    """Every card of the game in words: its color and number (Red 7), or its color and its type's name (Red
    Skip, Wild Draw Four). Two cards said alike are told apart by the type's name (Red 7 with Passing symbol)
    or, failing that, by their ids read as words (Wild, Dark Wild)."""
    v = game.variant
    types = list(v.cards.values())

    def plain(k):
        ct, number = types[game.k_type[k]], game.k_number[k]
        color = v.colors[game.k_color[k]].capitalize() if game.k_color[k] >= 0 else ""
        if number < 0:
            return f"{color} {ct.name}".strip()
        return f"{color} {number}" if color else f"{ct.name} {number}"

    def apart(k, name):
        ct, number = types[game.k_type[k]], game.k_number[k]
        if number >= 0 and ct.name != "Number":
            extra = ct.name[len("Number "):] if ct.name.startswith("Number ") else f"({ct.name})"
            return f"{plain(k)} {extra}"
        if number >= 0:
            return plain(k)
        return " ".join(w.capitalize() for w in name.split("_"))

    words = {name: plain(k) for k, name in enumerate(game.card_names)}
    for attempt in (apart, lambda k, name: name):
        alike = Counter(w.lower() for w in words.values())
        for k, name in enumerate(game.card_names):
            if alike[words[name].lower()] > 1:
                words[name] = attempt(k, name)
    return words


def card_words(game, name: str) -> str:
    """A card in words, as its type names it: red_7 is Red 7, wild_draw_four Wild Draw Four. Without a game
    (or for a name that is no card of it) the id read as words."""
    if game is not None and hasattr(game, "k_type"):        # a Game (not a stand-in that only sorts a hand)
        said = _card_table(game)[0].get(name)
        if said is not None:
            return said
    return " ".join(w.capitalize() for w in name.split("_"))


def cards_words(game, names) -> str:
    """Cards in words, a comma between two: "Red 7, Wild Draw Four"."""
    return ", ".join(card_words(game, n) for n in names)


def choice_words(game, action: str) -> str:
    """An action string as a player reads it: `play red_7 uno` is "play Red 7 and call UNO"."""
    words = action.split()
    if not words:
        return action
    verb, args = words[0], words[1:]
    if verb in ("play", "give", "put") and args:
        said = f"{verb} {card_words(game, args[0])}"
        if verb == "play" and len(args) >= 4 and args[-3] == "on" and args[-1].isdigit():   # `on lane 2`
            said += f" on the {args[-2]} {args[-1]} pile"
            args = args[:-3]
        elif verb == "play" and len(args) >= 3 and args[-2] == "on":    # `play K [uno] on PILE`
            said += f" on the {args[-1]} pile"
            args = args[:-2]
        return said + (" and call UNO" if args[1:] == ["uno"] else "")
    if verb == "trade" and len(args) == 2:
        return f"trade your {card_words(game, args[0])} for {card_words(game, args[1])}"
    if verb in ("target", "catch") and len(args) == 1 and args[0].isdigit():
        return f"{verb} p{args[0]}"
    if verb == "option" and args:
        return "option " + " ".join(args).replace("_", " ")
    return action


def action_from_words(game, text: str) -> str:
    """What a player typed, as an action string: card words read back as ids ("play red 7" is
    `play red_7`, "Red 7 and call UNO" is `play red_7 uno`), "trade your X for Y", "target p2"; a bare card
    is its play. Text that is none of these comes back as it was typed (lower case)."""
    text = " ".join(text.lower().split())
    by_words = _card_table(game)[1]
    cards = sorted(by_words, key=len, reverse=True)
    out, rest = [], text
    while rest:                                     # the longest card said at each word, else the word
        for said in cards:
            if rest == said or rest.startswith(said + " "):
                out.append(by_words[said])
                rest = rest[len(said):].lstrip()
                break
        else:
            word, _, rest = rest.partition(" ")
            out.append(word)
    words = out
    if words[-3:] == ["and", "call", "uno"]:
        words = words[:-3] + ["uno"]
    pile_at = len(words) - 4 - (words[-1:] == ["uno"])         # "on the NAME pile": `on NAME`, after any uno
    if pile_at >= 1 and words[pile_at:pile_at + 2] == ["on", "the"] and words[pile_at + 3] == "pile":
        words = words[:pile_at] + words[pile_at + 4:] + ["on", words[pile_at + 2]]
    elif (pile_at >= 2 and words[pile_at - 1:pile_at + 1] == ["on", "the"] and words[pile_at + 2].isdigit()
          and words[pile_at + 3] == "pile"):                   # "on the lane 2 pile": `on lane 2`, one of an array
        words = words[:pile_at - 1] + words[pile_at + 4:] + ["on", words[pile_at + 1], words[pile_at + 2]]
    if len(words) >= 4 and words[0] == "trade" and words[1] == "your" and words[3] == "for":
        words = ["trade", words[2]] + words[4:]
    if len(words) == 2 and words[0] in ("target", "catch") and words[1].startswith("p") and words[1][1:].isdigit():
        words = [words[0], words[1][1:]]
    if words and words[0] in game.card_index:        # a bare card: its play
        words = ["play"] + words
    return " ".join(words)


def answer_as_action(game, text: str) -> str:
    """An answer (a remote or language-model seat's) as an action string: as it is when it is one, else with
    its cards read from words ("play Red 7" is `play red_7`) when that makes one, else as it was given (to be
    refused with the engine's reason)."""
    for said in (text, action_from_words(game, text)):
        try:
            game.action_from_string(said)
            return said
        except IllegalAction:
            pass
    return text


def words_as_ids(game, text: str) -> str:
    """`text` with every card said in words put back as its id ("p1 plays Red 7" is "p1 plays red_7"): what a
    check of which cards a text names reads (tests hold every message to the cards its seat may see)."""
    said = _card_table(game)[0]
    by_words = {w: name for name, w in said.items() if w != name}
    if not by_words:
        return text
    pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(w) for w in sorted(by_words, key=len, reverse=True))
                         + r")(?![\w])")
    return pattern.sub(lambda m: by_words[m[1]], text)


def reason_words(game, seat: int, reason: str) -> str:
    """The engine's reason an action is refused, said to the player at `seat`: cards in words, "you"."""
    reason = reason.replace(f"player {seat} does not", "you do not").replace(f"player {seat}", "you")
    if game is None or not hasattr(game, "k_type"):
        return reason
    name = reason.split(" ")[0]
    if reason.endswith("its restriction does not hold now") and name in game.card_index:
        restriction = list(game.variant.cards.values())[game.k_type[game.card_index[name]]].strict
        if restriction is not None:
            from .english import describe_condition
            reason = f"{name} may be played only when {describe_condition(game, restriction)}"
    return re.sub(r"[a-z][a-z0-9_]*", lambda m: card_words(game, m[0]) if m[0] in game.card_index else m[0], reason)


def _who(q: int, seat: int) -> str:
    return "you" if q == seat else f"p{q}"


def _whose(q: int, seat: int) -> str:
    return "your" if q == seat else f"p{q}'s"


def _pile(name: str, seat: int) -> str:
    """A pile by its name in events and observations: "the bank pile", a seat's own "your stock pile" or "p2's
    stock pile" (a pile of each player, named `stock of p2`), a role's "the captain's armory pile" (`armory of captain`)."""
    pile, of, owner = name.partition(" of ")
    if of and owner[:1] == "p" and owner[1:].isdigit():
        return f"{_whose(int(owner[1:]), seat)} {pile} pile"
    if of:
        return f"the {owner}'s {pile} pile"
    return f"the {name} pile"


def _does(q: int, seat: int, verb: str) -> str:
    """`q` doing `verb` ("draw"): "you draw", "p2 draws"."""
    if q == seat:
        return f"you {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
    return f"p{q} {verb}{ending}"


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _be(q: int, seat: int) -> str:
    return "are" if q == seat else "is"


def narrate(events: list, seat: int, game=None) -> list[str]:
    """Events as `seat` may see them (State.events_for), in words, one line per thing that happened.

    A draw that answers a challenge, a catch or a stack continues that line, and a skip after a
    draw continues the draw's: "p1 draws 2 and is skipped". The start card's line names what it did
    ("the start card is Blue Skip: p1 is skipped"). Turns beginning and the game's end are left out
    (the screen says them). `game` puts the cards in its words (Red 7, Wild Draw Four); without it the
    ids are read as words.
    """
    lines: list[list[str]] = []       # each line as its words and the cards it shows, joined at the end
    last = None
    start = None                      # the start card's line while its effect runs (until the first turn)

    def shown(cards) -> str:
        return ": " + cards_words(game, cards) if cards else ""

    for e in events:
        kind, q = e.kind, e.player
        if kind == E.TURN and start is not None:
            _fold(lines, start)
            start = None
        if kind == E.DREW and last is not None and last.kind in (E.CHALLENGED, E.CAUGHT, E.STACK_TAKEN,
                                                                 E.FALSE_CALL, E.ACCUSED_WRONGLY, E.FORGOT_OUT):
            if last.kind == E.STACK_TAKEN:
                lines[-1] = [f"{_does(q, seat, 'draw')} the stack of {e.count}", shown(e.cards)]
            else:
                joiner = ": " if last.kind in (E.CAUGHT, E.FALSE_CALL, E.ACCUSED_WRONGLY, E.FORGOT_OUT) else ", "
                lines[-1] = [f"{lines[-1][0]}{joiner}{_drew(e, seat, game)}", shown(e.cards)]
        elif kind == E.SKIPPED and last is not None and last.kind == E.DREW and last.player == q:
            lines[-1][0] += f" and {_be(q, seat)} skipped"
        elif kind == E.DREW:
            lines.append([_drew(e, seat, game), shown(e.cards)])
        elif kind == E.ROUND_DEALT:
            if e.count > 1:
                lines.append([f"--- round {e.count} is dealt by {_who(q, seat)} ---", ""])
            if game is not None:
                lines.extend([_filled(game, pile), ""] for pile in game.variant.piles.values()
                             if pile.where is not None)
            if e.cards:
                lines.append([f"the start card is {card_words(game, e.cards[0])}", ""])
                start = len(lines) - 1
            else:
                lines.append(["no start card is turned up: the first card played may be any card", ""])
        else:
            line = _sentence(e, seat, _who(q, seat), game)
            if line is None:
                continue
            if kind == E.HOOK and lines and lines[-1][1] is None:
                lines.pop()             # a turn hook of which this seat saw nothing
            lines.append([line, None if kind == E.HOOK else ""])
        last = e
    if start is not None:
        _fold(lines, start)
    if lines and lines[-1][1] is None:
        lines.pop()
    return [words + (cards or "") for words, cards in lines]


def _fold(lines: list[list[str]], start: int) -> None:
    """The lines after the start card's, what its effect did, joined onto it."""
    if len(lines) > start + 1:
        done = "; ".join(words + cards for words, cards in lines[start + 1:])
        del lines[start + 1:]
        lines[start] = [f"{lines[start][0]}{lines[start][1]}: {done}", ""]


def _drew(e, seat: int, game) -> str:
    """A drew event's words, the cards aside: "p1 draws 2", "you draw until you can play: 3 cards"."""
    q = e.player
    if e.name == "playable":
        return f"{_does(q, seat, 'draw')} until {'you' if q == seat else 'they'} can play: {_count(e.count)}"
    if e.name:
        return f"{_does(q, seat, 'draw')} until {e.name} comes: {_count(e.count)}"
    if e.value is not None:
        return f"{_does(q, seat, 'draw')} until {_condition(game, e.value)}: {_count(e.count)}"
    return f"{_does(q, seat, 'draw')} {e.count}"


def _call_word(game) -> str:
    """The UNO call as the variant names it (uno.call), UNO without a game."""
    return game.variant.uno_call if game is not None else "UNO"


def _out_word(game) -> str:
    """The call with the last card as the variant names it (uno.out.call)."""
    return (game.variant.uno_out_call if game is not None else None) or "UNO out"


def _filled(game, pile) -> str:
    """What a pile filled by a condition (`where:`) was given before the hands, as the round is dealt."""
    from .english import describe_condition
    whose = ("each player's " if pile.per_player else "each role's " if pile.per_role else
             f"the {pile.count} " if pile.count else "the ")
    piles, are = ("piles", "are") if pile.count else ("pile", "is")
    amount = (f"{pile.deal} {'each ' if pile.count else ''}of the deck's cards" if pile.deal else "the deck's cards")
    return (f"{whose}{pile.name} {piles} {are} filled first, with {amount} for which "
            f"{describe_condition(game, pile.where, 'match')}")


def _condition(game, test) -> str:
    """A `draws until` test in words (the rulebook's), or what it was for when there is no game."""
    if game is not None:
        try:
            from .english import Translator
            return Translator(game).cond(test)
        except Exception:                   # noqa: BLE001 - words are a courtesy; the draw was told anyway
            pass
    return "the card looked for comes"


def _sentence(e, seat: int, who: str, game=None) -> str | None:
    kind, q, other = e.kind, e.player, _who(e.other, seat)

    def card(name: str) -> str:
        return card_words(game, name)

    def shown(cards) -> str:
        return ": " + cards_words(game, cards) if cards else ""

    on = f" on the {e.pile} pile" if e.pile else ""          # a playable pile (`playable: true`)
    if kind == E.PLAYED:
        return f"{_does(q, seat, 'play')} {card(e.cards[0])}{on}"
    if kind == E.JUMPED:
        return f"{_does(q, seat, 'jump')} in with {card(e.cards[0])}{on}"
    if kind == E.CALLED_UNO:
        word = _call_word(game)
        return f"{_does(e.other, seat, 'call')} {word} for {who}" if e.other >= 0 else f"{_does(q, seat, 'call')} {word}"
    if kind == E.FALSE_CALL:
        return f"{_whose(q, seat)} {_call_word(game)} call is false"
    if kind == E.INVOKED:
        return f"{_does(q, seat, 'invoke')} {e.name.replace('_', ' ')}"
    if kind == E.CALLED_OUT:
        return f"{_does(q, seat, 'call')} {_out_word(game)}"
    if kind == E.FORGOT_OUT:
        return f"{_does(q, seat, 'play')} {'your' if q == seat else 'their'} last card without calling {_out_word(game)}"
    if kind == E.ACCUSED_WRONGLY:
        return f"{_does(e.other, seat, 'accuse')} {who} wrongly"
    if kind == E.KEPT:
        return f"{_does(q, seat, 'keep')} {card(e.cards[0])}"
    if kind == E.SKIPPED:
        return f"{who} {_be(q, seat)} skipped"
    if kind == E.REVERSED:
        return f"the direction of play is now {direction_words(e.count)}"
    if kind == E.COLOR:
        if e.color is None:
            return "no color is in play now: any card may follow"
        return f"{_does(q, seat, 'name')} {e.color}" if q >= 0 else f"the color is now {e.color}"
    if kind == E.TARGET:
        return f"{_does(q, seat, 'choose')} {other}"
    if kind == E.CHOSE_COLOR:
        return f"{_does(q, seat, 'choose')} {e.color} (the color in play stays)"
    if kind == E.CHOSE_NUMBER:
        return f"{_does(q, seat, 'choose')} the number {e.count}"
    if kind == E.CHOSE:
        return f"{_does(q, seat, 'choose')} {e.name.replace('_', ' ')}"
    if kind == E.RANDOM:
        drawn = e.color if e.color is not None else e.count
        # A distribution is said by its name in words, as the rulebook says it ("the launcher until it fires").
        return f"{drawn} is drawn at random" + (f" from the {e.name.replace('_', ' ')}" if e.name else "")
    if kind == E.GAVE:
        return f"{_does(q, seat, 'give')} {other} {_count(e.count)}{shown(e.cards)}"
    if kind == E.TRADED:
        if e.cards:
            return f"{_does(q, seat, 'trade')} {card(e.cards[0])} for {_whose(e.other, seat)} {card(e.cards[1])}"
        return f"{_does(q, seat, 'trade')} a card with {other}"
    if kind == E.SWAPPED:
        return f"{who} and {other} swap hands"
    if kind == E.ROTATED:
        return f"every hand passes to the next player, {direction_words(e.count)}"
    if kind == E.LOOKED:
        return f"{_does(q, seat, 'look')} at {_whose(e.other, seat)} hand{shown(e.cards)}"
    if kind == E.SHOWN:
        return f"{_does(q, seat, 'show')} {'your' if q == seat else 'their'} hand to {other}{shown(e.cards)}"
    if kind == E.DISCARDED:
        what = f"every {e.color} card" if e.color else _count(e.count)     # discards color / cards where
        return f"{_does(q, seat, 'discard')} {what}{shown(e.cards)}"
    if kind == E.MOVED:
        return (f"{_count(e.count)} move{'s' if e.count == 1 else ''} from {_pile(e.source, seat)} "
                f"to {_pile(e.pile, seat)}")
    if kind == E.TOOK:
        return f"{_does(q, seat, 'take')} {_count(e.count)} from {_pile(e.source, seat)}{shown(e.cards)}"
    if kind == E.PUT:
        return f"{_does(q, seat, 'put')} {_count(e.count)} on {_pile(e.pile, seat)}{shown(e.cards)}"
    if kind == E.REDEALT:
        way = f", {direction_words(e.count)}" if e.count else ""       # a log written before the way was kept
        return f"every hand is gathered and dealt out again{way}"
    if kind == E.TURN_TO:
        return f"{who} {'play' if q == seat else 'plays'} next"
    if kind == E.ELIMINATED:
        if e.name == "rule":         # round.eliminate_when: the hand that did it
            return f"{_does(q, seat, 'hold')} {_count(e.count)} and {_be(q, seat)} knocked out"
        return f"{who} {_be(q, seat)} knocked out"
    if kind == E.LOCKED:
        return f"only {e.color} may be played until {_whose(q, seat)} turn"
    if kind == E.CHALLENGED:
        verdict = "bluffed" if e.won else "played it honestly"
        return f"{_does(q, seat, 'challenge')}: {other} {verdict}"
    if kind == E.ACCEPTED:
        return f"{_does(q, seat, 'accept')} {_whose(e.other, seat)} card"
    if kind == E.CAUGHT:
        return f"{_does(e.other, seat, 'catch')} {who} without UNO"
    if kind == E.STACK_GREW:
        return (f"the draw stack grows to {e.count}: {who} must stack on it or draw {e.count}")
    if kind == E.STACK_TAKEN:
        return f"{_does(q, seat, 'draw')} the stack of {e.count}"
    if kind == E.SKIP_STACKED:
        turns = "a turn" if e.count == 1 else f"{e.count} turns"
        return f"a skip of {turns} is pending: {who} must answer it or lose {turns}"
    if kind == E.SKIP_TAKEN:
        turns = "the turn" if e.count == 1 else f"{e.count} turns"
        return f"{_does(q, seat, 'take')} the skip and {'lose' if q == seat else 'loses'} {turns}"
    if kind == E.STACK_PASSED:
        return f"{_does(q, seat, 'turn')} the stack of {e.count} away to {other}"
    if kind == E.FLIPPED:
        return f"another start card is turned up: {card(e.cards[0])}"
    if kind == E.TURNED_OVER:
        top = f", and the top card is now {card(e.cards[0])}" if e.cards else ""
        return f"all cards turned over: the {e.name} side is up{top}"
    if kind == E.WENT_OUT:
        return f"{who} {'have' if q == seat else 'has'} no cards left"
    if kind == E.SCORED:
        return f"{who} {'score' if q == seat else 'scores'} {e.count} point{'s' if abs(e.count) != 1 else ''}"
    if kind == E.ROUND_OVER:
        scores = ", ".join(f"p{p} {s}" for p, s in enumerate(e.scores))
        won = f"{_does(q, seat, 'win')} it" if q >= 0 else "nobody wins it"
        blocked = (", blocked: nobody can play or draw" if e.name == "blocked"
                   else ", by the round's winning rule" if e.name == "rule" else "")
        return f"--- round {e.count} is over{blocked}: {won} (scores: {scores}) ---"
    if kind in (E.SET, E.SET_PRIVATELY):
        whose = f"{_whose(q, seat)} " if q >= 0 else ""
        return f"{whose}{e.name} is now {variable_value(e.value)}"
    if kind == E.HOOK and e.name in ("turn_start", "turn_end"):
        # what the hook does follows in its own lines; a card_played hook follows the play's line
        return f"{'start' if e.name == 'turn_start' else 'end'} of {_whose(q, seat)} turn:"
    if kind == E.STOPPED:
        at = f" ({e.value})" if e.value else ""
        limit = (f"{e.count} effects open at once" if e.count == MAX_FRAMES
                 else f"the turn's work limit of {e.count:,} steps")
        return f"the round stops: {e.name}{at} went past {limit}"
    if kind == E.SET_ENDED:
        return f"{_whose(q, seat)} set of {e.count} cards is done"
    if kind == E.ROLE:
        return f"{_whose(q, seat)} role for the match is {e.name.replace('_', ' ')}"
    if kind == E.CHOSE_SECRETLY:
        return f"{_does(q, seat, 'choose')} {_who(e.count, seat)} secretly" if e.count >= 0 else \
            f"{_does(q, seat, 'choose')} secretly"
    if kind == E.CHOICES_SHOWN:
        chosen = [f"{_who(p, seat)} chose {_who(c, seat)}" for p, c in enumerate(e.value) if c >= 0]
        return "the secret choices are shown: " + (", ".join(chosen) if chosen else "nobody chose")
    if kind == E.NUMBER_SECRETLY:
        return f"{_does(q, seat, 'choose')} {e.count} secretly" if e.count >= 0 else \
            f"{_does(q, seat, 'choose')} a number secretly"
    if kind == E.NUMBERS_SHOWN:
        chosen = [f"{_who(p, seat)} {n}" for p, n in enumerate(e.value) if n >= 0]
        what = (e.name or "number").replace("_", " ")
        return f"the secret numbers are shown ({what}): " + (", ".join(chosen) if chosen else "nobody chose")
    return None          # a turn begins, the game's end: the screen says them


def hands_seen(events: list, seat: int) -> dict[int, int]:
    """The hands `seat` was shown (looked at, traded with, challenged) that still hold, each with the turn it
    was seen at: `events` are the seat's own (State.events_for) from the start of the game. A hand no longer
    holds once its player plays, draws, gives, takes, swaps, goes out or is knocked out, or the hands move."""
    seen: dict[int, int] = {}
    turn = 0
    for e in events:
        kind, q, other = e.kind, e.player, e.other
        if kind == E.ROUND_DEALT:
            seen.clear()
            turn = 0
        elif kind == E.TURN:
            turn += 1
        elif kind in (E.LOOKED, E.TRADED, E.CHALLENGED) and q == seat and other >= 0 and other != seat:
            seen[other] = turn
            continue
        elif kind == E.SHOWN and other == seat:           # a hand shown to the seat (`show hand of P to G`)
            seen[q] = turn
            continue
        if kind in (E.ROTATED, E.REDEALT):
            seen.clear()
        elif kind in (E.PLAYED, E.JUMPED, E.DREW, E.GAVE, E.TRADED, E.SWAPPED, E.TOOK, E.PUT, E.DISCARDED,
                      E.WENT_OUT, E.ELIMINATED):
            seen.pop(q, None)
            if kind in (E.GAVE, E.TRADED, E.SWAPPED):
                seen.pop(other, None)
    return seen


def variable_value(value) -> str:
    """A declared variable's value in words: yes or no, a number, a color or card type, none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "none" if value is None else str(value)


def variable_lines(obs: dict, seat: int) -> list[str]:
    """The declared variables the seat's observation shows: the public globals, then each per-player one
    (the seat's own value, and the other seats' where it may see them). `obs` may be just
    State.variables_seen_by(seat), and `seat` -1, nobody's (a spectator)."""
    lines = []
    if obs.get("state"):
        lines.append("state: " + ", ".join(f"{name} {variable_value(v)}" for name, v in obs["state"].items()))
    for name, values in obs.get("player_state", {}).items():
        shown = [f"{'you' if q == seat else f'p{q}'} {variable_value(v)}" for q, v in enumerate(values)
                 if v is not None or q == seat]
        if shown:                                  # a spectator sees no seat's private value
            lines.append(f"{name}: " + ", ".join(shown))
    return lines


def sort_hand(game: Game, names: list[str]) -> list[str]:
    """Cards in the order a player holds them: by color, then number, wild cards last."""
    def key(name: str):
        k = game.card_index[name]
        wild = game.k_wild[k] or game.k_color[k] < 0
        return (wild, game.k_color[k], game.k_number[k] < 0, game.k_number[k], name)
    return sorted(names, key=key)


def group_hand(game: Game, names: list[str]) -> list[list[str]]:
    """A hand as a player holds it: one group per color in the variant's order, the wild cards last."""
    groups: list[list[str]] = []
    last = None
    for name in sort_hand(game, names):
        k = game.card_index[name]
        color = -1 if game.k_wild[k] or game.k_color[k] < 0 else game.k_color[k]
        if not groups or color != last:
            groups.append([])
            last = color
        groups[-1].append(name)
    return groups


def order_choices(legal: list[str]) -> list[str]:
    """The legal actions in the order a player is offered them: `play X uno` just before `play X`.

    The engine lists every `play X uno` after every `play X` (ids sorted); offering the UNO call
    first makes it the default for the next-to-last card, and the plain play stays one number down.
    """
    offered = set(legal)
    out = []
    for action in legal:
        if action.endswith(" uno") and action[:-4] in offered:
            continue                          # placed before its plain twin below
        if f"{action} uno" in offered:
            out.append(f"{action} uno")
        out.append(action)
    return out


def score_table(history: list[tuple[int, ...]], seat: int) -> list[str]:
    """A match's scores as a table: one row per round (its points), then the totals.

    `history` holds the cumulative scores after each round (the `round over` events' scores).
    """
    n = len(history[0])
    heads = ["round"] + [f"p{q}{' (you)' if q == seat else ''}" for q in range(n)]
    rows = []
    before = (0,) * n
    for number, after in enumerate(history, start=1):
        rows.append([str(number)] + [str(a - b) for a, b in zip(after, before)])
        before = after
    rows.append(["total"] + [str(s) for s in history[-1]])
    widths = [max(len(r[i]) for r in [heads] + rows) for i in range(n + 1)]
    return ["  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip()
            for row in [heads] + rows]


def _cards(names: list[str], game=None) -> str:
    return cards_words(game, names) if names else "(none)"


def pile_lines(game: Game, obs: dict, seat: int, played_on: bool = True) -> list[str]:
    """The variant's named piles as `seat` sees them (obs: engine/observation.py): a face-up pile's cards, a
    face-down one's size ("your reserve pile: 2 cards, face down"); a pile played on by its top card and color,
    unless `played_on` is false (the web page shows those itself)."""
    lines = []
    played = obs.get("play_piles", {})
    for name, cards in obs.get("piles", {}).items():
        if name in played:
            if played_on:
                on = played[name]
                lines.append(f"the {name} pile: top card: " + _cards([on["top"]] if on["top"] else [], game)
                             + "   color: " + (on["color"] or "any") + f"   ({_count(len(cards))})")
            continue
        lines.append(f"{_pile(name, seat)}: " + (f"{_count(cards)}, face down" if isinstance(cards, int)
                                                  else _cards(cards, game)))
    return lines


def seen_lines(game: Game, obs: dict, seen_at: dict | None) -> list[str]:
    """The hands shown to the seat that still hold, each with the turn it was seen at (`seen_at`, from
    hands_seen); None: every hand the observation keeps, without the turn."""
    lines = []
    for q, cards in sorted(obs.get("revealed", {}).items(), key=lambda item: int(item[0])):
        if seen_at is None:
            lines.append(f"p{q}'s hand, when last shown to you: " + _cards(sort_hand(game, cards), game))
        elif int(q) in seen_at:
            lines.append(f"p{q}'s hand, seen at turn {seen_at[int(q)]}: " + _cards(sort_hand(game, cards), game))
    return lines


def screen_lines(game: Game, obs: dict, events: list[str], legal: list[str] | None,
                 previous_hand: list[str] | None = None, limit: int | None = None,
                 seen_at: dict | None = None) -> list[str]:
    """What a seat reads before it decides, line by line, built only from its observation: the terminal's
    screen (`unodsl play`) and the text view (`unodsl.text`) alike.

    `events` are the lines of what happened since the seat last acted (narrate), the last `limit` of them
    shown; `legal` the numbered choices (None: no list, the decision only), action strings, shown in words;
    `previous_hand` the seat's hand after its last move (to show what came in and went out); `seen_at` the
    hands shown to the seat that still hold (hands_seen). The first line is the heading. A seat that is
    not deciding now (obs has no legal actions and another seat is to act) reads who is.
    """
    seat = obs["player"]
    lines: list[str] = []
    deciding = obs.get("current_player") == seat and not obs.get("over")
    heading = f"--- your move (p{seat}) --- " if deciding else f"--- p{seat}, waiting --- "
    heading += f"round {obs['round']}, turn {obs['turn']}" if obs.get("round", 0) > 1 else f"turn {obs['turn']}"
    lines.append(heading)
    if events:
        lines.append("since your last move:")
        hidden = len(events) - limit if limit is not None else 0
        if hidden > 0:
            lines.append(f"  ... {hidden} earlier entries")
        lines.extend("  " + entry for entry in (events[-limit:] if limit is not None else events))
    top = "top card: " + _cards([obs["top"]] if obs["top"] else [], game)
    top += "   color: " + (obs["color"] or "any")
    top += "   direction: " + direction_words(obs["direction"])
    lines.append(top)
    extras = [f"draw pile {obs['draw_pile']}", f"discard pile {obs['discard_pile']}"]
    if obs.get("stack"):
        extras.append(f"pending draw stack {obs['stack']}")
    if obs.get("lock"):
        extras.append(f"locked to {obs['lock']}")
    lines.append("piles: " + ", ".join(extras))
    lines.extend(pile_lines(game, obs, seat))
    if "side" in obs:                   # a two-sided deck: the faces turned away from this seat
        shown = f"side up: {obs['side']}"
        if obs["draw_pile_back"]:
            shown += "   draw pile's top shows: " + card_words(game, obs["draw_pile_back"])
        lines.append(shown)
        for q, backs in sorted(obs["backs"].items(), key=lambda item: int(item[0])):
            lines.append(f"the backs of p{q}'s cards: " + _cards(sort_hand(game, backs), game))
    others = []
    for q, size in enumerate(obs["hand_sizes"]):
        if q == seat:
            continue
        note = f"p{q}: {size} card{'s' if size != 1 else ''}"
        if obs["uno_called"][q]:
            note += " (UNO!)"
        if obs["eliminated"][q]:
            note += " (knocked out)"
        if q == obs.get("dealer"):
            note += " (dealer)"
        others.append(note)
    lines.append("players: " + ", ".join(others))
    if any(obs["scores"]):
        lines.append("scores: " + ", ".join(f"p{q} {s}" for q, s in enumerate(obs["scores"])))
    lines.extend(variable_lines(obs, seat))
    lines.extend(seen_lines(game, obs, seen_at))
    hand = sort_hand(game, obs["hand"])
    if previous_hand is not None:
        gained = list((Counter(hand) - Counter(previous_hand)).elements())
        lost = list((Counter(previous_hand) - Counter(hand)).elements())
        if gained:
            lines.append(f"you received {len(gained)}: " + _cards(sort_hand(game, gained), game))
        if lost:
            lines.append(f"you lost {len(lost)}: " + _cards(sort_hand(game, lost), game))
    grouped = " | ".join(_cards(group, game) for group in group_hand(game, hand))
    lines.append(f"your hand ({len(hand)}): " + (grouped or "(none)"))
    if obs.get("drawn"):
        lines.append("you drew: " + card_words(game, obs["drawn"]))
    if not deciding:
        if obs.get("over"):
            lines.append("the game is over")
        else:
            lines.append(f"p{obs['current_player']} is deciding" + (f" ({obs['decision']})" if obs["decision"] else ""))
        return lines
    kind = obs["decision"]
    help_text = decision_help(kind, legal if legal is not None else obs.get("legal_actions"), obs.get("color_value", False))
    lines.append(f"decision: {kind} ({help_text})")
    if legal is not None:
        width = len(str(len(legal)))
        lines.extend(f"  {number:>{width}}) {choice_words(game, action)}"
                     for number, action in enumerate(legal, start=1))
    return lines
