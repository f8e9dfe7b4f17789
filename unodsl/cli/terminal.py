"""A game in the terminal: one human seat against bots.

The human sees what `State.observation(seat)` (engine/observation.py) allows and nothing more: their own
hand, the other players' hand sizes and UNO calls, the public piles, cards that
were shown to them (`revealed`), and what happened, in words, from the events as
their seat may see them (`State.events_for(seat)`): the engine decides once what a
seat may see, so another player's drawn, given or traded cards arrive as counts,
and their `keep` (which would tell that their drawn card was playable) not at all.

Output is coloured with rich when stdout is a terminal and plain text otherwise.
Input is read from the keyboard when stdin is a terminal; otherwise one action
per line is read from stdin (a choice number or an action string), and each
choice is echoed, so a game can be scripted:

    yes 1 | unodsl play variants/classic.yaml --bots heuristic --seed 7
"""

from __future__ import annotations

import re
import sys
from typing import TextIO

from rich.color import Color, ColorParseError
from rich.console import Console
from rich.text import Text

from ..agents.bots import make_bot
from ..agents.seats import Forfeit, game_over, make_seat, seat_rng
from ..engine import Game, IllegalAction, State
from ..engine import events as E
from ..engine.observation import event_mark
from ..rulebook.narration import (action_from_words, card_words, choice_words, hands_seen, narrate, order_choices,
                                  reason_words, score_table, screen_lines, sort_hand)  # noqa: F401 (sort_hand: tests)

MAX_EVENTS_SHOWN = 40      # older entries of "since your last turn" are summarised as a count

# Styles of card colors; a color not listed here is tried as a rich color name.
COLOR_STYLES = {
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "pink": "bold hot_pink",
    "purple": "bold purple",
}
WILD_STYLE = "bold magenta"

QUIT_WORDS = ("quit", "exit")
HELP_WORDS = ("?", "help")


class InputEnded(Exception):
    """Standard input ended (EOF) before the game was over."""


class GameAbandoned(Exception):
    """The player typed quit; `summary` says where the game stood, from the player's seat."""

    def __init__(self, summary: str):
        super().__init__(summary)
        self.summary = summary


def left_game_summary(state: State, seat: int) -> str:
    """Where a game stood when the player at `seat` left it: turns, every hand's size, the scores."""
    hands = ", ".join(f"p{q}{' (you)' if q == seat else ''} {state.hand_size(q)}" for q in range(state.n))
    turns = f"{state.total_turns} turn" + ("" if state.total_turns == 1 else "s")
    lines = [f"You left the game after {turns} (round {state.round}).", f"Cards in hand: {hands}."]
    if any(state.scores):
        lines.append("Scores: " + ", ".join(f"p{q} {s}" for q, s in enumerate(state.scores)) + ".")
    return "\n".join(lines)


# --- what the human may see ------------------------------------------------------


def _color_style(color: str) -> str:
    if color in COLOR_STYLES:
        return COLOR_STYLES[color]
    try:
        Color.parse(color)
    except ColorParseError:
        return "bold"
    return f"bold {color}"


def card_style(game: Game, name: str) -> str:
    """The rich style of a card name (its color; wild cards magenta)."""
    k = game.card_index.get(name)
    if k is None:
        return ""
    if game.k_wild[k] or game.k_color[k] < 0:
        return WILD_STYLE
    return _color_style(game.variant.colors[game.k_color[k]])


_PATTERNS: dict = {}      # id(game) -> (game, the pattern of its card words and ids and color names, the card of each)


def _pattern(game: Game):
    entry = _PATTERNS.get(id(game))
    if entry is None or entry[0] is not game:
        card_of = {}
        for name in game.card_names:
            card_of[card_words(game, name)] = name
            card_of[name] = name
        words = sorted(set(card_of) | set(game.variant.colors), key=len, reverse=True)
        pattern = re.compile(r"(?<![\w])(" + "|".join(re.escape(w) for w in words) + r")(?![\w])") if words else None
        _PATTERNS.clear()                   # one game at a time plays here: keep its pattern only
        entry = _PATTERNS[id(game)] = (game, pattern, card_of)
    return entry[1], entry[2]


def styled(game: Game, text: str) -> Text:
    """Text with every card (in words, as narration says it, or by id) and color name in it coloured."""
    out = Text()
    pattern, card_of = _pattern(game)
    at = 0
    for found in pattern.finditer(text) if pattern is not None else ():
        out.append(text[at:found.start()])
        word = found[1]
        out.append(word, card_style(game, card_of[word]) if word in card_of else _color_style(word))
        at = found.end()
    out.append(text[at:])
    return out


def render_view(game: Game, obs: dict, events: list[str], legal: list[str],
                previous_hand: list[str] | None = None, seen_at: dict | None = None) -> list[Text]:
    """The screen shown before the human decides (narration.screen_lines), card and color names coloured."""
    lines = screen_lines(game, obs, events, legal, previous_hand, limit=MAX_EVENTS_SHOWN, seen_at=seen_at)
    return [Text(line, style="bold") if i == 0 else styled(game, line) for i, line in enumerate(lines)]


