"""The game told in words, for a seat: what happened (from `State.events_for`), the hand, the choices.

The terminal (`unodsl play`) and the web server (`unodsl serve`) both speak through this module, so a
player reads the same sentences at a keyboard and in a browser. Everything here works on what the seat
may see already (its events as `Event.seen_by` gives them, its own hand, its legal actions): nothing
reads the state, which keeps the words honest.
"""

from __future__ import annotations

from collections import Counter

from ..effects import layout as D
from ..engine import Game
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
}


def _who(q: int, seat: int) -> str:
    return "you" if q == seat else f"p{q}"


def _whose(q: int, seat: int) -> str:
    return "your" if q == seat else f"p{q}'s"


def _does(q: int, seat: int, verb: str) -> str:
    """`q` doing `verb` ("draw"): "you draw", "p2 draws"."""
    if q == seat:
        return f"you {verb}"
    ending = "es" if verb.endswith(("s", "sh", "ch", "x")) else "s"
    return f"p{q} {verb}{ending}"


def _count(n: int, what: str = "card") -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _shown(cards: tuple) -> str:
    return ": " + " ".join(cards) if cards else ""


def narrate(events: list, seat: int) -> list[str]:
    """Events as `seat` may see them (State.events_for), in words, one line per thing that happened.

    A draw that answers a challenge, a catch or a stack continues that line, and a skip after a
    draw continues the draw's: "p1 draws 2 and is skipped". Turns beginning, the first deal and
    the game's end are left out (the screen says them).
    """
    lines: list[list[str]] = []       # each line as its words and the cards it shows, joined at the end
    last = None
    for e in events:
        kind, q = e.kind, e.player
        if kind == E.DREW and last is not None and last.kind in (E.CHALLENGED, E.CAUGHT, E.STACK_TAKEN):
            drawer = "draws" if last.kind == E.CAUGHT else _does(q, seat, "draw")
            lines[-1] = [f"{lines[-1][0]}, {drawer} {e.count}", _shown(e.cards)]
        elif kind == E.SKIPPED and last is not None and last.kind == E.DREW and last.player == q:
            lines[-1][0] += f" and {'are' if q == seat else 'is'} skipped"
        elif kind == E.DREW:
            lines.append([f"{_does(q, seat, 'draw')} {e.count}", _shown(e.cards)])
        else:
            line = _sentence(e, seat, _who(q, seat))
            if line is None:
                continue
            lines.append([line, ""])
        last = e
    return [words + cards for words, cards in lines]


