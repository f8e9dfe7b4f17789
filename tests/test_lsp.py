"""`unodsl lsp` driven over stdio as an editor drives it: JSON-RPC frames to a real server process."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from unodsl.check import check_file  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus" / "invalid"
TIMEOUT = 120          # seconds any one answer may take on a loaded machine before the test fails


class Client:
    """A minimal LSP client: Content-Length frames over a subprocess's stdin and stdout."""

    def __init__(self, cwd: Path):
        env = {**os.environ, "PYTHONPATH": str(REPO), "UNODSL_NO_CACHE": "1"}
        self.proc = subprocess.Popen([sys.executable, "-m", "unodsl.lsp"], cwd=cwd, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.messages: queue.Queue = queue.Queue()
        self.stash: list[dict] = []
        self.next_id = 0
        self.stderr: list[bytes] = []
        self.readers = [threading.Thread(target=self._read, daemon=True),
                        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True)]
        for reader in self.readers:
            reader.start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                header = out.readline()
                if not header:
                    self.messages.put(None)
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            self.messages.put(json.loads(out.read(length)))

    def send(self, message: dict) -> None:
        self.send_bytes(json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8"))

    def send_bytes(self, body: bytes) -> None:
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict | None) -> dict:
        """Send a request and wait for its response (the whole message: `result` or `error`)."""
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def wait(self, matches) -> dict:
        """The first message (stashed or new) that `matches`; fails after TIMEOUT seconds of silence."""
        for message in self.stash:
            if matches(message):
                self.stash.remove(message)
                return message
        while True:
            try:
                message = self.messages.get(timeout=TIMEOUT)
            except queue.Empty:
                pytest.fail(f"no matching message from the server within {TIMEOUT} s; stderr: {self.log()}")
            if message is None:
                pytest.fail(f"the server closed its output; stderr: {self.log()}")
            if matches(message):
                return message
            self.stash.append(message)

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict]:
        """The next diagnostics published for `uri` (for that document version, when given)."""
        message = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                            and m["params"]["uri"] == uri
                            and (version is None or m["params"].get("version") == version))
        return message["params"]["diagnostics"]

    def log(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")[-3000:]

    def open(self, path: Path, text: str, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml",
                                                              "version": version, "text": text}})
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})

    def completion(self, uri: str, line: int, character: int) -> list[str]:
        answer = self.request("textDocument/completion", {"textDocument": {"uri": uri},
                                                          "position": {"line": line, "character": character}})
        result = answer["result"]
        items = result["items"] if isinstance(result, dict) else result
        return [item["label"] for item in items]

    def hover(self, uri: str, line: int, character: int) -> dict | None:
        answer = self.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                     "position": {"line": line, "character": character}})
        return answer["result"]

    def close(self) -> int:
        """shutdown, then exit: the server's exit code."""
        assert self.request("shutdown", None).get("result", "missing") is None
        self.notify("exit", None)
        try:
            return self.proc.wait(timeout=TIMEOUT)
        finally:
            self.stop()

    def stop(self) -> None:
        """End the server if it still runs, and release its pipes once both readers saw them end."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=TIMEOUT)
        for reader in self.readers:
            reader.join(timeout=TIMEOUT)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            stream.close()


@pytest.fixture
def client(tmp_path):
    # Started elsewhere, the server works from the workspace folder it is given, as check run there.
    c = Client(tmp_path)
    answer = c.request("initialize", {"processId": os.getpid(), "rootUri": REPO.as_uri(), "capabilities": {}})
    assert answer["result"]["serverInfo"]["name"] == "unodsl"
    c.notify("initialized", {})
    yield c
    c.stop()


def _utf16(line: str, column: int) -> int:
    """The LSP character (UTF-16 units) of unodsl's 1-based column on `line`."""
    return len(line[: column - 1].encode("utf-16-le")) // 2


