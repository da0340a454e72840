"""The web face: a JSON API and a page to play on, served by uvicorn in-process.

``create_app()`` builds the ASGI application; ``serve()`` runs it. The app is
stateless, so ``workers > 1`` simply starts more processes, each building its
own app from the import string ``unbeatable.web:create_app``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI

#: What each uvicorn worker process imports to build its app.
APP_FACTORY = "unbeatable.web:create_app"


class LogLevel(StrEnum):
    """uvicorn's log levels, quietest first, named as its own ``--log-level``.
    Below ``info`` its start-up, shut-down and per-request lines are not
    shown; warnings and errors always are."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


#: The log levels' names (:class:`LogLevel`), quietest first.
LOG_LEVELS: tuple[str, ...] = tuple(level.value for level in LogLevel)


def create_app(**options: Any) -> FastAPI:
    """The ASGI application (see :func:`unbeatable.web.app.create_app` for options).

    Imported lazily so that ``import unbeatable.web`` (e.g. by the CLI) does not
    load FastAPI until a server is really wanted. The library's notes (an
    engine being readied, a broken plug-in left out) go to the server's
    stderr, as the command line shows them (:func:`unbeatable.api.show_notes`),
    in every worker process.
    """
    from unbeatable import api
    from unbeatable.web.app import create_app as build

    api.show_notes()
    return build(**options)


def url(host: str, port: int) -> str:
    """The address a browser should open (IPv6 hosts need brackets)."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def serve(
    host: str = "127.0.0.1", port: int = 8000, workers: int = 1, log_level: str = "warning"
) -> None:
    """Listen, print the address, and serve until interrupted.

    Binds to loopback unless another ``host`` is given: the page and the API are
    meant for this machine's user, and exposing them is an explicit choice.
    The socket is bound here, before anything is printed, so a port in use is
    an :class:`OSError` at once and port 0 prints the port the system chose.
    The address is the only line printed unless ``log_level`` is ``info`` or
    louder (uvicorn's start-up and one line per request, as uvicorn prints them).
    """
    import socket

    import uvicorn

    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if not 0 <= port <= 65535:
        raise ValueError(f"port must be between 0 and 65535, got {port}")
    if log_level not in LOG_LEVELS:
        raise ValueError(f"log_level must be one of {', '.join(LOG_LEVELS)}, got {log_level!r}")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # The protocol named, as getaddrinfo would: asyncio turns Nagle's algorithm
    # off (TCP_NODELAY) only on sockets that say they are TCP, and with it on
    # every small answer waits about 40 ms for the client's delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    port = sock.getsockname()[1]
    print(f"unbeatable: playing at {url(host, port)} (API docs at /docs); Ctrl+C stops", flush=True)
    options: dict[str, Any] = {
        "factory": True,
        "timeout_keep_alive": 5,
        "timeout_graceful_shutdown": 5,
        "server_header": False,
        "log_level": log_level,
    }
    if workers == 1:
        config = uvicorn.Config(APP_FACTORY, **options)
        uvicorn.Server(config).run(sockets=[sock])
    else:
        # Each worker process serves this listening socket, handed over whole
        # (as uvicorn.run does with its own): a bare file descriptor would come
        # back labelled as a Unix socket, without TCP_NODELAY.
        from uvicorn.supervisors import Multiprocess

        config = uvicorn.Config(APP_FACTORY, workers=workers, **options)
        Multiprocess(config, sockets=[sock]).run()


__all__ = ["APP_FACTORY", "LOG_LEVELS", "LogLevel", "create_app", "serve", "url"]