def _sentence(e, seat: int, who: str) -> str | None:
    kind, q, other = e.kind, e.player, _who(e.other, seat)
    if kind == E.PLAYED:
        return f"{_does(q, seat, 'play')} {e.cards[0]}"
    if kind == E.JUMPED:
        return f"{_does(q, seat, 'jump')} in with {e.cards[0]}"
    if kind == E.CALLED_UNO:
        return f"{_does(e.other, seat, 'call')} UNO for {who}" if e.other >= 0 else f"{_does(q, seat, 'call')} UNO"
    if kind == E.KEPT:
        return f"{_does(q, seat, 'keep')} {e.cards[0]}"
    if kind == E.SKIPPED:
        return f"{who} {'are' if q == seat else 'is'} skipped"
    if kind == E.REVERSED:
        return "the order of play is reversed"
    if kind == E.COLOR:
        return f"{_does(q, seat, 'name')} {e.color}" if q >= 0 else f"the color is now {e.color}"
    if kind == E.TARGET:
        return f"{_does(q, seat, 'choose')} {other}"
    if kind == E.CHOSE:
        return f"{_does(q, seat, 'choose')} {e.name}"
    if kind == E.RANDOM:
        drawn = e.color if e.color is not None else e.count
        return f"{drawn} is drawn at random" + (f" from {e.name}" if e.name else "")
    if kind == E.GAVE:
        return f"{_does(q, seat, 'give')} {other} {_count(e.count)}{_shown(e.cards)}"
    if kind == E.TRADED:
        if e.cards:
            return f"{_does(q, seat, 'trade')} {e.cards[0]} for {other}'s {e.cards[1]}"
        return f"{_does(q, seat, 'trade')} a card with {other}"
    if kind == E.SWAPPED:
        return f"{who} and {other} swap hands"
    if kind == E.ROTATED:
        return "every hand passes to the next player"
    if kind == E.LOOKED:
        return f"{_does(q, seat, 'look')} at {_whose(e.other, seat)} hand{_shown(e.cards)}"
    if kind == E.DISCARDED:
        return f"{_does(q, seat, 'discard')} every {e.color} card{_shown(e.cards)}"
    if kind == E.MOVED:
        return f"{_count(e.count)} move from the {e.source} pile to the {e.pile} pile"
    if kind == E.TOOK:
        return f"{_does(q, seat, 'take')} {_count(e.count)} from the {e.source} pile{_shown(e.cards)}"
    if kind == E.PUT:
        return f"{_does(q, seat, 'put')} {_count(e.count)} on the {e.pile} pile{_shown(e.cards)}"
    if kind == E.REDEALT:
        return "every hand is gathered and dealt out again"
    if kind == E.TURN_TO:
        return f"{who} {'play' if q == seat else 'plays'} next"
    if kind == E.ELIMINATED:
        return f"{who} {'are' if q == seat else 'is'} eliminated"
    if kind == E.LOCKED:
        return f"only {e.color} may be played until {_whose(q, seat)} turn"
    if kind == E.CHALLENGED:
        verdict = "bluffed" if e.won else "played it honestly"
        return f"{_does(q, seat, 'challenge')}: {other} {verdict}"
    if kind == E.ACCEPTED:
        return f"{_does(q, seat, 'accept')} {_whose(e.other, seat)} card"
    if kind == E.CAUGHT:
        return f"{who} forgot to call UNO: caught by {other}"
    if kind == E.STACK_GREW:
        return f"the draw stack grows to {e.count}, on {who}"
    if kind == E.STACK_TAKEN:
        return f"{_does(q, seat, 'take')} the draw stack"
    if kind == E.STACK_PASSED:
        return f"{_does(q, seat, 'turn')} the stack of {e.count} away to {other}"
    if kind == E.FLIPPED:
        return f"another start card is turned up: {e.cards[0]}"
    if kind == E.TURNED_OVER:
        return f"every card is turned over: the {e.name} side is up, and the top card is now {e.cards[0]}"
    if kind == E.WENT_OUT:
        return f"{who} {'have' if q == seat else 'has'} no cards left"
    if kind == E.SCORED:
        return f"{who} {'score' if q == seat else 'scores'} {e.count} point{'s' if abs(e.count) != 1 else ''}"
    if kind == E.ROUND_OVER:
        scores = ", ".join(f"p{p} {s}" for p, s in enumerate(e.scores))
        won = f"{_does(q, seat, 'win')} it" if q >= 0 else "nobody wins it"
        return f"--- round {e.count} is over: {won} (scores: {scores}) ---"
    if kind in (E.SET, E.SET_PRIVATELY):
        whose = f"{_whose(q, seat)} " if q >= 0 else ""
        return f"{whose}{e.name} is now {variable_value(e.value)}"
    if kind == E.SET_ENDED:
        return f"{_whose(q, seat)} set of {e.count} cards is done"
    if kind == E.ROUND_DEALT and e.count > 1:
        return f"--- round {e.count} is dealt by {who}; the start card is {e.cards[0]} ---"
    return None          # a turn begins, the first deal, the game's end: the screen says them


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


def _cards(names: list[str]) -> str:
    return " ".join(names) if names else "(none)"


