"""Request and response bodies of the HTTP API.

Requests are strict (no unknown fields, no type coercion, bounded strings), so
bad input is turned away with a precise 422 before any engine work starts.
Response models exist to document the JSON in the OpenAPI schema only: the
endpoints send the ``to_dict()`` of the library's typed answers (so an
analysis is the object ``unbeatable analyze --json`` prints), with nothing
added but a threat's name and, for k in a row, the game's words on analysed
moves (``notes``, ``explanation``), and each game's start position and
budget. A test compares these models with those types field by field, so
the two cannot drift apart.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema

from unbeatable.api import (
    Cutoff,
    Level,
    Result,
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
    algorithm: TreeAlgorithm = Field(default="minimax", description="Which walk to trace.")
    cutoff: Cutoff = Field(
        default="exact",
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


# -- responses (documentation of the library's JSON) ----------------------------

#: How JSON writes an infinite alpha or beta.
Infinity = Literal["inf", "-inf"]


class MoveRef(BaseModel):
    """Where a move is: its notation plus board coordinates, 0-based from the
    top-left (Connect Four moves have a column only)."""

    move: str = Field(examples=["c1", "4"])
    row: int | None = Field(default=None, description="Absent for Connect Four.")
    col: int


class Note(BaseModel):
    """One thing a move does in the game's terms (k in a row, k >= 4)."""

    does: Literal["wins", "makes", "blocks", "stops", "takes"] = Field(
        description="wins (a five), makes (a threat), blocks (the other side's four), stops "
        "(its open three), takes (the point of its double four or four-three)."
    )
    kind: str = Field(
        description="What it makes or stops, named as in Gomoku: five, open four, double four, "
        "four-three, four, double three, open three.",
        examples=["four"],
    )
    side: str = Field(description="Whose shape it is: the mover's, or the other side's.")
    stones: list[str] = Field(description="The shape's stones (the move's own included).")
    words: str = Field(examples=["blocks x's four (g8\N{EN DASH}j11)"])


class MoveValue(MoveRef):
    """One legal move and its value for the player making it; `plies` counts
    half-moves to the end of the game, this move included."""

    result: Result
    plies: int | None
    score: int | None
    line: list[str] = Field(
        description="Best play from this move on, this move first: to the end of the game "
        "when the value is proven, else as far as the search proved it."
    )
    threat: str | None = Field(
        default=None,
        description="Only where the game's rules name how a proven line wins by threats "
        "alone (the m,n,k games with k >= 4): 'continuous fours' when every move of the "
        "winner before the last makes a four ('threes' where four in a row wins); absent "
        "otherwise. Added by the web to the library's analysis, as notes are.",
    )
    notes: list[Note] | None = Field(
        default=None,
        description="Only where the rules name threats (the m,n,k games with k >= 4, "
        "Gomoku): what the move does in the game's words, the strongest first; "
        "absent otherwise.",
    )


class Group(BaseModel):
    """Moves of equal value whose best play goes the same way, in one line."""

    moves: list[str] = Field(description="The moves, the one to read first first.")
    result: Result
    plies: int | None
    words: str = Field(
        examples=[
            "f8, g7, f9, k8 and 193 others (loss in 2): x answers k12 and wins: "
            "five in a row (g8\N{EN DASH}k12)."
        ]
    )


class Mark(BaseModel):
    """A threat on the board: a four, an open four or an open three."""

    side: str
    kind: Literal["four", "open four", "open three"] = Field(description="Named as in Gomoku.")
    shape: str = Field(description="In this game's words ('three' where four in a row wins).")
    stones: list[str] = Field(description="The side's stones that make it.")
    points: list[str] = Field(
        description="Where it becomes a five (a four) or an open four (an open three)."
    )
    words: str = Field(examples=["x's four (g8\N{EN DASH}j11)"])


class Forbidden(BaseModel):
    """A point black may not play in renju, and why."""

    move: str
    row: int
    col: int
    reason: str = Field(examples=["double three"])
    words: str = Field(examples=["forbidden for black: double three"])


class Explanation(BaseModel):
    """The analysis in the game's words (k in a row, k >= 4: Gomoku)."""

    summary: str | None = Field(
        description="The position in one sentence: the only move, every move losing, "
        "equally good moves; null when nothing is proven to say.",
        examples=["k12 is the only move: every other loses to x's four (g8\N{EN DASH}j11)."],
    )
    groups: list[Group] = Field(description="Every move, in lines of equal value, best first.")
    more: str | None = Field(
        description="The moves past the lines said, counted by value (null: none)."
    )
    threats: list[Mark] = Field(description="Fours and open threes of both sides.")
    forbidden: list[Forbidden] = Field(
        description="Black's forbidden points (renju; empty otherwise), whoever is to move."
    )


