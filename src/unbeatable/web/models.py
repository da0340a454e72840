"""Request and response bodies of the HTTP API.

Requests are strict (no unknown fields, no type coercion, bounded strings), so
bad input is turned away with a precise 422 before any engine work starts.
Response models document the JSON in the OpenAPI schema only: the endpoints
send the ``to_dict()`` of the library's typed answers (so an analysis is the
object ``unbeatable analyze --json`` prints, with what
:func:`unbeatable.api.in_words` adds). Each model is made from its answer's
own statement of its JSON (:func:`response_model`, from
:mod:`unbeatable.answers`), the statement ``to_dict()`` follows too: there is
no second copy to keep in step.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from types import UnionType
from typing import Annotated, Any, ForwardRef, Literal, Union, cast, get_args, get_origin

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    create_model,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from unbeatable import api
from unbeatable.answers import NEVER, Json, Spec, answers, spec
from unbeatable.api import (
    Cutoff,
    Level,
    TreeAlgorithm,
    UnknownGameError,
    get_game,
    naming,
    normalise,
    offered,
    plugins,
)

#: Longest position accepted. Tic-tac-toe needs 13 characters, a Connect Four
#: grid 51, a full Connect Four move sequence 42, Gomoku 241, the largest m,n,k
#: board (20x20) 421; the slack allows spacing.
MAX_POSITION_LENGTH = 512
#: Longest game name accepted (the registry's names are far shorter).
MAX_GAME_LENGTH = 32
#: Seeds go up to the largest integer a JSON number (a double) holds exactly.
MAX_SEED = 2**53 - 1


def _known_game(name: str) -> str:
    """Reject unknown games with the library's own message (it lists the known
    ones); the name is the registry's spelling (``mnk:3,3,3`` is ``tictactoe``)."""
    try:
        if normalise(name) != name:  # the API is strict: lower case, no spaces
            raise UnknownGameError(f"unknown game {name[:40]!r} (known games: {naming()})")
        return get_game(name).name
    except UnknownGameError as exc:
        raise ValueError(str(exc)) from None


def game_schema() -> dict[str, Any]:
    """The JSON schema of a game name: the offered games, plug-ins included,
    or any member of a family. Computed when an application first writes its
    OpenAPI document, so that an installed plug-in is listed with no change here."""
    families = [plugin.name for plugin in plugins().families.values()]
    extra = "".join(f", or any {form}" for form in plugin_forms())
    return {
        "type": "string",
        "description": (
            f"The game: {', '.join(offered())}, or any mnk:ROWS,COLS,K (sides 1-20) or "
            "connect4:COLUMNS,ROWS (at least 4 each, columns x (rows + 1) at most 64)"
            f"{extra}."
        ),
        "anyOf": [
            {"enum": list(offered())},
            {"pattern": "^mnk:[0-9]{1,2},[0-9]{1,2},[0-9]{1,2}$"},
            {"pattern": "^connect4:[0-9]{1,2},[0-9]{1,2}$"},
            *({"pattern": f"^{re.escape(family)}:\\S+$"} for family in families),
        ],
    }


def plugin_forms() -> list[str]:
    """How to write the members of the plug-ins' families (``hexapawn:COLUMNS,ROWS``)."""
    return [plugin.form for plugin in plugins().families.values() if plugin.form]


class _GameSchema:
    """Pydantic asks this for the game name's schema each time a schema is
    written (not once at import, as a literal would be)."""

    def __get_pydantic_json_schema__(
        self, core_schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return game_schema()


GameName = Annotated[
    str,
    Field(min_length=1, max_length=MAX_GAME_LENGTH),
    AfterValidator(_known_game),
    _GameSchema(),
]

Position = Annotated[
    str,
    Field(
        max_length=MAX_POSITION_LENGTH,
        description=(
            "The position in the game's notation; '' is the initial position of every "
            "game. Tic-tac-toe and the m,n,k games: rows top to bottom separated by '/', "
            "cells x, o or . (also _ -), optionally a space and the side to move, e.g. "
            "'xox/oox/...'. Connect Four: the move sequence of 1-based columns (letters "
            "a, b, c, ... on boards of more than 9 columns), e.g. '4453', or a grid of "
            "its rows (6 on the standard board)."
        ),
        examples=["xox/oox/...", "x../.o./..."],
    ),
]


class _Request(BaseModel):
    """Strict base: a typo'd field name or a string where a number belongs is an
    error, not silently ignored or coerced."""

    model_config = ConfigDict(extra="forbid", strict=True)


class AnalyzeRequest(_Request):
    """Ask for the value of a position and of each of its legal moves."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"game": "tictactoe", "position": "xox/oox/..."}]}
    )

    game: GameName
    position: Position


class MoveRequest(_Request):
    """Ask the AI for its move in a position."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"game": "tictactoe", "position": "x../.o./...", "level": "easy", "seed": 7}
            ]
        }
    )

    game: GameName
    position: Position
    level: Level = Field(
        default=Level.impossible,
        strict=False,  # JSON has no enums: accept the level's name
        description="How well the AI plays: 'impossible' never loses.",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEED,
        description="Makes the AI's random choices reproducible: which of several moves of "
        "equal value it plays (at every level), and the easy and medium levels' mistakes.",
    )
    explain: bool = Field(
        default=False,
        description="Also return the analysis the move was chosen from (every move's "
        "value), at no extra wait: the move is picked from that very analysis.",
    )


