"""`unodsl lsp`: a language server for variant files, an optional extra (`pip install unodsl[lsp]`).

It gives an editor the diagnostics of `unodsl check` for the unsaved text, completion of the
schema's keys, of shipped names and of effect-language words, hover (a key's schema
description, an effect statement's docs, a card type's or ruling's own text) and
go-to-definition (linked files, card types, rulings). `server` holds the pygls wiring; the other modules do not import pygls.
"""