def _cli_check(path: Path) -> list[str]:
    """`unodsl check` as a user runs it: its "path:line:col: CODE message" lines."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "UNODSL_NO_CACHE": "1"}
    done = subprocess.run([sys.executable, "-m", "unodsl.cli", "check", str(path)], capture_output=True, text=True,
                          cwd=REPO, env=env, timeout=TIMEOUT)
    return done.stdout.splitlines()


def test_every_invalid_corpus_file_gets_the_diagnostics_of_check(client):
    files = sorted(CORPUS.glob("*.yaml"))
    assert len(files) > 40
    checked = 0
    for number, path in enumerate(files):
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue                           # an editor would not show these bytes as they are
        expected = check_file(str(path)).diagnostics
        assert expected, path
        uri = client.open(path, text, version=number + 1)
        got = client.diagnostics(uri, number + 1)
        lines = text.split("\n")
        want = []
        for d in expected:
            if Path(d.path).resolve() == path.resolve():
                want.append((d.code, d.line - 1, _utf16(lines[d.line - 1], d.column), d.message))
            else:                              # found in a linked file: shown at the link, named in the message
                want.append((d.code, None, None, f"{d.path}:{d.line}:{d.column}: {d.message}"))
        shown = [(g["code"], g["range"]["start"]["line"], g["range"]["start"]["character"], g["message"])
                 for g in got]
        assert [(c, m) for c, _, _, m in shown] == [(c, m) for c, _, _, m in want], path
        assert [s[1:3] for s, w in zip(shown, want) if w[1] is not None] == \
               [w[1:3] for w in want if w[1] is not None], path
        assert all(g["source"] == "unodsl" and g["severity"] == (1 if d.severity == "error" else 2)
                   for g, d in zip(got, expected)), path
        checked += 1
    assert checked > 40
    assert client.close() == 0


def test_unsaved_text_is_checked_as_check_checks_it_once_saved(client, tmp_path):
    path = tmp_path / "mine.yaml"
    saved = "unodsl: 1\nname: Mine\nextends: classic\n"
    path.write_text(saved)
    uri = client.open(path, saved)
    assert client.diagnostics(uri, 1) == []
    edited = saved + "deal: {hand_size: \"\U0001F600\", colour: 3}\n"
    client.change(uri, edited, 2)
    got = client.diagnostics(uri, 2)
    assert path.read_text() == saved                     # the server checked the buffer, not the file
    path.write_text(edited)
    cli = _cli_check(path)
    assert cli and len(cli) == len(got)
    line = edited.split("\n")[3]
    for shown, printed in zip(got, cli):
        where, code, message = printed.split(" ", 2)[0], printed.split(" ", 2)[1], printed.split(" ", 2)[2]
        _, row, column, _ = where.rsplit(":", 3)
        assert (shown["code"], shown["message"]) == (code, message)
        assert shown["range"]["start"] == {"line": int(row) - 1, "character": _utf16(line, int(column))}
    unknown = next(g for g in got if "colour" in g["message"])
    assert unknown["code"].startswith("E2")
    # The emoji is two UTF-16 units: the key starts 2 units after the quote, not 1.
    assert unknown["range"]["start"]["character"] == line.index("colour") + 1
    assert client.close() == 0


def test_a_problem_in_an_included_file_is_shown_at_the_include(client, tmp_path):
    (tmp_path / "pyproject.toml").write_text("")            # the folder is a project: its files may link
    broken = tmp_path / "broken-rule.yaml"
    broken.write_text("unodsl: 1\nname: Broken\ncards:\n  skip:\n    on_play: next drawz 2\n")
    main = tmp_path / "main.yaml"
    text = "unodsl: 1\nname: Main\nextends: classic\ninclude:\n  - broken-rule.yaml\n"
    main.write_text(text)
    uri = client.open(main, text)
    got = client.diagnostics(uri, 1)
    assert got, client.log()
    first = got[0]
    assert first["code"].startswith("E4")
    assert first["range"]["start"] == {"line": 4, "character": 4}
    assert first["message"].startswith(f"{broken}:5:")
    related = first["relatedInformation"][0]
    assert related["location"]["uri"] == broken.as_uri()
    assert related["location"]["range"]["start"]["line"] == 4
    # The included file open with unsaved edits: the including file is checked against those.
    client.open(broken, broken.read_text().replace("drawz", "draws"))
    client.diagnostics(broken.as_uri(), 1)
    client.change(uri, text + "\n", 2)
    assert client.diagnostics(uri, 2) == []
    assert client.close() == 0


def test_completion_offers_keys_names_and_effect_words(client, tmp_path):
    path = tmp_path / "mine.yaml"
    text = ("unodsl: 1\nname: Mine\nextends: \ninclude: [stacking-mattel, ]\n"
            "cards:\n  shout:\n    per_color: 1\n    on_play: |\n      if hand(next) > 1:\n"
            "          next \n    \n  yell:\n    count: 1\n    on_play: if self holds card \n"
            "rulings:\n  loud:\n    value: true\n"
            "de\n")
    # The card ids and rulings come from the last check that built the variant: the
    # file as it was before this edit half-typed it.
    uri = client.open(path, "unodsl: 1\nname: Mine\nextends: classic\nrulings:\n  loud: {value: true}\n")
    client.diagnostics(uri, 1)
    client.change(uri, text, 2)
    client.diagnostics(uri, 2)
    lines = text.split("\n")
    assert "classic" in client.completion(uri, 2, len("extends: "))
    included = client.completion(uri, 3, len("include: [stacking-mattel, "))
    assert included[0] in {"draw-to-match", "force-play"} and "seven-o" in included
    assert included.index("seven-o") < included.index("classic")     # house rules first in include
    keys = client.completion(uri, 10, 4)
    assert {"on_start", "restriction", "points"} <= set(keys)
    assert "per_color" not in keys and "on_play" not in keys        # already given
    top = client.completion(uri, 17, 2)
    assert {"deal", "deck", "stacking"} <= set(top) and "cards" not in top and "name" not in top
    # Inside the effect block: what the grammar accepts next, and the variant's card ids.
    assert "wild_draw_four" in client.completion(uri, 13, len(lines[13]))      # from classic, via extends
    after_player = client.completion(uri, 9, len(lines[9]))
    assert "draws" in after_player and "skip" not in after_player
    nested = tmp_path / "flow.yaml"
    flow = "unodsl: 1\nname: F\nextends: classic\ncards:\n  shout: {per_color: 1, on_play: \"if rule.\"}\n" \
           "rulings:\n  loud: {value: true}\n"
    flow_uri = client.open(nested, flow)
    client.diagnostics(flow_uri, 1)
    assert "loud" in client.completion(flow_uri, 4, flow.split("\n")[4].index("rule.") + 5)
    assert client.close() == 0


def test_hover_shows_the_schema_description(client, tmp_path):
    path = tmp_path / "mine.yaml"
    text = "unodsl: 1\nname: Mine\nextends: classic\ncards:\n  shout:\n    on_play: skip next\n"
    uri = client.open(path, text)
    client.diagnostics(uri, 1)
    shown = client.hover(uri, 5, 6)
    assert "What happens when the card is played" in shown["contents"]["value"]
    assert shown["range"] == {"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 11}}
    assert "shipped variant `classic`" in client.hover(uri, 2, 10)["contents"]["value"]
    assert client.hover(uri, 5, 16) is None                 # inside effect text, no key
    assert client.close() == 0


@pytest.mark.parametrize("junk", [
    "\x00\x01\x02binary\xff\xfe" * 50,
    "cards:\n  skip:\n    on_play: |\n      if next holds\n  - ]: {\n\t\t\"\n",
    "a: &a [*a, *a]\n" + "[" * 5000,
    "\ud800 lone surrogate\n",
    "x: 1\n" * 300_000,                        # past check's size limit
])
def test_junk_gives_diagnostics_and_the_server_stays_up(client, tmp_path, junk):
    path = tmp_path / "junk.yaml"
    uri = client.open(path, junk)
    got = client.diagnostics(uri, 1)
    assert got and all(g["code"].startswith("E1") for g in got), got
    for line, character in ((0, 0), (0, 3), (3, 12), (5, 2), (10_000, 99)):
        assert "error" not in client.request("textDocument/completion", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
        assert "error" not in client.request("textDocument/hover", {
            "textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
    client.send_bytes(b"{not json")                            # a broken frame: answered or dropped, not fatal
    client.change(uri, "unodsl: 1\nname: Fine\nextends: classic\n", 2)
    assert client.diagnostics(uri, 2) == []
    assert "internal error" not in client.log()
    assert client.close() == 0


def test_a_buffer_never_saved_is_checked_and_a_document_never_opened_is_answered(client):
    uri = "untitled:Untitled-1"
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1,
                                                          "text": "unodsl: 1\nname: New\nextends: classic\nbogus: 1\n"}})
    got = client.diagnostics(uri, 1)
    assert [(g["code"], g["range"]["start"], g["message"]) for g in got] == \
           [("E201", {"line": 3, "character": 0}, "unknown key 'bogus' at the top level")]
    assert "deal" in client.completion(uri, 4, 0)
    never = (REPO / "variants" / "no-such-file.yaml").as_uri()
    assert client.completion(never, 0, 0) == [] and client.hover(never, 0, 0) is None
    assert "internal error" not in client.log()
    assert client.close() == 0