class PositionRequest(_Request):
    """Ask how to show a position, optionally after one more move."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"game": "connect4", "position": "44", "move": "3"}]}
    )

    game: GameName
    position: Position
    move: str | None = Field(
        default=None,
        max_length=8,
        description="A move to play first, in the game's notation (e.g. 'b2', '4').",
    )


class TreeRequest(_Request):
    """Ask for a game tree as minimax or alpha-beta walks it: below a game
    position (``game``, ``position``, ``depth``; ``cutoff`` says how the
    positions at the depth limit are valued), or over leaf scores (``leaves``:
    a power of two of numbers, or nested lists), MAX at the root."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"game": "tictactoe", "position": "xox/oox/...", "depth": 3},
                {"game": "tictactoe", "position": "x.o/.x./...", "cutoff": "heuristic"},
                {"leaves": [3, 5, 2, 9, 12, 5, 23, 23], "algorithm": "alphabeta"},
            ]
        }
    )

    game: GameName | None = None
    position: Position = ""
    depth: int = Field(default=2, ge=0, le=12, description="Plies below the position.")
    leaves: list[float | list[Any]] | None = Field(
        default=None, max_length=4096, description="Leaf scores, left to right, or nested lists."
    )
    algorithm: TreeAlgorithm = Field(
        default=TreeAlgorithm.minimax,
        strict=False,  # JSON has no enums: accept the walk's name
        description="Which walk to trace.",
    )
    cutoff: Cutoff = Field(
        default=Cutoff.exact,
        strict=False,
        description="Value the positions at the depth limit exactly (by the engine), or "
        "'heuristic': by the game's evaluation function, as depth-limited search does.",
    )

    @model_validator(mode="after")
    def _one_tree(self) -> TreeRequest:
        if (self.game is None) == (self.leaves is None):
            raise ValueError("give either a game (and a position) or leaves, not both")
        if self.leaves is not None and self.cutoff != "exact":
            raise ValueError("cutoff is for a game position: leaf scores are given")
        return self


class SolveRequest(_Request):
    """Ask for the value of a position only."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"game": "connect4", "position": "4453", "weak": False}]}
    )

    game: GameName
    position: Position
    weak: bool = Field(
        default=False,
        description="Only win/draw/loss, without the distance (faster).",
    )


#: Most moves a review takes: a full 20x20 board, and the longest games of
#: the other boards with room to spare.
MAX_REVIEW_MOVES = 450


class ReviewRequest(_Request):
    """Ask for a game's review: each move's value before and after it."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"game": "tictactoe", "moves": ["b2", "c2", "a1"]}]}
    )

    game: GameName
    moves: list[Annotated[str, Field(max_length=8)]] = Field(
        max_length=MAX_REVIEW_MOVES,
        description="The moves played from the start, in the game's notation.",
    )
    position: Position = Field(
        default="", description="Where the game started ('': the game's initial position)."
    )


# -- responses: made from the library's answers ------------------------------------


#: Every response model made so far, by its name in the document.
_MODELS: dict[str, type[BaseModel]] = {}


def response_model(kind: type[Any]) -> type[BaseModel]:
    """The response model of a library answer (a type decorated with
    :func:`unbeatable.answers.answer`), made from the answer's own statement
    of its JSON: the fields its ``to_dict()`` writes, in its order, their
    JSON types (a tuple is a list, an answer its model), what they mean, and
    which the JSON may leave out. The document describes what is sent because
    both come from that one statement."""
    stated = spec(kind)
    if stated is None:
        raise TypeError(f"{kind.__name__} is no answer of the library")
    made = _MODELS.get(stated.name)
    if made is not None:
        return made
    _MODELS[stated.name] = cast(type[BaseModel], ForwardRef(stated.name))  # a tree's children
    fields = dict(_fields(kind, stated))
    model: type[BaseModel] = create_model(stated.name, __doc__=stated.doc, **fields)
    _MODELS[stated.name] = model
    model.model_rebuild(_types_namespace=dict(_MODELS))
    return model


