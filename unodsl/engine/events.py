"""What happened, as data: the events a recorded game keeps, and what each seat may see of them.

A recorded game (`new_game(..., record=True)`) keeps `State.events`, one `Event` for each thing the
engine did, in order; an unrecorded game keeps None and emits nothing. The decisions' events are
written by `decided`, from `State.apply_id`'s recording branch, before the action is applied; what
the rules then do (draws, skips, hands moved, the round's end) is written by the ops and the flow
where it happens. What a seat may see of an event is decided in engine/observation.py (`event_seen_by`, from
the kinds' `PRIVATE_CARDS` and `PRIVATE` below): the terminal, logs and the web view read
`State.events_for(seat)`, never `State.events` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..effects import layout as D

# The kinds, each with what it says. `player` is who it happened to (or who acted), `other` the
# second player involved; -1 for nobody.
PLAYED = "played"              # player played cards[0]
JUMPED = "jumped in"           # player jumped in out of turn with cards[0], identical to the top card
CALLED_UNO = "called uno"      # player called UNO (other: the partner who called it for them)
DREW = "drew"                  # player drew count cards (cards: seen by the drawer only); a draw until: name, value what was looked for
KEPT = "kept"                  # player kept the card just drawn (seen by the drawer only: it was playable)
SKIPPED = "skipped"            # player lost their turn
REVERSED = "reversed"          # the direction of play turned around (count: the new direction)
COLOR = "color"                # the color in play became color (player: who named it, -1 for an effect; color None: no color)
TARGET = "target"              # player chose other
CHOSE_COLOR = "chose color"    # player chose color as a value for an effect (`let NAME = P chooses color`), said aloud; the color in play is unchanged
CHOSE = "chose"                # player chose the option `name` of a choice
RANDOM = "random"              # player's effect drew count (or color) at random (name: the distribution, if any)
GAVE = "gave"                  # player gave cards to other (cards: seen by the two of them only)
TRADED = "traded"              # player swapped cards[0] of theirs for other's cards[1] (seen by the two)
SWAPPED = "swapped"            # player and other swapped hands
ROTATED = "rotated"            # every hand passed to the next player (count: the way, 1 to the left, -1 to the right)
LOOKED = "looked"              # player looked at other's hand (cards: seen by the two of them only)
SHOWN = "shown"                # player's hand was shown to other (`show hand of P to G`; cards: seen by the two only)
DISCARDED = "discarded"        # player discarded every card of color (cards, face up)
REDEALT = "redealt"            # every hand was gathered and dealt out again from the player after player (count: the way, as ROTATED)
TURN_TO = "turn to"            # player plays next, whoever would have
ELIMINATED = "eliminated"      # player left the game holding count cards, their cards where round.eliminated_cards says (name "rule": by round.eliminate_when)
LOCKED = "locked"              # only color may be played until play reaches player
CHALLENGED = "challenged"      # player challenged other's card: won says whether it was played dishonestly
ACCEPTED = "accepted"          # player accepted other's card without a challenge
CAUGHT = "caught"              # player forgot to call UNO and was caught by other: count cards of penalty
FALSE_CALL = "false call"      # player called UNO with a play that did not leave uno.at cards: count cards of penalty
ACCUSED_WRONGLY = "accused wrongly"    # other accused player, who had called or was not at uno.at cards: other pays count
CALLED_OUT = "called out"      # player called uno.out's call with their last card
FORGOT_OUT = "forgot out"      # player played their last card without uno.out's call: count cards of penalty
INVOKED = "invoked"            # player invoked the declared window `name` (windows:) between turns
STACK_GREW = "stack grew"      # the draw stack grew to count and passed to player
STACK_TAKEN = "stack taken"    # player drew the stack of count cards (the drew event follows)
STACK_PASSED = "stack passed"  # player turned the draw stack of count cards away to other (an on_stack effect)
SKIP_STACKED = "skip stacked"  # a skip of count turns is pending against player, who may answer it (stacking.skips)
SKIP_TAKEN = "skip taken"      # player took the pending skip: they lose count turns, this one the first
FLIPPED = "flipped"            # another start card, cards[0], was turned up
TURNED_OVER = "turned over"    # every card of a two-sided deck turned over: count is the side now up (0 the first), name its name, cards[0] the top
WENT_OUT = "went out"          # player has no cards left
TURN = "turn"                  # player's turn begins
ROUND_DEALT = "round dealt"    # round count was dealt by player; cards[0] is the start card
ROUND_OVER = "round over"      # round count is over, won by player (-1: nobody; won False: at the turn limit); scores;
                               # name "blocked" (round.blocked) or "rule" (won by round.win_when)
GAME_OVER = "game over"        # the game (or match) is over, won by player (-1: nobody); scores
SCORED = "scored"              # player (with their team, by team) scored count points by an effect (`P scores N`)
MOVED = "moved"                # count cards moved from pile `source` to pile `pile` (no cards named)
TOOK = "took"                  # player took count cards from pile `source` (cards: seen by the taker only)
PUT = "put"                    # player put count cards on pile `pile` (cards: seen by the putter only)
SET = "set"                    # variable name became value (player: whose value it is, -1 for a global)
SET_PRIVATELY = "set privately"    # as SET, for a private variable (seen by player only) or a hidden one (by no one)
SET_ENDED = "set ended"        # player ended a set of count cards played in one turn (turn.sets)
HOOK = "hook"                  # the variant's event `name` runs for player: turn_start, turn_end, card_played (cards[0])
STOPPED = "stopped"            # the effect `name` (its key in the file), at value ("file:line"), went past a work limit:
                               # count is the limit (vm.MAX_STEPS_PER_TURN steps, or vm.MAX_FRAMES effects open at once)
ROLE = "role"                  # player holds the role `name` for the match (roles:), told as it begins
CHOSE_SECRETLY = "chose secretly"  # player made a sealed choice: count the seat chosen (seen by player only; -1 to others)
CHOICES_SHOWN = "choices shown"    # a sealed choice's every choice at once: value, per seat, the seat chosen or -1
CHOSE_NUMBER = "chose number"      # player chose the number count (`let NAME = P chooses number from A to B`), said aloud
NUMBER_SECRETLY = "chose number secretly"  # player chose a sealed number: count (seen by player only; -1 to others)
NUMBERS_SHOWN = "numbers shown"    # a sealed number choice's numbers at once, into the per-player variable `name`:
                                   # value, per seat, the number chosen or -1

KINDS = (PLAYED, JUMPED, CALLED_UNO, DREW, KEPT, SKIPPED, REVERSED, COLOR, TARGET, CHOSE, RANDOM, GAVE, TRADED, SWAPPED,
         ROTATED, LOOKED, DISCARDED, REDEALT, TURN_TO, ELIMINATED, LOCKED, CHALLENGED, ACCEPTED, CAUGHT,
         STACK_GREW, STACK_TAKEN, FLIPPED, TURNED_OVER, WENT_OUT, TURN, ROUND_DEALT, ROUND_OVER, GAME_OVER, SCORED,
         MOVED, TOOK, PUT, SET, SET_PRIVATELY, SET_ENDED, STACK_PASSED, SKIP_STACKED, SKIP_TAKEN, HOOK, STOPPED,
         FALSE_CALL, ACCUSED_WRONGLY, CALLED_OUT, FORGOT_OUT, INVOKED,
         ROLE, SHOWN, CHOSE_SECRETLY, CHOICES_SHOWN, CHOSE_COLOR, CHOSE_NUMBER, NUMBER_SECRETLY, NUMBERS_SHOWN)

# Kinds whose cards only `player` and `other` may see (others see the count), and kinds only
# `player` may see at all.
PRIVATE_CARDS = frozenset((DREW, GAVE, TRADED, LOOKED, SHOWN, TOOK, PUT))
PRIVATE = frozenset((KEPT, SET_PRIVATELY))


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened in a recorded game: its kind and the few fields the kind needs."""

    kind: str
    player: int = -1
    other: int = -1
    count: int = 0
    cards: tuple[str, ...] = ()
    color: str | None = None
    won: bool | None = None
    scores: tuple[int, ...] = ()
    source: str = ""               # a pile's name (`draw`, `discard` or a declared pile): cards left it
    pile: str = ""                 # ... and the pile cards went to
    name: str | None = None        # a name the kind says: the option chosen, the distribution drawn from, SET's variable, the side up
    value: object = None           # SET: the variable's new value, as players see it (a color by its word)


