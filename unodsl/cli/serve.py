"""`unodsl serve`: play a variant in the browser with friends and bots (the web extra)."""

from __future__ import annotations

import sys

import click

from .shared import BOT_CHOICE, variant_file


@click.command()
@click.argument("file")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (the default is this machine only; 0.0.0.0 for a home network).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--players", type=int, default=4, show_default=True, help="Seats of a new room (the page may change it).")
@click.option("--bots", type=BOT_CHOICE, default="heuristic", show_default=True,
              help="The bots that take the seats nobody took, and a seat whose player is away.")
@click.option("--grace", type=click.FloatRange(0), default=30.0, show_default=True,
              help="Seconds a disconnected player's seat waits before a bot plays it (until they return).")
@click.option("--seed", type=int, default=None, help="Deal every room from this seed (for demonstrations and tests).")
@click.option("--rooms-per-client", type=click.IntRange(0), default=20, show_default=True,
              help="Rooms one client address may hold at once (0: no limit; behind a proxy every client is one).")
@click.option("--sockets-per-client", type=click.IntRange(0), default=64, show_default=True,
              help="WebSocket connections one client address may hold open at once (0: no limit).")
@click.option("--unstarted-ttl", type=click.FloatRange(0), default=600.0, show_default=True,
              help="Seconds a room never started lives after its last change when nobody is connected to it.")
@click.option("--room-ttl", type=click.FloatRange(0), default=3600.0, show_default=True,
              help="Seconds any room lives after its last change when nobody is connected to it.")
@click.option("--db", "db", default=None, metavar="PATH",
              help="The SQLite file that keeps the rooms over a restart [$XDG_STATE_HOME/unodsl/rooms.sqlite3]; "
                   "':memory:' keeps nothing.")
def serve(file: str, host: str, port: int, players: int, bots: str, grace: float, seed: int | None,
          rooms_per_client: int, sockets_per_client: int, unstarted_ttl: float, room_ttl: float, db: str | None) -> None:
    """Serve the variant in the browser: make a room, share its code, play (docs/play.md)."""
    try:
        import uvicorn

        from ..web.server import Lobby, create_app
    except ImportError as err:
        click.echo(f"unodsl: serve needs the web extra (pip install 'unodsl[web]'): {err}", err=True)
        sys.exit(2)
    from ..web.rooms import RoomError
    from ..web.store import MEMORY, Store, StoreError, default_path
    path = default_path() if db is None else db
    try:
        store = None if path == MEMORY else Store(path)
    except (StoreError, OSError) as err:
        click.echo(f"unodsl: {err}", err=True)
        sys.exit(1)
    try:
        lobby = Lobby(variant_file(file), bots=bots, players=players, grace=grace, seed=seed,
                      rooms_per_client=rooms_per_client, sockets_per_client=sockets_per_client,
                      unstarted_ttl=unstarted_ttl, room_ttl=room_ttl,
                      store=store, addresses=network_addresses(host, port))
        lobby.base.check_players(players)
    except RoomError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    except ValueError as err:
        raise click.UsageError(str(err)) from None
    kept = f"rooms kept in {path}" + (f" ({len(lobby.rooms)} restored)" if lobby.rooms else "") if store else "rooms not kept"
    click.echo(f"unodsl: serving {lobby.base.variant.name} on http://{host}:{port}/ ({kept}; Ctrl-C stops)", err=True)
    import threading

    from ..web import combos
    # Which house rules clash: the lobby page asks for it first; it loads each house rule once (seconds).
    threading.Thread(target=combos.clashes, args=(lobby,), daemon=True).start()
    # ws_max_size: a frame past 64 KB closes the connection before it is read into memory.
    uvicorn.run(create_app(lobby), host=host, port=port, log_level="warning", ws_max_size=65536)


def network_addresses(host: str, port: int) -> list[str]:
    """The addresses the home network reaches this server at, when it listens on every interface: the
    page links to them when it was opened as 127.0.0.1. Found without sending anything (a UDP socket's
    route), and from the host name; loopback ones left out."""
    import socket
    if host not in ("0.0.0.0", "::", ""):
        return [] if host.startswith("127.") or host == "localhost" else [f"http://{host}:{port}"]
    found = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))          # TEST-NET-1: a route is chosen, no packet sent
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        found += [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        pass
    return [f"http://{ip}:{port}" for ip in dict.fromkeys(found) if not ip.startswith("127.")]
