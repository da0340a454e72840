"""The HTTP API and the page that plays against it.

The server is stateless: every request carries the whole position, so any
number of processes can stand behind a load balancer. Endpoints are thin
wrappers over :mod:`unbeatable.api`; their JSON is the ``to_dict()`` of the
library's answer, an analysis with what the page cannot work out for want of
rules (:func:`unbeatable.api.in_words`: the name of a threat win on each
move and, for k in a row, the analysis in the game's words); and
``/api/games`` gives this server's time budget of each game (which
``create_app(time_limits=...)`` may change) in place of the library's.

Errors always come back as ``{"error": "<one readable sentence>"}``:

* 400: the body is not JSON at all, or it fits the schema but its position
  is malformed or impossible (the library's :class:`GameError` message);
* 404 / 405: no such path / method;
* 409: ``/api/move`` on a finished game;
* 413: the body is over the size limit;
* 422: the JSON does not match the schema (a missing, unknown or mistyped
  field, an unknown game or level, a string over its length limit);
* 503: the engine is not installed on this server.

The library is safe to call from several threads, so requests run side by
side: games solved exactly in microseconds (tic-tac-toe) on the event loop,
every other search in the threadpool, where the Connect Four kernel releases
the GIL and uses every core. Each search gets the game's time budget
(:func:`unbeatable.api.default_time_limit`) and a stop switch that is set
when the client goes away, so no request runs unbounded or for nobody. What
the engine already knows (an opening book, a remembered answer) is answered
on the event loop first, so it never waits behind a search.
"""

from __future__ import annotations

import logging
import math
import secrets
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import anyio
import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from pydantic.json_schema import models_json_schema
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from unbeatable import __version__, api
from unbeatable.api import GameError, GameOverError, InvalidPositionError
from unbeatable.web.middleware import BodyLimit
from unbeatable.web.models import (
    Analysis,
    AnalyzeRequest,
    Error,
    GameInfo,
    Games,
    Health,
    MoveRequest,
    MoveResponse,
    PositionRequest,
    Review,
    ReviewRequest,
    Solution,
    SolveRequest,
    TracedTree,
    TreeRequest,
    View,
)

T = TypeVar("T")

STATIC_DIR = Path(__file__).parent / "static"
#: Swagger UI's own files, as the fastapi-offline package ships them.
SWAGGER_DIR = Path(fastapi_offline.__file__).parent / "static"
#: Largest request body accepted; a real request is well under 200 bytes.
MAX_BODY_BYTES = 4096
#: Seconds a whole review may take on the server (each position gets the
#: game's budget, and no more than an even share of what is left).
REVIEW_SECONDS = 30.0
#: Longest error message returned, so no input is ever echoed back at length.
MAX_ERROR_LENGTH = 500

#: The pages load nothing from elsewhere: a CDN cannot break them, offline or not.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
        "frame-ancestors 'none'; form-action 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

log = logging.getLogger("unbeatable.web")


class EngineUnavailable(Exception):
    """The engine is not installed on this server (503)."""


