"""Rooms: one game each, its seats and what each of them may be told. No networking here.

The room is authoritative: it holds the only State, applies a seat's action only when the seat's
player is to decide and the action was made on the current state (`version`, raised by every
change), and lets bots decide for the seats nobody took and for a player away past the grace
period. What a seat is sent is built by `view`, from the seat's own view and its events
(engine/observation.py: `seat_view`, `State.events_for`, narrated as the terminal narrates them): never
another player's hand, nor any State field read here. A spectator's view is `spectator_view`, the public
part only, its events as a seat that is nobody's (SPECTATOR) sees them.
"""

from __future__ import annotations

import re
import secrets
import string
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ..agents.bots import make_bot
from ..agents.seats import Forfeit, game_over, make_seat, seat_rng
from ..engine import Game, IllegalAction, State
from ..engine import events as E
from ..engine.observation import SPECTATOR, event_mark, hand_sizes, seat_view, spectator_view
from ..rulebook.narration import (card_words, choice_words, decision_help, direction_words, group_hand, hands_seen,
                                  narrate, order_choices, pile_lines, score_table, seen_lines, variable_lines)

CODE_ALPHABET = "".join(c for c in string.ascii_uppercase + string.digits if c not in "0O1IL")
CODE_LENGTH = 6
LOG_SENT = 80              # the last lines of a seat's log that a view carries
NAME_LENGTH = 24
CHAT_LENGTH = 200          # characters of one chat line
CHAT_KEPT = 100            # chat lines a room keeps
CHAT_SENT = 30             # the last chat lines a view carries
SEAT_WORD = re.compile(r"\bp(\d+)\b")    # how the narration names a seat ("p2 plays", "p2's hand")


class RoomError(Exception):
    """A request the room refuses; the message says why, for the client."""


@dataclass
class Seat:
    """One place at the table: who holds it (a token only its player knows) and who plays it now."""

    number: int
    token: str = ""
    name: str = ""
    bot_name: str = ""          # a bot seat from the start (nobody took it)
    connections: int = 0
    away_since: float | None = None
    bot: object = None          # the bot that decides for this seat (a bot seat, or its player away)
    log: list[str] = field(default_factory=list)
    seen: int = 0               # State.events already narrated into `log`

    @property
    def taken(self) -> bool:
        return bool(self.token)