def pile_name(g, pile: int) -> str:
    """The name of a pile as the pile ops number it (layout.DRAW_PILE, DISCARD_PILE, or a declared pile)."""
    if pile == D.DRAW_PILE:
        return "draw"
    if pile == D.DISCARD_PILE:
        return "discard"
    return g.pile_names[pile]


def drew(st, p: int, got: int, meets=None, arg=None) -> Event:
    """p drew their hand's last `got` cards; a draw until a card meets a test (`meets`, see ops.draw_until)
    says what it looked for when the test does: `meets.sought(st, arg)` gives the name ("playable", or a
    card such as "a red card") and the value (the test's tree, for the narration to put in words)."""
    names = st.g.card_names
    sought = getattr(meets, "sought", None)
    name, value = sought(st, arg) if sought is not None else (None, None)
    return Event(DREW, p, count=got, cards=tuple([names[k] for k in st.hands[p][len(st.hands[p]) - got:]]),
                 name=name, value=value)


def stopped(g, frame: list, limit: int) -> Event:
    """The effect of `frame` (the innermost open one) went past `limit`: named by its key and its line."""
    code, pc = frame[D.F_CODE], frame[D.F_PC]
    lines = g.code_records[code].lines
    written = lines[min(pc, len(lines) - 1)] if lines else None
    if written is None:             # the engine's own op at the effect's start or end: the effect's first line
        written = next((w for w in lines if w is not None), None)
    at = "" if written is None else "{}:{}".format(*written.where()[:2])
    return Event(STOPPED, frame[D.F_SELF], count=limit, name=g.code_records[code].name, value=at)