# --- input and output ---------------------------------------------------------------


class _Screen:
    """Writes lines with rich colours on a terminal, as plain text elsewhere."""

    def __init__(self, stream: TextIO, color: bool):
        self.stream = stream
        self.console = Console(file=stream, highlight=False, soft_wrap=True) if color else None

    def show(self, line: Text | str = "") -> None:
        if self.console is not None:
            self.console.print(line)
        else:
            self.stream.write((line.plain if isinstance(line, Text) else line) + "\n")
            self.stream.flush()


class _Keyboard:
    """Reads entries from a terminal (with line editing) or, when scripted, one line at a time."""

    def __init__(self, stream: TextIO | None, screen: _Screen, interactive: bool):
        self.stream = stream
        self.screen = screen
        self.interactive = interactive

    def read(self, prompt: str) -> str:
        if self.stream is None:                 # stdin closed (`<&-`): nothing will ever come
            raise InputEnded()
        if self.interactive:
            try:
                if self.screen.console is not None:
                    return self.screen.console.input(prompt)
                return input(prompt)
            except EOFError:
                raise InputEnded() from None
        while True:
            try:
                line = self.stream.readline()
            except (OSError, ValueError, UnicodeDecodeError):
                raise InputEnded() from None
            if not line:
                raise InputEnded()
            line = line.strip()
            if line and not line.startswith("#"):   # blank lines and comments in a script are skipped
                self.screen.show(f"{prompt}{line}")
                return line


def _resolve(state: State, entry: str, legal: list[str]) -> str:
    """The action an entry means: a choice number, an action string or its words ("play Red 7"), or a bare
    card, by id or in words (its first choice: `play X uno` when that is offered, as UNO is the default
    for the next-to-last card; a card that may not be played now is refused with the engine's reason)."""
    if entry.isascii() and entry.isdigit():
        # Leading zeros aside, a choice has no more digits than the number of choices; a
        # longer entry is out of range without converting it (Python refuses int() of
        # more than 4,300 digits).
        digits = entry.lstrip("0") or "0"
        number = int(digits) if len(digits) <= len(str(len(legal))) else 0
        if 1 <= number <= len(legal):
            return legal[number - 1]
        raise IllegalAction(entry, f"choose a number from 1 to {len(legal)}")
    typed = " ".join(entry.lower().split())
    text = typed if typed in legal else action_from_words(state.g, typed)
    bare = not typed.startswith("play ") and text.startswith("play ") and " uno" not in text
    card, on, pile = text.partition(" on ")                  # `play K on PILE`: its UNO play is `play K uno on PILE`
    if bare and f"{card} uno{on}{pile}" in legal:
        return f"{card} uno{on}{pile}"
    if text in legal:
        return text
    state.g.action_from_string(text)            # raises "not an action of this variant"
    return text                                  # legal or not, apply() says why


# --- the game loop ----------------------------------------------------------------


def play_terminal(game: Game, players: int, seat: int, bots: str, seed: int, match: bool, *,
                  stdin: TextIO | None = None, stdout: TextIO | None = None,
                  color: bool | None = None, interactive: bool | None = None) -> State:
    """Play one game (or match) with the human at `seat` and bots elsewhere; return the finished state.

    Raises InputEnded when stdin ends before the game is over, GameAbandoned on `quit`;
    KeyboardInterrupt passes through.
    """
    stdout = stdout if stdout is not None else sys.stdout
    stdin = stdin if stdin is not None else sys.stdin
    if color is None:
        color = _isatty(stdout)
    if interactive is None:
        interactive = _isatty(stdin)
    screen = _Screen(stdout, color)
    keyboard = _Keyboard(stdin, screen, interactive)
    state = game.new_game(players, seed=seed, match=match, record=True)
    specs = bots.split(",")
    # Every other seat by its spec, seated in turn as simulate seats them, seeded as every front end seeds them.
    seats = [None if q == seat else make_seat(specs[q % len(specs)], seat_rng(state.seed, q)) for q in range(players)]
    screen.show(Text(f"{game.variant.name}: {players} players, you are p{seat}, {bots} bots, seed {seed}"
                     + (", a match" if match else ""), style="bold"))
    screen.show("Type a choice number or an action (e.g. 'play red 7', 'draw'); '?' shows the choices again.")
    seen = 0                                # events already taken into `events`
    round_seen = state.round
    events: list[str] = []                  # what the human has not been shown yet, in words
    hand_after = state.hand(seat)           # the human's hand after their last move (or the deal)
    rounds: list[tuple[int, ...]] = []      # a match's scores after each round, for the table
    while True:
        new = state.events_for(seat, seen)
        seen = event_mark(state)
        ended = [i for i, e in enumerate(new) if e.kind == E.ROUND_OVER]
        if ended and not state.is_over:     # a match goes on: the round's end, the scores, then the next deal
            rounds.append(new[ended[0]].scores)
            events.extend(narrate(new[:ended[0] + 1], seat, game))
            _show_events(game, screen, events)
            _show_scores(screen, rounds, seat)
            events, new = [], new[ended[0] + 1:]
        elif ended:
            rounds.append(new[ended[0]].scores)
        events.extend(narrate(new, seat, game))
        if state.round != round_seen:       # a match: a new round was dealt
            round_seen = state.round
            hand_after = state.hand(seat)
        elif any(e.kind == E.TURNED_OVER for e in new):
            hand_after = None               # every card turned over: the narration says so, not "received 7, lost 7"
        if state.is_over:
            break
        if state.current_player != seat:
            q = state.current_player
            try:
                state.apply_id(seats[q].act(state))
            except Forfeit as forfeit:      # the seat goes on as the heuristic bot; the player is told
                events.append(f"p{q} ({forfeit.spec}) forfeits ({forfeit.reason}): the heuristic bot plays p{q} now")
                seats[q] = make_bot("heuristic", seat_rng(state.seed, q))
            continue
        before = event_mark(state)
        _decide(state, seat, screen, keyboard, events, hand_after)
        hand_after = state.hand(seat)
        events = []                         # the next screen tells what the human's move did
        seen = before + _echoed(state.events_for(seat, before), seat)
    game_over(seats, state)
    _show_end(state, seat, screen, events)
    if match:
        _show_scores(screen, rounds, seat)
    return state