class Analysis(BaseModel):
    """The value of a position for the side to move and of each of its moves."""

    game: str
    position: str = Field(description="Canonical notation of the position.")
    to_move: str
    result: Result
    plies: int | None
    score: int | None
    best: MoveRef | None = Field(description="None when the game is over.")
    line: list[str] = Field(description="The best move's line of best play.")
    moves: list[MoveValue]
    nodes: int
    time_ms: float
    exact: bool | None = Field(
        default=None,
        description="Only for games analysed under a time budget (Connect Four, the "
        "bigger m,n,k games, Gomoku): false when some move could not be proven in time "
        "(those moves are 'unknown').",
    )
    explanation: Explanation | None = Field(
        default=None,
        description="Only where the rules name threats (the m,n,k games with k >= 4, "
        "Gomoku): the analysis in the game's words. Added by the web, as notes are.",
    )


class Status(BaseModel):
    """Whether the game is over, who won, and the winning line's cells."""

    over: bool
    winner: str | None
    line: list[list[int]] | None = Field(
        description="[row, col] pairs, 0-based from the top-left, or null."
    )
    reason: str | None = Field(
        default=None,
        description="How the game was won, in words that read after the winner's name "
        "('three in a row', 'every black pawn taken'), or why a finished game is drawn "
        "where the game says ('40 plies without a mill'); else null.",
    )


class Cell(BaseModel):
    """A legal move and the cell it fills (0-based from the top-left)."""

    move: str
    row: int
    col: int
    origin: list[int] | None = Field(
        default=None,
        description="The [row, col] the move's piece leaves, in games whose pieces move "
        "(absent where a move puts a new stone down).",
    )


class View(BaseModel):
    """A position as a face shows it; the face applies no rules of its own."""

    game: str
    position: str = Field(description="Canonical notation of the position.")
    to_move: str
    board: list[str] = Field(description="The rows from the top, one character per cell.")
    moves: list[Cell] = Field(description="Every legal move, in board order.")
    status: Status


class MoveResponse(BaseModel):
    """The AI's move, the position after it, and whether that ended the game."""

    move: MoveRef
    position: str = Field(description="Canonical notation of the position after the move.")
    status: Status
    view: View = Field(description="The position after the move, as a face shows it.")
    proven: bool | None = Field(
        description="At the impossible level: whether the move is proven to keep the "
        "position's value (false when the time budget ran out and it is a heuristic "
        "pick); null at the other levels, whose mistakes are on purpose."
    )
    analysis: Analysis | None = Field(
        default=None,
        description="Only with explain: the analysis of the position before the move.",
    )


class Solution(BaseModel):
    """The value of one position for the side to move."""

    game: str
    position: str
    to_move: str
    result: Result
    plies: int | None
    score: int | None
    nodes: int
    time_ms: float
    exact: bool


class ReviewValue(BaseModel):
    """A position's value for the player who moves from it or into it."""

    result: Result
    plies: int | None = Field(description="Plies to the end of the game (null: unknown).")
    exact: bool = Field(description="Proven (false: the engine's judgement within its time).")


class ReviewedMove(BaseModel):
    """One move of a reviewed game, for the player who made it."""

    ply: int = Field(description="1 for the game's first move.")
    move: str
    player: str
    before: ReviewValue = Field(description="The mover's value before the move.")
    after: ReviewValue = Field(description="The mover's value after it (the move counted).")
    mistake: bool = Field(description="The move made the mover's result worse.")
    best: str | None = Field(
        description="The engine's move in that position (null: none found in time)."
    )
    words: str = Field(
        description="The move in words, as the terminal and the page say it.",
        examples=["c2: a draw became a loss in 6; a3 kept the draw"],
    )


class Review(BaseModel):
    """A game looked back on: each move and the game in one line."""

    game: str
    moves: list[ReviewedMove]
    summary: str


class SideInfo(BaseModel):
    """One player as the faces show it."""

    mark: str
    name: str
    colour: str = Field(description="CSS colour of its marks or discs.")


class KeyInfo(BaseModel):
    """A keyboard shortcut: the key and the move it plays."""

    key: str
    move: str


class LessonExample(BaseModel):
    """A position where a shallow search misjudges (Learn's depth lesson)."""

    name: str
    position: str


