"""`python -m unodsl.lsp`: serve the language server over stdin and stdout."""

from .server import main

main()
