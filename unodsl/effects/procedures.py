"""The call graph of a variant's procedures: the order to check them in, their cycles, their inlined sizes.

A procedure is inlined at each call (`do NAME(ARGS)`), so the language stays without
recursion: a call cycle, direct or through others, is an error (E537), and a call whose
inlined body would grow past MAX_EXPANDED nodes is one too (E538), so that a chain of
procedures each calling the next twice cannot blow up the compiled code. Everything here
is worked out without recursion, however the procedures are chained.
"""

from __future__ import annotations

from collections import deque

from . import ast as A

MAX_EXPANDED = 10_000           # syntax nodes one call may inline, its callees' bodies included


class CallGraph:
    """Which procedure calls which, from their parsed bodies (`trees`: name -> Effect, or None if unparsed)."""

    def __init__(self, trees: dict, call: type = A.Call):
        # `call`: the node that calls one (A.Call for procedures, A.FnCall for functions:, whose values
        # are inlined at each call as procedures' bodies are).
        self.calls: dict[str, list[str]] = {}       # name -> the procedures its body calls, in order
        own: dict[str, int] = {}                    # name -> the nodes of its own body
        for name, tree in trees.items():
            nodes = list(A.walk(tree)) if tree is not None else []
            own[name] = len(nodes)
            self.calls[name] = [n.name for n in nodes if isinstance(n, call) and n.name in trees]
        self.order = self._callees_first()
        self.size: dict[str, int] = {}              # name -> nodes inlined by a call (past the cap: cap + 1)
        for name in self.order:
            total = own[name] + sum(self.size[callee] for callee in self.calls[name])
            self.size[name] = min(total, MAX_EXPANDED + 1)
        for name in trees:
            self.size.setdefault(name, MAX_EXPANDED + 1)        # on or behind a cycle: never inlined

    def _callees_first(self) -> list[str]:
        """The procedures outside any cycle, each after those it calls (Kahn's algorithm)."""
        waiting = {name: len(set(callees)) for name, callees in self.calls.items()}
        callers: dict[str, set[str]] = {name: set() for name in self.calls}
        for name, callees in self.calls.items():
            for callee in callees:
                callers[callee].add(name)
        ready = deque(sorted(name for name, count in waiting.items() if count == 0))
        order = []
        while ready:
            name = ready.popleft()
            order.append(name)
            for caller in sorted(callers[name]):
                waiting[caller] -= 1
                if waiting[caller] == 0:
                    ready.append(caller)
        return order

    def unordered(self) -> list[str]:
        """The procedures on a cycle or calling into one, in name order: checked after the others."""
        done = set(self.order)
        return sorted(name for name in self.calls if name not in done)

    def cycle(self, caller: str, callee: str) -> list[str] | None:
        """The cycle that the call caller -> callee closes (`[a, b, a]`), or None if it closes none."""
        if callee == caller:
            return [caller, caller]
        back = {callee: None}                       # a shortest path from callee back to caller
        todo = deque([callee])
        while todo:
            name = todo.popleft()
            for nxt in self.calls[name]:
                if nxt not in back:
                    back[nxt] = name
                    if nxt == caller:
                        path = [caller]
                        step = name
                        while step is not None:
                            path.append(step)
                            step = back[step]
                        return [caller] + path[1:][::-1] + [caller]
                    todo.append(nxt)
        return None