def _fields(kind: type[Any], stated: Spec) -> Iterator[tuple[str, Any]]:
    """(name, (JSON type, pydantic field)) of each field ``kind`` writes."""
    for key, how in stated.fields:
        if how.flat is True:  # another answer's fields, in place
            inner = _annotation(kind, key, how)
            inner_spec = spec(inner)
            assert inner_spec is not None, f"{kind.__name__}.{key}: only an answer is flat"
            yield from _fields(inner, inner_spec)
        elif how.flat:  # a mapping's documented keys, in place
            for name, item in how.flat:
                yield name, _field(_json_type(item.shape), item)
        else:
            yield key, _field(_json_type(_annotation(kind, key, how)), how)


def _field(annotation: Any, how: Json) -> tuple[Any, Any]:
    extra: dict[str, Any] = {}
    if how.doc is not None:
        extra["description"] = how.doc
    if how.examples:
        extra["examples"] = list(how.examples)
    if how.omit is not NEVER:  # left out when it holds this
        extra["default"] = how.omit
    elif how.when is not None:  # left out when the answer says so
        extra["default"] = None
    return annotation, Field(**extra)


def _annotation(kind: type[Any], key: str, how: Json) -> Any:
    """The Python type of a field: its ``shape`` where it says one, else the
    class's annotation (text, as ``from __future__ import annotations``
    leaves it), read in the class's module with every answer by its name."""
    shape = how.shape if how.shape is not None else kind.__annotations__[key]
    if isinstance(shape, ForwardRef):  # how a NamedTuple keeps an annotation's text
        shape = shape.__forward_arg__
    if not isinstance(shape, str):
        return shape
    names = {**vars(sys.modules[kind.__module__]), **_answer_names()}
    return eval(shape, names)  # the library's own annotations


def _answer_names() -> dict[str, type[Any]]:
    named = answers()
    return {**{kind.__name__: kind for kind in named.values()}, **named}


def _json_type(kind: Any) -> Any:
    """A Python type as JSON has it: sequences are lists, an answer its
    response model, a mapping an object; unions, literals, enums and
    scalars stay."""
    origin, args = get_origin(kind), get_args(kind)
    if origin in (Union, UnionType):
        return Union[tuple(_json_type(arg) for arg in args)]  # noqa: UP007 (made at run time)
    if origin in (tuple, list):
        items = {_json_type(arg) for arg in args if arg is not Ellipsis}
        assert len(items) == 1, f"{kind}: a JSON list holds one kind of item"
        return list[items.pop()]  # type: ignore[misc]
    if origin is dict or kind is dict:
        return dict[str, Any]
    if isinstance(kind, type) and spec(kind) is not None:
        return response_model(kind)
    return kind


#: The words' answers (Note, Explanation) are stated when their module is
#: loaded: a move's value names them.
_WORDS = api.Explanation

Analysis = response_model(api.Analysis)
MoveResponse = response_model(api.Turn)
View = response_model(api.View)
Solution = response_model(api.Solution)
Review = response_model(api.Review)
TracedTree = response_model(api.TracedTree)
GameInfo = response_model(api.GameInfo)
# The parts, by the names the document gives them.
MoveRef = _MODELS["MoveRef"]
MoveValue = response_model(api.MoveValue)
Explanation = response_model(api.Explanation)
Group = response_model(api.Group)
Mark = response_model(api.Mark)
Forbidden = response_model(api.Forbidden)
Note = response_model(api.Note)
Status = response_model(api.Status)
Cell = response_model(api.Cell)
ReviewValue = response_model(api.ReviewValue)
ReviewedMove = response_model(api.ReviewedMove)
TreeNode = response_model(api.TreeNode)
TraceStep = response_model(api.TraceStep)
SideInfo = _MODELS["SideInfo"]
KeyInfo = _MODELS["KeyInfo"]
LessonInfo = _MODELS["LessonInfo"]
LessonExample = _MODELS["LessonExample"]


class Games(BaseModel):
    """Every game the server plays."""

    games: list[GameInfo]  # type: ignore[valid-type]


class Health(BaseModel):
    """The server is up."""

    status: Literal["ok"]


class Error(BaseModel):
    """Every 4xx and 5xx answer: one readable sentence."""

    error: str = Field(
        examples=["invalid position: wrong shape: expected 3 rows separated by '/', got 1"]
    )
