"""A stand-in for an OpenAI-compatible chat endpoint, on the loopback interface, answering from a script.

`ChatStub(replies)` serves `POST /v1/chat/completions`: each request is recorded (`requests`) and answered
with the next reply of the script (a string; a callable gets the request and returns one). When the script
runs out, it answers with the first legal-looking play of the prompt's view, or `draw`. No key, no
network beyond 127.0.0.1.
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from unodsl.rulebook.narration import words_as_ids


class ChatStub:
    def __init__(self, replies=(), fallback=None):
        self.replies = list(replies)
        self.fallback = fallback
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length))
                stub.requests.append(body)
                stub.headers.append(dict(self.headers))
                if self.path != "/v1/chat/completions":
                    self.send_response(404)
                    self.end_headers()
                    return
                reply = stub.next_reply(body)
                data = json.dumps({"id": "stub", "object": "chat.completion", "model": body.get("model"),
                                   "choices": [{"index": 0, "finish_reason": "stop",
                                                "message": {"role": "assistant", "content": reply}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def next_reply(self, body: dict) -> str:
        if self.replies:
            reply = self.replies.pop(0)
            return reply(body) if callable(reply) else reply
        if self.fallback is not None:
            return self.fallback(body)
        return "ACTION: draw"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


_HAND = re.compile(r"^your hand \(\d+\): (.*)$", re.M)
_TOP = re.compile(r"^top card: (\S+)\s+color: (\S+)", re.M)


def plays_from_the_view(game):
    """A scripted player reading only the prompt: a card of its hand matching the top card's color or
    type (or a wild), else draw; after a refusal, draw or pass; a color choice names the first color."""
    def reply(body: dict) -> str:
        last = words_as_ids(game, body["messages"][-1]["content"])      # the view says cards in words
        if last.startswith("That action was refused"):
            return "ACTION: pass" if "draw" in last.split(":", 1)[1][:60] else "ACTION: draw"
        if "decision: color" in last:
            return f"I pick a color.\nACTION: color {game.variant.colors[0]}"
        if "decision: challenge" in last:
            return "ACTION: accept"
        hand = _HAND.search(last)
        top = _TOP.search(last)
        if "decision: turn" in last and hand and top:
            cards = hand.group(1).replace("|", " ").replace(",", " ").split()
            top_card, color = top.group(1), top.group(2)
            for card in cards:
                k = game.card_index.get(card)
                t = game.card_index.get(top_card)
                if k is None or t is None:
                    continue
                wild = game.k_wild[k] or game.k_color[k] < 0
                if wild or game.variant.colors[game.k_color[k]] == color:
                    return f"ACTION: play {card}" + (" uno" if len(cards) == 2 else "")
            return "ACTION: draw"
        if "decision: drawn" in last:
            return "ACTION: keep"
        return "ACTION: pass"
    return reply
