"""The language server: pygls wiring of diagnostics, completion, hover and go-to-definition for variant files.

Every handler is guarded: whatever a document holds (half-typed YAML, binary junk, a huge
file), the server answers with what it can and stays up; an internal error becomes an
E599 diagnostic or an empty answer, and is logged to stderr.
"""

from __future__ import annotations

import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Callable, TypeVar
from urllib.parse import unquote, urlparse

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from .. import __version__
from ..check import CheckResult
from .checking import Located, check_text, same_file
from .completion import Item, Names, complete
from .cursor import context_at
from ..source.schema_tree import variant_schema
from .symbols import Symbol, symbol_at
from .text import Text

log = logging.getLogger("unodsl.lsp")

T = TypeVar("T")

_SEVERITY = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}
_KINDS = {
    "key": types.CompletionItemKind.Property, "value": types.CompletionItemKind.EnumMember,
    "variant": types.CompletionItemKind.Module, "house_rule": types.CompletionItemKind.Module,
    "keyword": types.CompletionItemKind.Keyword, "variable": types.CompletionItemKind.Variable,
    "card": types.CompletionItemKind.Class, "ruling": types.CompletionItemKind.Constant,
    "color": types.CompletionItemKind.Color, "attribute": types.CompletionItemKind.Field,
}
# A document above this many characters is only checked (check refuses it with E105):
# completion and hover read lines and would only be slow.
MAX_EDITED_CHARS = 2_000_000


class UnodslServer(LanguageServer):
    """A pygls server that remembers, per document, the names its last good check found and its last check.

    `checked` holds the document version each check read: hover and definition use a check
    only for the text it was made from, since its positions are that text's.
    """

    def __init__(self) -> None:
        super().__init__("unodsl", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Full)
        self.names: dict[str, Names] = {}
        self.checked: dict[str, tuple[int | None, CheckResult]] = {}


server = UnodslServer()


def document_path(uri: str) -> str:
    """The file system path of a `file:` URI; other schemes (an unsaved `untitled:` buffer) keep the URI."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri
    path = unquote(parsed.path)
    if parsed.netloc and parsed.netloc != "localhost":
        path = f"//{parsed.netloc}{path}"
    return path


def _guarded(default: Callable[[], T], fn: Callable[[], T]) -> T:
    try:
        return fn()
    except Exception:                       # noqa: BLE001 - one bad document must not stop the server
        log.error("unodsl lsp: internal error\n%s", traceback.format_exc())
        return default()


def _encoding(ls: LanguageServer) -> str:
    kind = ls.workspace.position_encoding
    value = getattr(kind, "value", kind) or "utf-16"
    return str(value)


# --- start-up -------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: UnodslServer, params: types.InitializeParams) -> None:
    """Work from the workspace's folder, as `unodsl check` run there does.

    Check chooses the folder that links may not leave, and names the files a variant
    reached, from the working folder; an editor may start the server from anywhere.
    """
    def enter() -> None:
        folders = params.workspace_folders or []
        uri = folders[0].uri if folders else params.root_uri
        folder = document_path(uri) if uri else params.root_path
        if folder and os.path.isdir(folder):
            os.chdir(folder)

    _guarded(lambda: None, enter)


# --- diagnostics ----------------------------------------------------------------


def publish(ls: UnodslServer, uri: str) -> None:
    """Check the document at `uri` as it is in the editor and publish its diagnostics."""
    def send() -> None:
        doc = ls.workspace.get_text_document(uri)
        text = Text(doc.source, _encoding(ls))
        diagnostics = _guarded(lambda: [_internal_error()], lambda: _diagnostics(ls, uri, text, doc.version))
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=diagnostics))

    _guarded(lambda: None, send)


def _diagnostics(ls: UnodslServer, uri: str, text: Text, version: int | None) -> list[types.Diagnostic]:
    path = document_path(uri)
    others = {document_path(other.uri): other.source for other in ls.workspace.text_documents.values()
              if other.uri != uri}
    ls.checked.pop(uri, None)
    result, located = check_text(path, text.source, others)
    ls.checked[uri] = (version, result)
    if result.variant is not None:
        variant = result.variant
        ls.names[uri] = Names(tuple(variant.cards), tuple(variant.rulings), tuple(variant.colors),
                              tuple(variant.procedures), tuple(variant.distributions))
    return [_lsp_diagnostic(text, item) for item in located]


def _lsp_diagnostic(text: Text, item: Located) -> types.Diagnostic:
    d = item.diagnostic
    start = text.offset_of_unodsl(item.line, item.column)
    if item.end_line is not None and item.end_column is not None:
        end = max(text.offset_of_unodsl(item.end_line, item.end_column), start)
    else:
        end = _word_end(text.source, start)
    message = d.message
    related = None
    if item.elsewhere is not None:
        where = item.elsewhere
        message = f"{where.path}:{where.line}:{where.column}: {d.message}"
        related = [types.DiagnosticRelatedInformation(
            location=types.Location(uri=_uri(where.path), range=_range_in_file(where)),
            message=f"{d.code} {d.message}")]
    return types.Diagnostic(
        range=types.Range(start=_position(text, start), end=_position(text, end)),
        message=message, severity=_SEVERITY.get(d.severity, types.DiagnosticSeverity.Information),
        code=d.code, source="unodsl", related_information=related)


def _word_end(source: str, start: int) -> int:
    """Where the word at `start` ends, so a diagnostic without an end still underlines something."""
    end = start
    while end < len(source) and (source[end].isalnum() or source[end] in "_-."):
        end += 1
    if end == start and start < len(source) and source[start] not in "\r\n":
        end += 1
    return end


def _range_in_file(d) -> types.Range:
    """The range of a diagnostic in a file that is not open: unodsl's columns taken as they are."""
    start = types.Position(line=max(d.line - 1, 0), character=max(d.column - 1, 0))
    end_line = d.end_line if d.end_line is not None else d.line
    end_column = d.end_column if d.end_column is not None else d.column
    return types.Range(start=start, end=types.Position(line=max(end_line - 1, 0), character=max(end_column - 1, 0)))