def screen_lines(game: Game, obs: dict, events: list[str], legal: list[str] | None,
                 previous_hand: list[str] | None = None, limit: int | None = None) -> list[str]:
    """What a seat reads before it decides, line by line, built only from its observation: the terminal's
    screen (`unodsl play`) and the text view (`unodsl.text`) alike.

    `events` are the lines of what happened since the seat last acted (narrate), the last `limit` of them
    shown; `legal` the numbered choices (None: no list, the decision only); `previous_hand` the seat's hand
    after its last move (to show what came in and went out). The first line is the heading. A seat that is
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
    top = "top card: " + _cards([obs["top"]] if obs["top"] else [])
    top += "   color: " + (obs["color"] or "any")
    top += "   order: " + ("forward" if obs["direction"] >= 0 else "reversed")
    lines.append(top)
    extras = [f"draw pile {obs['draw_pile']}", f"discard pile {obs['discard_pile']}"]
    if obs.get("stack"):
        extras.append(f"pending draw stack {obs['stack']}")
    if obs.get("lock"):
        extras.append(f"locked to {obs['lock']}")
    lines.append("piles: " + ", ".join(extras))
    for name, cards in obs.get("piles", {}).items():         # a variant's named piles: face up shows its cards
        lines.append(f"the {name} pile: " + (f"{_count(cards)}, face down" if isinstance(cards, int)
                                              else _cards(cards)))
    if "side" in obs:                   # a two-sided deck: the faces turned away from this seat
        shown = f"side up: {obs['side']}"
        if obs["draw_pile_back"]:
            shown += "   draw pile's top shows: " + obs["draw_pile_back"]
        lines.append(shown)
        for q, backs in sorted(obs["backs"].items(), key=lambda item: int(item[0])):
            lines.append(f"the backs of p{q}'s cards: " + _cards(sort_hand(game, backs)))
    others = []
    for q, size in enumerate(obs["hand_sizes"]):
        if q == seat:
            continue
        note = f"p{q}: {size} card{'s' if size != 1 else ''}"
        if obs["uno_called"][q]:
            note += " (UNO!)"
        if obs["eliminated"][q]:
            note += " (out)"
        if q == obs.get("dealer"):
            note += " (dealer)"
        others.append(note)
    lines.append("players: " + ", ".join(others))
    if any(obs["scores"]):
        lines.append("scores: " + ", ".join(f"p{q} {s}" for q, s in enumerate(obs["scores"])))
    lines.extend(variable_lines(obs, seat))
    for q, cards in sorted(obs.get("revealed", {}).items(), key=lambda item: int(item[0])):
        lines.append(f"seen in p{q}'s hand (when shown to you): " + _cards(sort_hand(game, cards)))
    hand = sort_hand(game, obs["hand"])
    if previous_hand is not None:
        gained = list((Counter(hand) - Counter(previous_hand)).elements())
        lost = list((Counter(previous_hand) - Counter(hand)).elements())
        if gained:
            lines.append(f"you received {len(gained)}: " + _cards(sort_hand(game, gained)))
        if lost:
            lines.append(f"you lost {len(lost)}: " + _cards(sort_hand(game, lost)))
    grouped = " | ".join(_cards(group) for group in group_hand(game, hand))
    lines.append(f"your hand ({len(hand)}): " + (grouped or "(none)"))
    if obs.get("drawn"):
        lines.append("you drew: " + obs["drawn"])
    if not deciding:
        if obs.get("over"):
            lines.append("the game is over")
        else:
            lines.append(f"p{obs['current_player']} is deciding" + (f" ({obs['decision']})" if obs["decision"] else ""))
        return lines
    kind = obs["decision"]
    lines.append(f"decision: {kind} ({DECISION_HELP.get(kind, kind)})")
    if legal is not None:
        width = len(str(len(legal)))
        lines.extend(f"  {number:>{width}}) {action}" for number, action in enumerate(legal, start=1))
    return lines
