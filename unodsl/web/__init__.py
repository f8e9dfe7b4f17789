"""Play in the browser: `unodsl serve` (rooms, seats, bots, the page). Needs the `web` extra
(starlette, uvicorn); rooms.py itself is standard library and unodsl only."""