def _uri(path: str) -> str:
    try:
        return Path(os.path.abspath(path)).as_uri()
    except ValueError:
        return path


def _position(text: Text, offset: int) -> types.Position:
    line, character = text.lsp_position(offset)
    return types.Position(line=line, character=character)


def _internal_error() -> types.Diagnostic:
    start = types.Position(line=0, character=0)
    return types.Diagnostic(range=types.Range(start=start, end=start), severity=types.DiagnosticSeverity.Error,
                            code="E599", source="unodsl",
                            message="internal error while checking this file; please report it (see the server log)")


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: UnodslServer, params: types.DidOpenTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: UnodslServer, params: types.DidChangeTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: UnodslServer, params: types.DidSaveTextDocumentParams) -> None:
    publish(ls, params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: UnodslServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.names.pop(uri, None)
    ls.checked.pop(uri, None)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


# --- completion, hover and definition ----------------------------------------------


def _cursor(ls: UnodslServer, uri: str, position: types.Position) -> tuple[list[str], int, int] | None:
    """(the document's lines, 0-based line, column in characters) at an LSP position, or None."""
    if uri not in ls.workspace.text_documents:
        return None                           # never opened: there is no text to read
    doc = ls.workspace.get_text_document(uri)
    if len(doc.source) > MAX_EDITED_CHARS:
        return None
    text = Text(doc.source, _encoding(ls))
    offset = text.offset_of_lsp(position.line, position.character)
    lines = text.lsp_lines()
    line = position.line if position.line < len(lines) else len(lines) - 1
    return lines, line, offset - text.lsp_line_start(line)


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[" ", ".", "[", ",", "-"]))
def completion(ls: UnodslServer, params: types.CompletionParams) -> types.CompletionList:
    def answer() -> types.CompletionList:
        at = _cursor(ls, params.text_document.uri, params.position)
        context = context_at(*at) if at is not None else None
        if context is None:
            return types.CompletionList(is_incomplete=False, items=[])
        items = complete(context, variant_schema(), ls.names.get(params.text_document.uri, Names()))
        return types.CompletionList(is_incomplete=False, items=[_lsp_item(item) for item in items])

    return _guarded(lambda: types.CompletionList(is_incomplete=False, items=[]), answer)


def _lsp_item(item: Item) -> types.CompletionItem:
    docs = types.MarkupContent(kind=types.MarkupKind.Markdown, value=item.documentation) if item.documentation else None
    return types.CompletionItem(label=item.label, kind=_KINDS.get(item.kind), insert_text=item.insert,
                                detail=item.detail or None, documentation=docs, sort_text=item.sort or None)


def _symbol(ls: UnodslServer, uri: str, position: types.Position) -> tuple[Text, Symbol] | None:
    """The document's text and the symbol at an LSP position, or None."""
    if uri not in ls.workspace.text_documents:
        return None
    doc = ls.workspace.get_text_document(uri)
    if len(doc.source) > MAX_EDITED_CHARS:
        return None
    text = Text(doc.source, _encoding(ls))
    version, result = ls.checked.get(uri, (None, None))
    current = result if result is not None and version == doc.version else None
    found = symbol_at(text, text.offset_of_lsp(position.line, position.character), document_path(uri),
                      current, variant_schema())
    return (text, found) if found is not None else None


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: UnodslServer, params: types.HoverParams) -> types.Hover | None:
    def answer() -> types.Hover | None:
        found = _symbol(ls, params.text_document.uri, params.position)
        if found is None or found[1].markdown is None:
            return None
        text, symbol = found
        span = types.Range(start=_position(text, symbol.start), end=_position(text, symbol.end))
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=symbol.markdown),
                           range=span)

    return _guarded(lambda: None, answer)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(ls: UnodslServer, params: types.DefinitionParams) -> types.Location | None:
    def answer() -> types.Location | None:
        found = _symbol(ls, params.text_document.uri, params.position)
        if found is None or found[1].target is None:
            return None
        target = found[1].target
        return types.Location(uri=_uri(target.path), range=_range_at(ls, target.path, target.line, target.column))

    return _guarded(lambda: None, answer)


def _range_at(ls: UnodslServer, path: str, line: int, column: int) -> types.Range:
    """An empty range at unodsl's (line, column) of a file: its open text's positions, else the column as it is."""
    doc = next((d for d in ls.workspace.text_documents.values() if same_file(document_path(d.uri), path)), None)
    if doc is not None:
        text = Text(doc.source, _encoding(ls))
        at = _position(text, text.offset_of_unodsl(line, column))
    else:
        at = types.Position(line=max(line - 1, 0), character=max(column - 1, 0))
    return types.Range(start=at, end=at)


def main() -> None:
    """Serve over stdin and stdout until the client says exit (`unodsl lsp`, `python -m unodsl.lsp`)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(message)s")
    server.start_io()
