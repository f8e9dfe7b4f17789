"""The effect VM: frames of compiled code, and the one dispatch loop that runs them."""

from __future__ import annotations

from . import events as E
from .flow import (AFTER_DRAW, AFTER_OUTS, AFTER_PLAY, AFTER_TURN_END, AFTER_TURN_START, AFTER_WINDOW, HAND_OFF,
                   OFFER_TURN, WINDOWS)

# The work one turn may do: effect ops, and every card an op moves in bulk (a redeal, a rotation,
# a draw), over all the decisions taken inside the turn. A turn past it ends the round as a stall.
MAX_STEPS_PER_TURN = 100_000
MAX_FRAMES = 64                # effect frames open at once; an effect nested deeper ends the round as a stall


class VM:
    """State's effect frames: push one, run them until done or paused, resume after a decision.

    A frame is a list laid out as effects/layout.py says: [code, pc, self, card, honest, jumped, locals...].
    """

    __slots__ = ()

    def new_frame(self, code: int, self_seat: int, card: int, honest: bool, jumped: bool) -> list:
        """A new frame for effect `code`, at its first op, its locals unset (layout in effects/layout.py):
        every effect frame is made here."""
        fr = [code, 0, self_seat, card, honest, jumped]
        nlocals = self.g.codes[code][1]
        if nlocals:
            fr += [None] * nlocals
        return fr

    def push(self, code: int, self_seat: int, card: int, honest: bool, jumped: bool) -> None:
        """Push a new frame for effect `code` (new_frame) on the open ones, for run."""
        self.frames.append(self.new_frame(code, self_seat, card, honest, jumped))

    def run_through(self, fr: list) -> None:
        """Run the frame `fr` of code that cannot pause or push to its end, here and now, off the frame stack:
        run's loop without its pauses and pushes. Its steps count in the turn's work, and a backward jump
        past the turn's budget stops it, as in run (the caller decides what a spent budget means)."""
        ops = self.g.codes[fr[0]][0]
        pc, end, steps = 0, len(ops), 0
        while pc < end:
            nxt = ops[pc](self, fr, pc)
            steps += 1          # counted apart: an op may count work of its own in self.steps (a hand scanned)
            if nxt <= pc and self.steps + steps > MAX_STEPS_PER_TURN:
                break
            pc = nxt
        self.steps += steps

    def run(self) -> bool:
        """Run effect frames until they finish (True) or one pauses for a decision (False).

        The turn's budget (MAX_STEPS_PER_TURN, counted in `steps` across the turn's decisions) and
        the frame limit (MAX_FRAMES) bound every run: past either, the round ends as a stall. Both
        are tested as each frame begins or resumes (so at every push, also one made outside this
        loop, such as a forced play's effect or a call's), at every backward jump, as each frame
        ends, and at every pause: no state left waiting for a decision is past either limit.
        """
        frames = self.frames
        codes = self.g.codes
        steps = 0
        while frames:
            if len(frames) > MAX_FRAMES or self.steps + steps > MAX_STEPS_PER_TURN:
                break
            fr = frames[-1]
            ops = codes[fr[0]][0]
            pc = fr[1]
            n = len(ops)
            while pc < n:
                nxt = ops[pc](self, fr, pc)
                steps += 1
                if nxt < 0:
                    self.steps += steps
                    if self.steps > MAX_STEPS_PER_TURN or len(frames) > MAX_FRAMES:
                        return self._stall_run(frames, 0)
                    return False
                if nxt <= pc and self.steps + steps > MAX_STEPS_PER_TURN:
                    fr[1] = pc              # where it stopped, for the stopped event
                    break                   # a loop past the turn's budget: stalled below
                pc = nxt
                if frames[-1] is not fr:
                    fr[1] = pc
                    break
            else:
                frames.pop()
            if self.over:
                break
        else:
            if self.steps + steps <= MAX_STEPS_PER_TURN:
                self.steps += steps
                return True
        return self._stall_run(frames, steps)

    def past_budget(self) -> bool:
        """Whether the turn's work is past MAX_STEPS_PER_TURN (the next run then ends the round as a stall)."""
        return self.steps > MAX_STEPS_PER_TURN

    def _stall_run(self, frames: list, steps: int) -> bool:
        """A run past a limit (or one that ended the round): its frames are dropped and, unless the round is
        already over, it ends as a stall. False: nothing of the round goes on."""
        self.steps += steps
        stalled = not self.over
        if stalled and frames and self.events is not None:
            limit = MAX_FRAMES if len(frames) > MAX_FRAMES else MAX_STEPS_PER_TURN
            self.events.append(E.stopped(self.g, frames[-1], limit))
        frames.clear()
        if stalled:
            self.end_round(None, stalled=True)
        return False

    def resume(self) -> None:
        """Continue after a decision: finish the effects, then whatever comes after them (`after` says what)."""
        self.pending = None
        if not self.run() or self.over:
            return
        after = self.after
        if after == AFTER_PLAY:
            self.after_play()
        elif after == AFTER_DRAW:
            self.after_draw_action()
        elif after == AFTER_OUTS:
            self.after_outs(self.then)
        elif after == AFTER_WINDOW:
            self.settle(WINDOWS)
        elif after == AFTER_TURN_START:
            self.settle(OFFER_TURN)
        elif after == AFTER_TURN_END:
            self.settle(HAND_OFF)
        else:
            self.after_setup()
