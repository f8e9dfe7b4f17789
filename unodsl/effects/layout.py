"""The shared vocabulary of the engine and the compiler: decision kinds, the layout of an effect frame, op flags.

An effect in progress is a frame, a plain list so that a paused state clones and
serializes as data: [code id, pc, self seat, card kind, honest, jumped, locals...].
"""

F_CODE, F_PC, F_SELF, F_CARD, F_HONEST, F_JUMPED = range(6)
F_LOCALS = 6
F_CATCHER = F_LOCALS    # uno.penalty's frame: the catcher, set by the engine when it pushes the frame

PAUSE = -1          # an op returns this after setting up a decision
# The code id of the frame a strict restriction is judged in for a listing of moves (engine/playable.py, kinds):
# `P holds playable` inside it judges by matching only, not by the strict restrictions again.
JUDGING = -2

# Decision kinds: what the player to act is deciding.
TURN = "turn"            # play a card, or draw
DRAWN = "drawn"          # play the card just drawn, or keep it
COLOR = "color"          # choose a color
TARGET = "target"        # choose a player
CHALLENGE = "challenge"  # challenge a restricted card (Wild Draw Four) or accept it
GIVE = "give"            # pick a card to give (to a player or into an exchange)
TRADE = "trade"          # swap cards with a hand you looked at, or stop
STACK = "stack"          # answer a draw penalty with a stacking card, or draw the stack
FORCED = "forced"        # play a card of a required color (Wild Team Play)
JUMP = "jump"            # jump in out of turn with an identical card, or pass
CATCH = "catch"          # catch a player who did not call UNO, or pass
UNO = "uno"              # call UNO after ending up with one card outside one's own play
OPTION = "option"        # choose one of the named options of a choice (`P chooses:`)

KINDS = (TURN, DRAWN, COLOR, TARGET, CHALLENGE, GIVE, TRADE, STACK, FORCED, JUMP, CATCH, UNO, OPTION)
PUT = "put"              # pick a card to put on a named pile (`P puts N on PILE`)
# Decision kinds only a variant with named piles (`piles:`) has: the action space and the RL layout of
# every other variant stay as they were.
PILE_KINDS = (PUT,)
# Where a pile op takes or puts cards: a declared pile by its index, or one of these two.
DRAW_PILE, DISCARD_PILE = -1, -2
# A pile of each player whose owner is no player (`stock of P`, P none): the pile ops do nothing with it.
NO_PILE = -3

# What an instruction may do besides setting fields (the engine declares these per op in OP_FLAGS):
# the facts the compiled code's records (effects.code.Code) and the fast paths are built on.
PAUSES = "pauses"            # may stop for a player's decision
PUSHES = "pushes"            # may run another effect (a new frame)
RESHAPES = "reshapes"        # changes hands other than by drawing: a hand may empty, outs must be settled
DRAWS = "draws"              # draws cards: runs the after-draw event when the variant has one; with
                             # round.eliminate_when it may knock the drawer out (the resolution settles after)

# The locals of a sealed choice (`let NAME = G secretly choose player H`), beside the expression types: the
# answer of the member being asked (a seat; its decision is a TARGET one, told apart as sealed by this kind),
# and each seat's secret choice so far (a list per seat, -1 for none yet). They are laid out, in this order:
# the members still to ask, the candidates, the choices (PICKS), the answer (SEALED); then NAME.
SEALED = "sealed"
PICKS = "picks"

NUMBER = "number"        # choose a whole number in a range (`let NAME = P chooses number from A to B`): `number N`
# Decision kinds only a variant with number choices has.
NUMBER_KINDS = (NUMBER,)
# The locals of a sealed number choice (`G secretly choose number from A to B into VAR`), laid out in this
# order: the members still to ask (SEATS), the lowest and the highest number offered (INT), each seat's secret
# number so far (BIDS: a list per seat, -1 for none yet), the answer of the member being asked (SEALED_NUMBER:
# its decision is a NUMBER one, told apart as sealed by this kind).
BIDS = "bids"
SEALED_NUMBER = "sealed number"

WINDOW = "window"        # invoke a declared window (`windows:`) between turns (`option NAME`), or pass
# Decision kinds only a variant with windows (windows:) has.
WINDOW_KINDS = (WINDOW,)

SET = "set"              # go on with the set being played (`play X`), or end it (`done`): turn.sets
# Decision kinds only a variant with sets (turn.sets) has.
SET_KINDS = (SET,)
# What `state.set_play` holds while a set is being played, by index (empty otherwise): its size, the sum
# of its numbers, its first card and the card it was played on (card kinds).
SET_FIELDS = ("size", "sum", "first", "base")