class Engines:
    """Runs engine work for requests, side by side, each within its budget.

    Each request is resolved once (:meth:`ask`: the library's
    :func:`unbeatable.api.ask`, with this server's budget), and the work
    receives that :class:`~unbeatable.api.Request`. Work for a game solved
    exactly in microseconds (tic-tac-toe: exact, no budget, whole tree in the
    engine's table after the start-up warm-up) runs on the event loop: it
    takes less than handing it to a thread costs. For every other game, a
    ``quick`` attempt (the request with its stop switch already set: only
    what the engine knows) is tried on the event loop first; then the work
    runs in the threadpool with a stop switch that a watcher sets if the
    client disconnects.

    ``time_limits`` overrides the game's own budget per game, in seconds
    (None: no limit); tests shrink Connect Four's so that fuzzing stays fast.
    """

    def __init__(self, time_limits: Mapping[str, float | None] | None = None) -> None:
        self._overrides = {
            game: math.inf if seconds is None else seconds
            for game, seconds in (time_limits or {}).items()
        }

    def budget(self, game: str) -> float | api.Default:
        """This server's time limit for ``game``: its override, else the
        game's own (:data:`unbeatable.api.GAME_DEFAULT`)."""
        return self._overrides.get(game, api.GAME_DEFAULT)

    def ask(self, game: str, position: str | None, **options: Any) -> api.Request:
        """The request, resolved once with this server's budget (a bad
        position raises :class:`InvalidPositionError`: a 400)."""
        return api.ask(game, position, time_limit=self.budget(game), **options)

    def seconds(self, game: str) -> float | None:
        """The budget ``/api/games`` shows (None: no limit, always exact)."""
        seconds = api.budget(api.get_game(game), self.budget(game))
        return None if math.isinf(seconds) else seconds

    @staticmethod
    def inline(request: api.Request) -> bool:
        """Whether the request's work runs on the event loop: a game the
        library solves exactly in microseconds once warm (tic-tac-toe), as
        its record says (:func:`unbeatable.api.policy`), asked with no budget."""
        return api.policy(request.game).exact and not request.timed

    async def call(
        self,
        raw: Request,
        request: api.Request,
        work: Callable[[api.Request], T | None],
        quick: bool = False,
    ) -> T:
        """``work(request)`` inline or in the threadpool (see the class docstring)."""
        name = request.game.name
        if self.inline(request):
            return cast(T, self._guarded(name, lambda: work(request)))
        if quick:
            known = self._guarded(name, lambda: work(request.stopped_by(api.STOPPED)))
            if known is not None:
                return known
        stop = threading.Event()

        async def watch() -> None:
            while (await raw.receive())["type"] != "http.disconnect":
                pass
            stop.set()  # nobody is waiting for the answer any more

        def attempt() -> tuple[T | None, BaseException | None]:
            try:
                return self._guarded(name, lambda: work(request.stopped_by(stop))), None
            except Exception as exc:  # raised below, outside the task group
                return None, exc

        async with anyio.create_task_group() as group:
            group.start_soon(watch)
            try:
                result, error = await run_in_threadpool(attempt)
            except BaseException:  # cancelled (the server is shutting down)
                stop.set()
                raise
            group.cancel_scope.cancel()
        if error is not None:
            raise error  # as itself, so its handler answers (not as an ExceptionGroup)
        return cast(T, result)

    @staticmethod
    def _guarded(game: str, work: Callable[[], T]) -> T:
        try:
            return work()
        except ImportError as exc:  # e.g. a compiled solver's dependency is missing
            log.exception("engine for %s failed to load", game)
            raise EngineUnavailable(f"the {game} engine is not available on this server") from exc


#: Seconds of the start-up warm-up after which the server says why its page
#: is not answering yet: loading compiled kernels takes a few seconds, a first
#: run after an install compiles them (a minute or more).
WARM_UP_NOTE = 10.0


def _warm_up() -> None:
    """Every offered game's engine start-up work (compiling, loading books)."""
    for name in api.offered(loadable=True):
        warm_up = getattr(api.engine(name), "warm_up", None)
        if warm_up is not None:
            warm_up()


#: Legal moves up to which an analysis is tried from what the engine knows on
#: the event loop: it asks the engine once per move, a lookup for a few moves
#: (Connect Four's book) but work for a big board's hundreds (Gomoku).
QUICK_MOVES = 49


def quick_analysis(game: Any, position: Any = None) -> bool:
    """Whether an analysis of ``position`` may be tried on the event loop
    first (from what the engine knows): only where the moves are few, since
    even a stopped analysis asks the engine about every move. ``game`` may
    be a request."""
    if isinstance(game, api.Request):
        game, position = game.game, game.position
    game, pos = api.resolve(game, position)
    return len(game.moves(pos)) <= QUICK_MOVES


Body = TypeVar("Body", bound=BaseModel)

#: Content types read as JSON bodies (as FastAPI's strict default has it).
_JSON_TYPES = ("application/json",)