class LessonInfo(BaseModel):
    """What depth-limited search estimates with in a game, and where to see
    its horizon."""

    rule: str = Field(description="The static evaluation, in words.")
    examples: list[LessonExample] = Field(
        description="Positions that show the horizon effect; Learn's depth lesson offers "
        "the games that give some."
    )


class GameInfo(BaseModel):
    """One game the server plays: its description, its start position and
    the engines' policy for it (``api.GameInfo``)."""

    name: str
    title: str
    players: list[str]
    sides: list[SideInfo]
    rows: int
    columns: int
    gravity: bool = Field(description="Moves name a column; the stone drops to its lowest cell.")
    column_labels: list[str] = Field(description="Left to right, in the move notation.")
    row_labels: list[str] = Field(description="Top to bottom; empty when moves name columns.")
    goal: str
    keys: list[KeyInfo]
    moves_from: bool = Field(
        default=False,
        description="Moves take a piece from one cell to another (each move's view says "
        "its origin); present, true, only in such games.",
    )
    notation: str = Field(
        default="", description="How a position is written, ending with an example."
    )
    exact: bool = Field(description="Every answer is exact, with no time budget.")
    initial: str = Field(description="Notation of the starting position.")
    lesson: LessonInfo | None = Field(
        default=None,
        description="The game's static evaluation for depth-limited search (null: none).",
    )
    time_limit: float | None = Field(
        description="Seconds of engine time each request may use (null: always exact)."
    )


class Games(BaseModel):
    """Every game the server plays."""

    games: list[GameInfo]


class Health(BaseModel):
    """The server is up."""

    status: Literal["ok"]


class Error(BaseModel):
    """Every 4xx and 5xx answer: one readable sentence."""

    error: str = Field(
        examples=["invalid position: wrong shape: expected 3 rows separated by '/', got 1"]
    )


class TreeNode(BaseModel):
    """One node of a traced tree."""

    move: str | None = Field(description="The move into this node (null at the root).")
    position: str
    to_move: str
    score: float = Field(
        description="Minimax value for the root player (MAX); with heuristic leaves, an "
        "estimate, or beyond estimate_bound a game finished in the tree."
    )
    result: Result | None = Field(
        default=None,
        description="For the player who made the move (absent on a tree of leaf scores).",
    )
    plies: int | None = Field(default=None, description="Plies to the end, the move included.")
    value: float | None = Field(description="What the algorithm returned here.")
    bound: Literal["lower", "upper"] | None = Field(description="When that value is a bound.")
    best: bool = Field(description="On the line of best play.")
    order: int | None = Field(description="When the algorithm entered it (null: pruned).")
    known_at: int | None = Field(description="Entries made when its value was known.")
    alpha: float | Infinity | None = Field(description="Alpha when alpha-beta entered it.")
    beta: float | Infinity | None = Field(description="Beta when alpha-beta entered it.")
    pruned: bool
    children: list[TreeNode]


class TraceStep(BaseModel):
    """One line of the walk's pseudocode as it ran."""

    line: int = Field(description="The line run, 1 for the first of pseudocode.")
    does: Literal[
        "enter", "terminal", "cutoff", "update", "pass", "cut", "alpha", "beta", "return", "result"
    ] = Field(description="What the line did.")
    node: int = Field(description="The order of the node whose function ran it.")
    v: float | Infinity = Field(description="v in that call after the line.")
    alpha: float | Infinity | None = Field(description="Alpha then (null with minimax).")
    beta: float | Infinity | None = Field(description="Beta then (null with minimax).")
    child: int | None = Field(description="With update: the child whose value came back.")


class TracedTree(BaseModel):
    """A tree as minimax or alpha-beta walked it."""

    game: str | None = Field(default=None, description="Absent on a tree of leaf scores.")
    position: str | None = None
    depth: int | None = None
    algorithm: TreeAlgorithm
    nodes: int
    visited: int
    root: TreeNode
    cutoff: Cutoff | None = Field(
        default=None, description="How the depth limit's positions were valued."
    )
    evaluation: str | None = Field(
        default=None, description="With heuristic leaves: the evaluation function in words."
    )
    estimate_bound: int | None = Field(
        default=None,
        description="With heuristic leaves: no estimate exceeds it (in absolute value).",
    )
    pseudocode: list[str] = Field(description="The walk's algorithm, one line each.")
    steps: list[TraceStep] = Field(description="The walk, line by line, in the order it ran.")
