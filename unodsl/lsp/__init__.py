"""`unodsl lsp`: a language server for variant files, an optional extra (`pip install unodsl[lsp]`).

It gives an editor the diagnostics of `unodsl check` for the unsaved text, completion of the
schema's keys, of shipped names and of effect-language words, and hover with the schema's
descriptions. `server` holds the pygls wiring; the other modules do not import pygls.
"""
