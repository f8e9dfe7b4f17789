"""`llm:` seats: a language model behind an OpenAI-compatible chat endpoint plays a seat.

The endpoint and the key come from the environment, never from a file: `UNODSL_LLM_URL` (the API's
base URL, e.g. http://127.0.0.1:11434/v1; `/chat/completions` is added), `UNODSL_LLM_MODEL` (unless the
spec names one: `llm:MODEL`) and `UNODSL_LLM_KEY` (sent as a bearer token when set). The prompt is the
variant's generated rulebook (system), then the seat's text view and the answer format (user); a refused
answer is given back with the engine's reason in the same conversation. The standard library's HTTP
client does the calls: the adapter needs no package.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request

from ..rulebook.narration import answer_as_action
from .view import render, rulebook_section

ENV_URL = "UNODSL_LLM_URL"
ENV_MODEL = "UNODSL_LLM_MODEL"
ENV_KEY = "UNODSL_LLM_KEY"

ANSWER_FORMAT = (
    "Answer with one action on the last line, written as `ACTION: <action>`. Actions: `play CARD` "
    "(add ` uno` when the play leaves you one card: `play red_7 uno`), `draw`, `keep`, `pass`, "
    "`color COLOR`, `target N`, `challenge`, `accept`, `give CARD`, `trade MINE THEIRS`, `done`, "
    "`catch N`, `uno`, `option NAME`, `put CARD`. Cards are written as in the view (play Red 7, play Wild Draw Four) "
    "or by their ids (play red_7, play wild_draw_four).")

_ACTION_LINE = re.compile(r"^\s*\**\s*action\s*\**\s*:\s*\**\s*(.+?)\s*$", re.I | re.M)


def system_prompt(game) -> str:
    """The rules the model is told: the variant's generated rulebook and how to answer."""
    return ("You are playing a card game of the UNO family at a table with other players. These are its "
            "rules, exactly; where they differ from UNO as you know it, these rules hold.\n\n"
            + rulebook_section(game) + "\n\n" + ANSWER_FORMAT)


def user_prompt(text_view: str) -> str:
    """The decision the model is asked for: the seat's text view and the answer format."""
    return text_view + "\n\nIt is your decision. " + ANSWER_FORMAT


def retry_prompt(reason: str) -> str:
    """The message a refused answer gets: the engine's reason, and the request to answer again."""
    return f"That action was refused: {reason}. Choose another action. " + ANSWER_FORMAT


def parse_action(reply: str) -> str:
    """The action a reply names: its last `ACTION: ...` line, else a reply of one line; quotes, backticks
    and a final period taken off. A reply that names nothing is returned as it is (the engine refuses it)."""
    found = _ACTION_LINE.findall(reply or "")
    text = found[-1] if found else (reply or "").strip()
    if not found and "\n" in text:
        text = text.strip().splitlines()[-1]
    text = text.strip().strip("`*\"'").strip().rstrip(".").strip()
    return " ".join(text.split())


class ChatError(Exception):
    """The endpoint refused or failed a request; the message says what it answered."""


class ChatAgent:
    """An agent that asks an OpenAI-compatible chat endpoint for every decision."""

    def __init__(self, model: str = "", url: str = "", temperature: str = "0", legal: str = "no",
                 max_tokens: str = "400"):
        self.url = (url or os.environ.get(ENV_URL, "")).rstrip("/")
        self.model = model or os.environ.get(ENV_MODEL, "")
        if not self.url:
            raise ValueError(f"an llm seat needs the endpoint's base URL in {ENV_URL} (e.g. http://127.0.0.1:11434/v1)")
        if not self.model:
            raise ValueError(f"an llm seat needs a model: llm:MODEL, or {ENV_MODEL}")
        self.key = os.environ.get(ENV_KEY, "")
        self.temperature = float(temperature)
        self.max_tokens = int(max_tokens)
        self.legal = legal in ("yes", "true", "1")
        self.system = ""
        self.messages: list[dict] = []
        self.calls = 0
        self.timeout = 120.0

    def reset(self, seat: int, game) -> None:
        self.system = system_prompt(game)

    def act(self, view):
        if not self.system:
            self.system = system_prompt(view.game)
        if view.attempt == 0 or not self.messages:
            self.messages = [{"role": "system", "content": self.system},
                             {"role": "user", "content": user_prompt(render(view, legal=self.legal))}]
        else:
            self.messages.append({"role": "user", "content": retry_prompt(view.feedback or "not legal")})
        reply = self.chat(self.messages)
        self.messages.append({"role": "assistant", "content": reply})
        return answer_as_action(view.game, parse_action(reply))      # cards in words as the view says them, or ids

    def answer(self, question: dict) -> str:
        """A benchmark question (arena/bench.py): the rules given as the system prompt, the question as the user's."""
        system = ("You are asked about a card game of the UNO family. These are its rules, exactly; where they "
                  "differ from UNO as you know it, these rules hold.\n\n" + (question.get("rules") or ""))
        return self.chat([{"role": "system", "content": system}, {"role": "user", "content": question["prompt"]}])

    def chat(self, messages: list[dict]) -> str:
        """One call of the chat endpoint; the reply's text. ChatError says what went wrong."""
        body = json.dumps({"model": self.model, "messages": messages, "temperature": self.temperature,
                           "max_tokens": self.max_tokens}).encode()
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(self.url + "/chat/completions", data=body, headers=headers, method="POST")
        self.calls += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                data = json.loads(response.read(1 << 22))
        except urllib.error.HTTPError as err:
            detail = err.read(300).decode("utf-8", "replace")
            raise ChatError(f"the endpoint answered {err.code}: {detail}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as err:
            raise ChatError(f"cannot reach {self.url}: {getattr(err, 'reason', err)}") from None
        except json.JSONDecodeError:
            raise ChatError("the endpoint's answer is not JSON") from None
        try:
            return data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError):
            raise ChatError(f"the endpoint's answer has no choices[0].message.content: {str(data)[:200]}") from None