async def _read(request: Request, model: type[Body]) -> Body:
    """The request body validated as ``model``, in one pass from bytes to model
    inside pydantic's core. FastAPI's generic body handling (content-type
    parsing, ``json.loads``, then validation) costs about a tenth of a move's
    whole server time; errors are raised as FastAPI's, so they read the same."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    body = await request.body()
    if not body:
        raise RequestValidationError([{"type": "missing", "loc": ("body",), "msg": "missing"}])
    if kind not in _JSON_TYPES and not kind.endswith("+json"):
        error = {"type": "model_attributes_type", "loc": ("body",), "msg": "not JSON"}
        raise RequestValidationError([error])
    try:
        return model.model_validate_json(body)
    except ValidationError as exc:
        details: list[dict[str, Any]] = []
        for detail in exc.errors(include_url=False):
            details.append({**detail, "loc": ("body", *detail["loc"])})
        raise RequestValidationError(details) from None


@dataclass(frozen=True)
class Endpoint(Generic[Body]):
    """One ``POST`` endpoint: what it reads, how its request is resolved,
    what it answers. The route (:func:`_route`) and the documentation's
    example answer (:func:`_answer`) both run exactly this."""

    path: str
    #: The body it reads (strict: see :mod:`unbeatable.web.models`) and the
    #: answer it documents.
    body: type[Body]
    answers: type[BaseModel]
    summary: str
    tags: tuple[str, ...]
    #: What it answers, for the documentation.
    doc: str
    #: The body resolved at the door (None: no game position, as a tree of
    #: leaf scores).
    ask: Callable[[Body, Engines], api.Request | None]
    #: The answer's JSON, given the request (with its stop switch); None only
    #: where the stop switch was already set and a search was needed.
    answer: Callable[[Body, api.Request | None], Any]
    #: Whether what the engine knows is tried on the event loop first.
    quick: Callable[[Body, api.Request], bool] = lambda _body, _request: False
    #: Status codes documented beside 200.
    responses: tuple[int, ...] = ()


def _view(body: PositionRequest, request: api.Request | None) -> Any:
    assert request is not None
    return api.view(request.game, request.position, body.move).to_dict()


def _analysis(_body: AnalyzeRequest, request: api.Request | None) -> Any:
    assert request is not None
    analysis = api.analyze(request)
    if request.known_only and analysis.exact is False:
        return None  # not known without a search: searched in the threadpool
    return api.in_words(request.game, request.position, analysis).to_dict()


def _move(_body: MoveRequest, request: api.Request | None) -> Any:
    """The AI's turn as JSON; with the stop switch already set, only if it
    needs no search (else None)."""
    assert request is not None
    turn = api.ai_turn(request)
    if turn is None:
        return None
    if turn.analysis is not None:
        words = api.in_words(request.game, request.position, turn.analysis, chosen=turn.move.move)
        turn = turn._replace(analysis=words)
    return turn.to_dict()


def _solution(body: SolveRequest, request: api.Request | None) -> Any:
    assert request is not None
    return api.solve(request, weak=body.weak).to_dict()


def _review(body: ReviewRequest, request: api.Request | None) -> Any:
    assert request is not None
    return api.review(
        request.game,
        body.moves,
        start=request.position,
        time_limit=request.time_limit,
        total=REVIEW_SECONDS,
        stop=request.stop,
    ).to_dict()


def _tree(body: TreeRequest, request: api.Request | None) -> Any:
    if request is None:  # leaf scores
        return api.textbook_tree(body.leaves or [], body.algorithm).to_dict()
    return api.tree(
        request.game,
        request.position,
        depth=body.depth,
        algorithm=body.algorithm,
        time_limit=request.time_limit,
        stop=request.stop,
        cutoff=body.cutoff,
    ).to_dict()


def _asked(body: Any, engines: Engines, **options: Any) -> api.Request:
    """A body's game and position resolved with this server's budget."""
    return engines.ask(body.game, body.position, **options)


ENDPOINTS: tuple[Endpoint[Any], ...] = (
    Endpoint(
        "/api/position",
        PositionRequest,
        View,
        "Show a position",
        ("games",),
        """A position (after `move`, if given) as a face shows it: the board, the
        side to move, every legal move with the cell it fills, and the status.""",
        _asked,
        _view,
    ),
    Endpoint(
        "/api/analyze",
        AnalyzeRequest,
        Analysis,
        "Value every move",
        ("games",),
        """The value of the position for the side to move and of every legal move:
        the object `unbeatable analyze --json` prints.""",
        _asked,
        _analysis,
        quick=lambda _body, request: quick_analysis(request),
    ),
    Endpoint(
        "/api/move",
        MoveRequest,
        MoveResponse,
        "The AI's move",
        ("games",),
        """The AI's move at the given level, the position after it and whether
        the game is then over.""",
        lambda body, engines: _asked(
            body, engines, level=body.level, seed=body.seed, explain=body.explain
        ),
        _move,
        quick=lambda body, request: not body.explain or quick_analysis(request),
        responses=(409,),
    ),
    Endpoint(
        "/api/solve",
        SolveRequest,
        Solution,
        "Value the position",
        ("games",),
        """The value of the position for the side to move; `weak` drops the distance.""",
        _asked,
        _solution,
    ),
    Endpoint(
        "/api/review",
        ReviewRequest,
        Review,
        "Review a game",
        ("games",),
        """Look back on a game, finished or not: each move with its mover's value
        before and after it, whether it was a mistake (the mover's result got
        worse) and the engine's move there, and the game in one line: the
        object `unbeatable review --json` prints. Values are proven where the
        engine can within the game's budget a position, else its judgement
        (`exact: false`); the whole review takes at most 30 seconds.""",
        _asked,
        _review,
    ),
    Endpoint(
        "/api/tree",
        TreeRequest,
        TracedTree,
        "Trace minimax or alpha-beta",
        ("learn",),
        """The tree below a position (to `depth` plies, at most 5,000 nodes;
        the positions at that depth valued exactly or, with `cutoff:
        "heuristic"`, by the game's evaluation function) or over leaf scores,
        as `algorithm` walks it: each node's value, visit order, alpha and
        beta, and whether it was pruned; the best line.""",
        lambda body, engines: None if body.game is None else _asked(body, engines),
        _tree,
    ),
)


def _body_docs(model: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI for an endpoint that reads ``model`` with :func:`_read`."""
    ref = {"$ref": f"#/components/schemas/{model.__name__}"}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": ref}}}}


def _route(endpoint: Endpoint[Any], engines: Engines) -> Callable[..., Any]:
    """The handler of ``endpoint``: the body read, the request resolved
    once, the answer worked out where :class:`Engines` says."""

    async def handle(raw: Request) -> Response:
        body = await _read(raw, endpoint.body)
        request = endpoint.ask(body, engines)
        if request is None:  # no engine work: the threadpool, off the event loop
            return _json(await run_in_threadpool(endpoint.answer, body, None))
        answer = await engines.call(
            raw,
            request,
            lambda asked: endpoint.answer(body, asked),
            quick=endpoint.quick(body, request),
        )
        return _json(answer)

    handle.__doc__ = endpoint.doc
    handle.__name__ = endpoint.path.rsplit("/", 1)[-1]
    return handle


def _request_example(model: type[BaseModel]) -> dict[str, Any]:
    extra = model.model_config.get("json_schema_extra")
    assert isinstance(extra, dict)
    examples = extra["examples"]
    assert isinstance(examples, list)
    first = examples[0]
    assert isinstance(first, dict)
    return dict(first)


def _answer(path: str, engines: Engines) -> Any:
    """What the endpoint at ``path`` answers its documented request: the
    same code as the endpoint's own, so the docs show real answers."""
    if path == "/api/health":
        return {"status": "ok"}
    if path == "/api/games":
        return {"games": [api.game_info(name).to_dict() for name in api.offered()[:2]]}
    if path == "/api/games/{name}":
        return api.game_info("connect4")._replace(time_limit=engines.seconds("connect4")).to_dict()
    endpoint = next(e for e in ENDPOINTS if e.path == path)
    body = endpoint.body.model_validate(_request_example(endpoint.body))
    return endpoint.answer(body, endpoint.ask(body, engines))


def _with_examples(schema: dict[str, Any], engines: Engines) -> None:
    """Each endpoint's success answer in the document, as the library gives
    it to the documented request (not the placeholders a schema alone
    makes: ``"position": "string"``), and that request as the body's example."""
    bodies = {endpoint.path: endpoint.body for endpoint in ENDPOINTS}
    for path, methods in schema["paths"].items():
        for operation in methods.values():
            model = bodies.get(path)
            if model is not None:
                content = operation["requestBody"]["content"]["application/json"]
                content["example"] = _request_example(model)
            try:
                example = _answer(path, engines)
            except Exception:  # an engine not installed here: the schema alone then
                log.warning("no example answer for %s", path, exc_info=True)
                continue
            ok = operation["responses"]["200"].setdefault("content", {})
            ok.setdefault("application/json", {})["example"] = example


class _App(FastAPI):
    """FastAPI plus the schemas of the bodies that :func:`_read` validates
    (FastAPI only documents the models it parses itself) and each endpoint's
    answer to its documented request (:func:`_with_examples`)."""

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            schema = super().openapi()
            _, defs = models_json_schema(
                [(endpoint.body, "validation") for endpoint in ENDPOINTS],
                ref_template="#/components/schemas/{model}",
            )
            schema.setdefault("components", {}).setdefault("schemas", {}).update(defs["$defs"])
            _with_examples(schema, self.state.engines)
            self.openapi_schema = schema
        return self.openapi_schema


def _json(data: Any, status_code: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    return JSONResponse(data, status_code=status_code, headers=headers)


def _error(message: str, status_code: int, headers: Mapping[str, str] | None = None) -> Response:
    if len(message) > MAX_ERROR_LENGTH:
        message = message[: MAX_ERROR_LENGTH - 3] + "..."
    return _json({"error": message}, status_code, headers)


def _describe(error: Mapping[str, Any]) -> str:
    """One validation error as "field: what is wrong"."""
    loc: Sequence[Any] = error.get("loc", ())
    if loc and loc[0] == "body":
        loc = loc[1:]
    where = ".".join(str(part)[:40] for part in loc) or "body"
    kind = error.get("type", "")
    ctx = error.get("ctx") or {}
    if kind == "json_invalid":
        return f"body: invalid JSON ({ctx.get('error', 'decode error')})"
    if where == "body" and kind == "missing":
        return "body: missing; send a JSON object"
    if where == "body" and kind in {"model_attributes_type", "dict_type", "model_type"}:
        return "body: expected a JSON object (sent as Content-Type: application/json)"
    if kind == "missing":
        return f"{where}: required field missing"
    if kind == "extra_forbidden":
        return f"{where}: unknown field"
    if kind == "value_error" and "error" in ctx:
        return f"{where}: {ctx['error']}"
    return f"{where}: {error.get('msg', 'invalid value')}"


def _install_error_handlers(app: FastAPI) -> None:
    async def validation(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        errors = exc.errors()
        # Unparseable JSON is a syntax error (400), like an undecodable body.
        status = 400 if any(e.get("type") == "json_invalid" for e in errors) else 422
        messages = list(dict.fromkeys(_describe(e) for e in errors))
        return _error("; ".join(messages) or "invalid request", status)

    async def game_error(_: Request, exc: Exception) -> Response:
        prefix = "invalid position: " if isinstance(exc, InvalidPositionError) else ""
        return _error(f"{prefix}{exc}", 400)

    async def game_over(_: Request, exc: Exception) -> Response:
        return _error(str(exc), 409)

    async def unavailable(_: Request, exc: Exception) -> Response:
        return _error(str(exc), 503, {"Retry-After": "1"})

    async def http_error(_: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        detail = str(exc.detail)
        if exc.status_code == 400:  # FastAPI's only 400: a body it cannot decode
            detail = "body: invalid JSON (not UTF-8 text)"
        return _error(detail, exc.status_code, exc.headers)

    async def crash(_: Request, exc: Exception) -> Response:
        log.error("unhandled error", exc_info=exc)
        return _error("internal server error", 500)

    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(GameError, game_error)
    app.add_exception_handler(GameOverError, game_over)
    app.add_exception_handler(EngineUnavailable, unavailable)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, crash)


def _documented(description: str, example: str) -> dict[str, Any]:
    """An error answer for the docs, with an example of its own: every status
    showing the same sentence would say nothing about any of them."""
    return {
        "model": Error,
        "description": description,
        "content": {"application/json": {"example": {"error": example}}},
    }


_ERRORS: dict[int | str, dict[str, Any]] = {
    400: _documented(
        "Body not JSON, or position malformed or impossible.",
        "invalid position: wrong shape: expected 3 rows separated by '/', got 1",
    ),
    413: _documented(
        "Request body over 4 KiB.",
        f"request body too large: the limit is {MAX_BODY_BYTES} bytes",
    ),
    422: _documented("Body does not match the schema.", "position: required field missing"),
    503: _documented(
        "The game's engine is not installed here.",
        "the connect4 engine is not available on this server",
    ),
}
_GAME_OVER = _documented("The game is over.", "the game is over: x has won")
#: The answers only some endpoints give (:attr:`Endpoint.responses`).
_STATUS: dict[int, dict[str, Any]] = {409: _GAME_OVER}

DESCRIPTION = """\
Perfect play and its explanation for two-player board games.

Every request carries the whole position, so the server keeps no state. The
games describe themselves (`GET /api/games`); `POST /api/position` shows a
position with its legal moves and the cell each fills. Errors are
`{"error": "<message>"}`: 400 when the body is not JSON or the position is
malformed or impossible, 409 for a move request on a finished game, 413 for a
body over 4 KiB, 422 when the JSON does not match the schema (including
unknown games and levels), 503 when a game's engine is not installed.
"""


def create_app(
    *,
    time_limits: Mapping[str, float | None] | None = None,
    max_body_bytes: int = MAX_BODY_BYTES,
) -> FastAPI:
    """The web application: the JSON API under ``/api``, the game page at ``/``,
    offline API docs at ``/docs`` (``uvicorn --factory unbeatable.web:create_app``)."""
    engines = Engines(time_limits)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> Any:
        # Fill the tic-tac-toe tables and load (or compile) the Connect Four
        # kernel and book now, so that no player's first move pays for them.
        api.analyze("tictactoe", None)
        note = threading.Timer(
            WARM_UP_NOTE,
            log.info,
            (
                "getting the engines ready: the page answers once they are (their kernels "
                "compile once after an install or an update, a minute or two; "
                "'unbeatable warm' does it ahead)",
            ),
        )
        note.daemon = True
        note.start()
        try:
            await run_in_threadpool(_warm_up)
        finally:
            note.cancel()
        yield

    app = _App(
        title="unbeatable",
        version=__version__,
        description=DESCRIPTION,
        docs_url=None,  # FastAPI's own docs page loads Swagger UI from a CDN: see /docs below
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.engines = engines
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    _install_error_handlers(app)

    @app.get("/api/health", response_model=Health, tags=["server"], summary="Health check")
    async def health() -> Response:
        """Whether the server is up (no engine work)."""
        return _json({"status": "ok"})

    @app.get("/api/games", response_model=Games, tags=["server"], summary="List the games")
    async def games() -> Response:
        """The games this server offers, as each describes itself (title,
        players' names and colours, board, keys) with its start position and
        how the engines serve it: exactly, or within this server's budget."""
        listed = [api.game_info(name) for name in api.offered(loadable=True)]
        return _json(
            {
                "games": [
                    info._replace(time_limit=engines.seconds(info.description.name)).to_dict()
                    for info in listed
                ]
            }
        )

    @app.get(
        "/api/games/{name}",
        response_model=GameInfo,
        responses={
            404: _documented(
                "No game of that name.",
                "unknown game 'chess' (known: tictactoe, connect4, ...)",
            )
        },
        tags=["server"],
        summary="Describe one game",
    )
    async def game(name: str) -> Response:
        """Any game the server can play, listed or not (every board of a family:
        `connect4:5,5`, `mnk:6,6,4`), described as `/api/games` describes each:
        what a link to a game the list does not offer opens."""
        try:
            info = api.game_info(name)
        except GameError as exc:
            return _json({"error": str(exc)}, status_code=404)
        return _json(info._replace(time_limit=engines.seconds(info.description.name)).to_dict())

    for endpoint in ENDPOINTS:
        documented: dict[int | str, dict[str, Any]] = dict(_ERRORS)
        documented.update({code: _STATUS[code] for code in endpoint.responses})
        app.post(
            endpoint.path,
            response_model=endpoint.answers,
            responses=documented,
            tags=list(endpoint.tags),
            summary=endpoint.summary,
            openapi_extra=_body_docs(endpoint.body),
        )(_route(endpoint, engines))

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return FileResponse(STATIC_DIR / "index.html", headers=PAGE_HEADERS)

    @app.get("/docs", include_in_schema=False)
    async def docs() -> Response:
        """The documentation page, written from the OpenAPI document
        (:mod:`unbeatable.web.docs`): plain HTML that axe-core finds nothing
        wrong with, each endpoint's real request and answer, a form to try it."""
        from unbeatable.web.docs import page as docs_page

        spec = await run_in_threadpool(app.openapi)  # the first time, examples are computed
        return Response(docs_page(spec), media_type="text/html", headers=PAGE_HEADERS)

    @app.get("/docs/swagger", include_in_schema=False)
    async def swagger() -> Response:
        """Swagger UI, from the assets a maintained package ships (fastapi-offline),
        served by this server: no CDN, and the page's one inline script runs
        under a nonce of its own."""
        page = get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: HTTP API",
            swagger_js_url="/static/swagger/swagger-ui-bundle.js",
            swagger_css_url="/static/swagger/swagger-ui.css",
            swagger_favicon_url="/static/swagger/favicon.png",
            swagger_ui_parameters={"tryItOutEnabled": True, "defaultModelsExpandDepth": 0},
        )
        nonce = secrets.token_urlsafe(16)
        body = bytes(page.body).decode().replace("<script>", f'<script nonce="{nonce}">')
        headers = {
            **PAGE_HEADERS,
            "Content-Security-Policy": (
                f"default-src 'self'; script-src 'self' 'nonce-{nonce}'; "
                "style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; "
                "frame-ancestors 'none'; form-action 'none'"
            ),
        }
        return Response(body, media_type="text/html", headers=headers)

    app.mount("/static/swagger", StaticFiles(directory=SWAGGER_DIR), name="swagger")
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    return app