# The events of a decision that the echo of the human's own move ("you: play red_7") says already.
_ECHOED = (E.PLAYED, E.JUMPED, E.CALLED_UNO, E.KEPT, E.COLOR, E.CHOSE_COLOR, E.TARGET, E.CHOSE, E.CHOSE_NUMBER,
           E.NUMBER_SECRETLY)


def _echoed(events: list, seat: int) -> int:
    """How many of the events after the human's move only repeat the move's echo: its leading own ones (the
    seat's own events are in `State.events_for(seat)` as they are in `State.events`, in the same places up to
    the first event of another seat)."""
    n = 0
    while n < len(events) and events[n].player == seat and events[n].kind in _ECHOED:
        n += 1
    return n


def _decide(state: State, seat: int, screen: _Screen, keyboard: _Keyboard, events: list[str],
            previous_hand: list[str] | None) -> None:
    game = state.g
    legal = order_choices(state.legal_actions())
    obs = state.observation(seat)
    seen_at = hands_seen(state.events_for(seat), seat) if obs["revealed"] else {}
    screen.show()
    for line in render_view(game, obs, events, legal, previous_hand, seen_at):
        screen.show(line)
    if len(legal) == 1:                 # nothing to choose: Enter takes it
        prompt = f"press Enter to {choice_words(game, legal[0])}, or type an action: "
    else:
        prompt = f"choose [1-{len(legal)}] or type an action: "
    while True:
        entry = keyboard.read(prompt).strip()
        if not entry:
            if len(legal) == 1 and keyboard.interactive:
                entry = "1"
            else:
                continue
        if entry.lower() in QUIT_WORDS:
            raise GameAbandoned(left_game_summary(state, seat))
        if entry.lower() in HELP_WORDS:
            for line in render_view(game, state.observation(seat), [], legal, seen_at=seen_at):
                screen.show(line)
            continue
        try:
            action = _resolve(state, entry, legal)
            state.apply(action)
        except IllegalAction as err:
            shown = entry if len(entry) <= 40 else entry[:36] + "..."
            screen.show(Text(f"'{shown}' is not possible: {reason_words(game, seat, err.reason)}; try again",
                             style="red"))
            continue
        screen.show(Text("you: ") + styled(game, choice_words(game, action)))
        return


def _show_events(game: Game, screen: _Screen, events: list[str]) -> None:
    """What happened since the human's last move, at a round's or the game's end (no decision follows)."""
    screen.show()
    if events:
        screen.show("since your last move:")
        for entry in events[-MAX_EVENTS_SHOWN:]:
            screen.show(Text("  ") + styled(game, entry))


def _show_scores(screen: _Screen, rounds: list[tuple[int, ...]], seat: int) -> None:
    """A match's score table: each round's points and the totals."""
    if rounds:
        screen.show(Text(f"scores after round {len(rounds)}:", style="bold"))
        for line in score_table(rounds, seat):
            screen.show("  " + line)


def _show_end(state: State, seat: int, screen: _Screen, events: list[str]) -> None:
    _show_events(state.g, screen, events)
    if state.winner is None:
        screen.show(Text("game over: no winner" + (" (turn limit reached)" if state.stalled else ""), style="bold"))
    elif state.winner == seat:
        screen.show(Text(f"p{seat} wins: you win!", style="bold green"))
    else:
        screen.show(Text(f"p{state.winner} wins", style="bold"))
    screen.show("scores: " + ", ".join(f"p{q}{' (you)' if q == seat else ''} {s}"
                                       for q, s in enumerate(state.scores)))


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False