def decided(st, action: int) -> None:
    """Write the events of the decision `action` that the current player takes, before it is applied.

    A turn's draw writes nothing here: the draw itself does (ops.draw).
    """
    g = st.g
    kind, p = st.pending[0], st.pending[1]
    events, names = st.events, g.card_names
    k = g.num_kinds
    if g.play_piles and kind in (D.TURN, D.DRAWN) and g.A_PLAY_ON <= action < g.num_actions:
        pile, card, uno = g.played_on(action)             # `play K on PILE`: the playable pile it goes on
        events.append(Event(PLAYED, p, cards=(names[card],), pile=g.pile_names[pile]))
        if uno:
            events.append(Event(CALLED_OUT if g.out_calls and len(st.hands[p]) == 1 else CALLED_UNO, p))
    elif action < 2 * k and kind in (D.TURN, D.DRAWN, D.STACK, D.FORCED, D.JUMP, D.SET):
        # On the discard pile; with playable piles, a stack's answer, a jump-in and a forced play go on the
        # pile in play (the last played on), which the event names when it is not the discard pile.
        pile = "" if kind in (D.TURN, D.DRAWN) or st.on_pile < 0 else g.pile_names[st.on_pile]
        events.append(Event(JUMPED if kind == D.JUMP else PLAYED, p, cards=(names[action % k],), pile=pile))
        if action >= k:                         # the call; with the last card, uno.out's
            events.append(Event(CALLED_OUT if g.out_calls and len(st.hands[p]) == 1 else CALLED_UNO, p))
    elif action == g.A_KEEP and kind == D.DRAWN:
        events.append(Event(KEPT, p, cards=(names[st.pending[2]],)))
    elif kind == D.STACK and action == g.A_DRAW:
        events.append(Event(STACK_TAKEN, p, count=st.stack))
    elif kind == D.STACK and action == g.A_PASS:
        events.append(Event(SKIP_TAKEN, p, count=st.skip_stack))
    elif kind == D.COLOR:
        # With a slot, a color chosen as a value (ops.choose_color_value): the color in play stays.
        events.append(Event(CHOSE_COLOR if len(st.pending) == 3 else COLOR, p, color=g.variant.colors[action - g.A_COLOR]))
    elif kind == D.TARGET:
        fr = st.frames[-1]
        if g.code_records[fr[D.F_CODE]].local_kinds[st.pending[2] - D.F_LOCALS] == D.SEALED:     # a sealed choice's answer
            events.append(Event(CHOSE_SECRETLY, p, count=action - g.A_TARGET))
        else:
            events.append(Event(TARGET, p, action - g.A_TARGET))
    elif kind == D.OPTION:
        events.append(Event(CHOSE, p, name=g.option_names[action - g.A_OPTION]))
    elif kind == D.NUMBER:
        fr = st.frames[-1]
        sealed = g.code_records[fr[D.F_CODE]].local_kinds[st.pending[2] - D.F_LOCALS] == D.SEALED_NUMBER
        events.append(Event(NUMBER_SECRETLY if sealed else CHOSE_NUMBER, p, count=action - g.A_NUMBER))
    elif kind == D.WINDOW and action != g.A_PASS:
        events.append(Event(INVOKED, p, name=g.windows[st.window_at][0]))
    elif kind == D.GIVE and st.pending[3] >= 0:      # an exchange's picks: exchange_finish writes the gifts
        events.append(Event(GAVE, p, st.pending[3], 1, (names[action - g.A_GIVE],)))
    elif kind == D.PUT:
        events.append(Event(PUT, p, count=1, cards=(names[action - g.A_PUT],), pile=pile_name(g, st.pending[3])))
    elif kind == D.TRADE and action != g.A_DONE:
        mine, theirs = divmod(action - g.A_TRADE, k)
        events.append(Event(TRADED, p, st.pending[2], 1, (names[mine], names[theirs])))
    elif kind == D.CHALLENGE:
        fr = st.frames[-1]
        if action == g.A_CHALLENGE:
            events.append(Event(CHALLENGED, p, fr[D.F_SELF], won=not fr[D.F_HONEST]))
        else:
            events.append(Event(ACCEPTED, p, fr[D.F_SELF]))
    elif kind == D.UNO and action == g.A_UNO:
        events.append(Event(CALLED_UNO, p))
    elif kind == D.CATCH and action == g.A_UNO:
        called = [v for v in st.vulnerable if v == p or st.partner_of(v) == p]
        for v in called:
            events.append(Event(CALLED_UNO, v, p if v != p else -1))
        if not called:                          # a false call (uno.false_call): the false call event follows
            events.append(Event(CALLED_UNO, p))
    elif kind == D.CATCH and action != g.A_PASS:
        accused = action - g.A_CATCH
        if accused in st.vulnerable:
            events.append(Event(CAUGHT, accused, p, g.variant.uno_penalty))
        else:                                   # uno.catch.wrong: they had called, or were not at uno.at cards
            events.append(Event(ACCUSED_WRONGLY, accused, p, g.variant.uno_wrong_catch))