class Room:
    """A game between the seats of one room; call its methods from one thread (the server's loop)."""

    def __init__(self, code: str, game: Game, players: int, *, bots: str = "heuristic", seed: int | None = None,
                 match: bool = False, house_rules: tuple[str, ...] = (), rulings: dict | None = None,
                 rulebook: str = "", grace: float = 30.0, clock: Callable[[], float] = time.monotonic,
                 listed: bool = False, turn_timer: float = 0.0):
        game.check_players(players)
        self.code = code
        self.game = game
        self.players = players
        self.bots = bots
        self.fixed_seed = seed                   # the server's --seed: each game of the room dealt from it
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.match = match
        self.house_rules = house_rules
        self.rulings = dict(rulings or {})
        self.rulebook = rulebook
        self.grace = grace
        self.clock = clock
        self.listed = listed                     # shown in the lobby's list of open rooms
        self.turn_timer = turn_timer             # seconds a connected player may think (0: no limit)
        self.seats = [Seat(q) for q in range(players)]
        self.state: State | None = None          # None until the game starts
        self.version = 0
        self.game_number = 0                     # 0 the first game, 1 after a rematch, ...
        self.results: list[dict] = []            # the room's finished games: winner, points, names
        self.chat: list[dict] = []               # {"seat", "name", "text"}, the last CHAT_KEPT
        self.chat_total = 0                      # chat lines ever said in the room (the store numbers them so)
        self.rounds: list[tuple[int, ...]] = []  # a match's scores after each round
        self.spectator_log: list[str] = []
        self.spectator_seen = 0
        self.listeners: list[Callable[[Room], None]] = []     # told after every change
        self.changed_at = clock()
        self.deciding_since = clock()            # when the decision in wait began (the turn timer)
        self.deciding_key: tuple = ()
        self.saved_game, self.saved_actions, self.saved_chat = 0, 0, 0      # what store.Store has written

    # --- seats

    def join(self, name: str, token: str | None = None) -> Seat:
        """The seat of `token` (a player coming back), or a free seat for a new player."""
        if token:
            for seat in self.seats:
                if seat.taken and secrets.compare_digest(seat.token, token):
                    seat.connections += 1
                    seat.away_since = None
                    if not seat.bot_name:
                        seat.bot = None          # the player is back: their seat is theirs again
                    self._changed()
                    return seat
            raise RoomError("that seat token is not one of this room's")
        if self.state is not None:
            raise RoomError("the game has started: you can watch it")
        free = [seat for seat in self.seats if not seat.taken]
        if not free:
            raise RoomError("every seat is taken: you can watch the game")
        seat = free[0]
        seat.token = secrets.token_urlsafe(24)
        seat.name = self._unique(_clean_name(name) or f"player {seat.number + 1}")
        seat.connections = 1
        if all(s.taken for s in self.seats):
            self.start()
        else:
            self._changed()
        return seat

    def _unique(self, name: str) -> str:
        """`name`, or with a number after it when another seat has it already ("Ann 2")."""
        taken = {s.name.casefold() for s in self.seats if s.taken}
        candidate, n = name, 1
        while candidate.casefold() in taken:
            n += 1
            candidate = f"{name[:NAME_LENGTH - 3]} {n}"
        return candidate

    def names(self) -> list[str]:
        return [s.name or f"player {s.number + 1}" for s in self.seats]

    def leave(self, seat: Seat) -> None:
        """One of the seat's connections closed; the last one starts the grace period."""
        seat.connections = max(0, seat.connections - 1)
        if seat.connections == 0:
            seat.away_since = self.clock()
            self.tick()
            self._changed()

    def tick(self) -> None:
        """Hand the seats whose player has been away past the grace period to a bot, and let bots play."""
        if self.state is None:
            return
        now = self.clock()
        moved = False
        for seat in self.seats:
            if seat.taken and seat.bot is None and seat.away_since is not None and now - seat.away_since >= self.grace:
                seat.bot = make_seat(self.bots.split(",")[0], seat_rng(self.seed, seat.number))
                moved = True
        played = moved and self._advance()
        state = self.state
        if self.turn_timer and not state.is_over and now - self.deciding_since >= self.turn_timer:
            seat = self.seats[state.current_player]
            if seat.bot is None and not seat.bot_name and seat.connections > 0:
                # The player is here but has not decided in time: a bot decides this once for them.
                stand_in = make_bot("heuristic", seat_rng(self.seed + self.version, seat.number))
                self.timed_out(seat)
                state.apply_id(stand_in.act(state))
                self._advance()
                played = True
        if played:
            self._changed()

    def timed_out(self, seat: Seat) -> None:
        """Say in every log that `seat`'s time ran out (before the bot's move is narrated)."""
        self._narrate()
        line = f"{seat.name}'s time is up: a bot decides for them"
        for other in self.seats:
            other.log.append(f"your time is up: a bot decides for you" if other is seat else line)
        self.spectator_log.append(line)

    # --- the game

    def start(self) -> None:
        """Deal: bots take the seats nobody took."""
        if self.state is not None:
            raise RoomError("the game has started already")
        names = self.bots.split(",")
        for seat in self.seats:
            if not seat.taken:
                seat.bot_name = names[seat.number % len(names)]
                seat.token = secrets.token_urlsafe(24)      # nobody holds it: the seat is never free again
                seat.name = self._unique(f"{seat.bot_name} bot")
        self._deal()
        self._advance()
        self._changed()

    def _deal(self) -> None:
        for seat in self.seats:
            if seat.bot_name:
                seat.bot = make_seat(seat.bot_name, seat_rng(self.seed, seat.number))
        self.state = self.game.new_game(self.players, seed=self.seed, match=self.match, record=True)
        self.rounds, self.spectator_log, self.spectator_seen = [], [], 0
        for seat in self.seats:
            seat.log, seat.seen = [], 0

    def rematch(self, seat: Seat, game: int | None = None) -> None:
        """Deal a new game in this room to the same seats, once the game is over. `game`, the game the
        asker saw end: when someone else asked first (a new game is dealt already), nothing to do."""
        if game is not None and game != self.game_number:
            return
        if self.state is None or not self.state.is_over:
            raise RoomError("a rematch is for when the game is over")
        self.game_number += 1
        self.seed = (self.fixed_seed + self.game_number if self.fixed_seed is not None
                     else secrets.randbelow(2**31))
        self._deal()
        for s in self.seats:
            s.log.append(f"{'you ask' if s is seat else seat.name + ' asks'} for a rematch: "
                         f"game {self.game_number + 1} in this room")
        self.spectator_log.append(f"{seat.name} asks for a rematch: game {self.game_number + 1} in this room")
        self._advance()
        self._changed()

    def say(self, seat: Seat | None, text: str) -> None:
        """A chat line (or a quick reaction) from `seat`; spectators do not chat."""
        if seat is None:
            raise RoomError("join a seat to chat (spectators watch)")
        text = "".join(ch for ch in str(text) if ch.isprintable()).strip()[:CHAT_LENGTH]
        if not text:
            raise RoomError("an empty chat line")
        self.chat.append({"seat": seat.number, "name": seat.name, "text": text})
        self.chat_total += 1
        del self.chat[:-CHAT_KEPT]
        self._changed()

    def act(self, seat: Seat, action: str, version: int) -> None:
        """Apply `seat`'s action, made on the state of `version`; RoomError says why one is refused."""
        state = self.state
        if state is None:
            raise RoomError("the game has not started")
        if version != self.version:
            raise RoomError(f"that move was made on an old state (version {version}, now {self.version})")
        if state.is_over:
            raise RoomError("the game is over")
        if state.current_player != seat.number or seat.bot is not None:
            raise RoomError("it is not your decision")
        try:
            state.apply(action)
        except IllegalAction as err:
            raise RoomError(f"{action!r} is not possible: {err.reason}") from None
        self._advance()
        self._changed()

    def _advance(self) -> bool:
        """Let bots decide while the one to decide is played by a bot; whether anything was played."""
        state = self.state
        played = False
        while not state.is_over:
            seat = self.seats[state.current_player]
            if seat.bot is None:
                break
            try:
                state.apply_id(seat.bot.act(state))      # the engine's step budget bounds every game
            except Forfeit:                 # an agent seat that forfeits is played by the heuristic bot from then on
                seat.bot = make_bot("heuristic", seat_rng(self.seed, seat.number))
            played = True
        if played and state.is_over:
            game_over([seat.bot for seat in self.seats], state)
        return played

    def idle(self) -> float:
        """Seconds since the room last changed."""
        return self.clock() - self.changed_at

    def _changed(self) -> None:
        self.version += 1
        self.changed_at = self.clock()
        state = self.state
        if state is not None:
            self._narrate()
            key = (self.game_number, len(state.history))
            if key != self.deciding_key:            # a new decision: its time starts now
                self.deciding_key, self.deciding_since = key, self.changed_at
            if state.is_over and len(self.results) <= self.game_number:
                self.results.append({"game": self.game_number, "winner": state.winner, "names": self.names(),
                                     "points": list(state.scores),
                                     "cards": hand_sizes(state)})
        for listener in list(self.listeners):
            listener(self)

    def _narrate(self) -> None:
        """Take the new events into every seat's log and the spectators', in words."""
        state = self.state
        end = event_mark(state)
        seen = state.events_for(SPECTATOR, self.spectator_seen)
        self.rounds += [e.scores for e in seen if e.kind == E.ROUND_OVER]      # public: everyone sees a round end
        names = self.names()
        self.spectator_log += self.named(narrate(seen, SPECTATOR, self.game), names)
        self.spectator_seen = end
        for seat in self.seats:
            seat.log += self.named(narrate(state.events_for(seat.number, seat.seen), seat.number, self.game), names)
            seat.seen = end

    def named(self, lines: list[str], names: list[str] | None = None) -> list[str]:
        """The narration's lines with each seat's name for its "p2"."""
        names = names or self.names()

        def name(m: re.Match) -> str:
            q = int(m.group(1))
            return names[q] if q < len(names) else m.group(0)
        return [SEAT_WORD.sub(name, line) for line in lines]

    # --- a restart

    def record(self) -> dict:
        """The settings a restored room is made with again (store.Store keeps them)."""
        return {"settings": {"players": self.players, "bots": self.bots, "seed": self.fixed_seed,
                             "match": self.match, "house_rules": list(self.house_rules), "rulings": self.rulings,
                             "listed": self.listed, "turn_timer": self.turn_timer}}

    def restore(self, saved: dict) -> None:
        """Take back a kept room's seats, chat and results, and replay its game's action log through the
        engine from its seed: the same deal, hands and log lines. IllegalAction when the log no longer
        replays (the variant changed)."""
        for seat, row in zip(self.seats, saved["seats"]):
            seat.token, seat.name, seat.bot_name = row["token"], row["name"], row["bot_name"]
            if seat.taken and not seat.bot_name:
                seat.away_since = self.clock()       # nobody is connected yet: the grace period runs
        self.game_number = self.saved_game = saved["game"]
        self.seed = saved["seed"]
        self.results = list(saved["results"])
        self.chat = list(saved["chat"])[-CHAT_KEPT:]
        self.chat_total = self.saved_chat = saved.get("chat_total", len(self.chat))
        if saved["started"]:
            self._deal()
            for action in saved["actions"]:
                self.state.apply(action)
            self.saved_actions = len(self.state.history)
            self._advance()
            self._narrate()
            self.deciding_key = (self.game_number, len(self.state.history))
        self.version = saved["version"]

    # --- what a seat is told

    def view(self, seat: Seat | None) -> dict:
        """What `seat` may know now (None: a spectator), as a JSON-ready dict."""
        number = SPECTATOR if seat is None else seat.number
        out = {"type": "view", "version": self.version, "room": self.room_info(), "seat": number,
               "started": self.state is not None, "chat": self.chat[-CHAT_SENT:], "game": self.game_number}
        if self.state is None:
            return out
        state, game = self.state, self.game
        # Everything sent is read from the engine's view of this seat (or of a spectator): engine/observation.py.
        obs = spectator_view(state) if seat is None else seat_view(state, number)
        deciding = obs["current_player"] if not obs["over"] else -1
        out.update({
            "top": obs["top"], "color": obs["color"], "direction": obs["direction"],
            "draw_pile": obs["draw_pile"], "discard_pile": obs["discard_pile"],
            "stack": obs["stack"], "round": obs["round"], "turn": obs["turn"], "deciding": deciding,
            "lock": obs["lock"], "scores": obs["scores"], "over": obs["over"], "winner": obs["winner"],
            "score_table": self.named(score_table(self.rounds, number)) if self.match and self.rounds else [],
            "rounds": [list(r) for r in self.rounds], "results": self.results,
            "log": (self.spectator_log if seat is None else seat.log)[-LOG_SENT:],
            "log_total": len(self.spectator_log if seat is None else seat.log),
            # what the page says, in the narration's words (the call as the variant names it: uno.call)
            "words": {"direction": direction_words(obs["direction"]), "call": game.variant.uno_call},
        })
        out.update({key: obs[key] for key in ("play_piles", "pile_in_play") if key in obs})   # public
        for entry, hand_size in zip(out["room"]["seats"], obs["hand_sizes"]):
            q = entry["seat"]
            # A call stands while its caller holds cards: a player who went out is no longer at UNO.
            entry.update(cards=hand_size, uno=bool(obs["uno_called"][q]) and hand_size > 0, out=bool(obs["eliminated"][q]),
                         dealer=q == obs["dealer"])
        out["variables"] = self.named(variable_lines(obs, number))       # declared variables the seat may see
        # The variant's named piles, not played on: a face-up one's cards, a face-down one's size.
        out["piles"] = self.named(pile_lines(game, obs, number, played_on=False))
        if seat is None:
            return out
        out["hand"] = group_hand(game, obs["hand"])
        seen_at = hands_seen(state.events_for(number), number) if obs["revealed"] else {}     # read only when needed
        out["revealed"] = {q: cards for q, cards in obs["revealed"].items() if int(q) in seen_at}
        out["drawn"] = obs.get("drawn")
        out["words"].update(seen=self.named(seen_lines(game, obs, seen_at)),    # the hands shown that still hold
                            drawn=card_words(game, obs["drawn"]) if obs.get("drawn") else None)
        if deciding == number and seat.bot is None:
            if self.turn_timer:
                out["time_left"] = max(0.0, self.turn_timer - (self.clock() - self.deciding_since))
            out["decision"] = obs["decision"]
            out["help"] = decision_help(obs["decision"], obs["legal_actions"], obs.get("color_value", False))
            out["choices"] = order_choices(obs["legal_actions"])
            out["words"]["choices"] = self.named([choice_words(game, c) for c in out["choices"]])
        return out

    def room_info(self) -> dict:
        """The public facts of the room: the variant, its house rules, the seats (names, who is a bot)."""
        return {"code": self.code, "variant": self.game.variant.name, "players": self.players,
                "colors": list(self.game.variant.colors),
                "house_rules": list(self.house_rules), "rulings": self.rulings, "match": self.match,
                "listed": self.listed, "turn_timer": self.turn_timer,
                "seats": [{"seat": s.number, "name": s.name, "taken": s.taken, "bot": bool(s.bot_name),
                           "away": s.taken and not s.bot_name and s.connections == 0,
                           "autoplayed": s.bot is not None and not s.bot_name} for s in self.seats]}


def new_code(taken) -> str:
    """A room code nobody has yet: short enough to read out, hard enough to guess (32**6)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def _clean_name(name: str) -> str:
    return "".join(ch for ch in str(name) if ch.isprintable()).strip()[:NAME_LENGTH]
