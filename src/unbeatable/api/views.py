"""Positions as faces show them: the board, the legal moves and the cell
each fills, the status (:func:`view`); the games as faces offer them
(:func:`game_info`); a move played (:func:`play_move`). Faces apply no rules
of their own: whatever they draw comes from here and the game's description.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, overload

from unbeatable.answers import answer, field, flat, json_object
from unbeatable.api import engines
from unbeatable.api.request import resolve
from unbeatable.games import Description, Game, GameError, IllegalMoveError, get_game

if TYPE_CHECKING:
    from unbeatable.games.mnk import MNKPosition

P = TypeVar("P")
M = TypeVar("M")


#: The biggest board side of the m,n,k family (what the Gomocup brain accepts).
MNK_MAX_SIDE = 20


@lru_cache(maxsize=64)
def _description(game: Any) -> Description | None:
    try:
        description: Description = game.describe()
    except NotImplementedError:
        return None
    return description


def describe(game: str | Game[Any, Any]) -> Description | None:
    """The game's description (None for games without a board to show)."""
    game = get_game(game) if isinstance(game, str) else game
    hashable: Any = game  # Game objects hash by identity
    return _description(hashable)


@answer("A position where a shallow search misjudges (Learn's depth lesson).")
class LessonExample(NamedTuple):
    """A position where a shallow search misjudges, by name."""

    name: str
    position: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    json_name="LessonInfo",
    rule=field("The static evaluation, in words."),
    examples=field(
        "Positions that show the horizon effect; Learn's depth lesson offers the games "
        "that give some."
    ),
)
class Lesson(NamedTuple):
    """What depth-limited search estimates with in a game, and where to see
    its horizon."""

    rule: str
    examples: tuple[LessonExample, ...]

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


def _lesson(lesson: tuple[str, tuple[tuple[str, str], ...]] | None) -> dict[str, Any] | None:
    if lesson is None:
        return None
    rule, examples = lesson
    return Lesson(rule, tuple(LessonExample(name, pos) for name, pos in examples)).to_dict()


@answer(
    "One game the server plays: its description, its start position and the engines' "
    "policy for it.",
    description=flat(),
    exact=field("Every answer is exact, with no time budget."),
    time_limit=field("Seconds of engine time each request may use (null: always exact)."),
    initial=field("Notation of the starting position."),
    lesson=field(
        "The game's static evaluation for depth-limited search (null: none).",
        write=_lesson,
        shape="Lesson | None",
    ),
)
class GameInfo(NamedTuple):
    """A board game as the faces offer it: the rules' description, the
    engines' policy and the start position (``GET /api/games``)."""

    #: The rules' facts: names, sides, board, keys.
    description: Description
    #: Whether every query is solved exactly, fast, with no time budget.
    exact: bool
    #: Seconds a query may search (None: no limit, always exact).
    time_limit: float | None
    #: Notation of the initial position.
    initial: str
    #: What depth-limited search estimates with (the game's static
    #: evaluation's rule) and its example positions; None without one.
    lesson: tuple[str, tuple[tuple[str, str], ...]] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the description's fields beside the others."""
        return json_object(self)


def game_info(game: str | Game[Any, Any]) -> GameInfo:
    """What the faces offer of a board game: its description from the rules,
    its engine policy from the game's record, its start position. Raises
    :class:`GameError` for a game without a board to show."""
    game = get_game(game) if isinstance(game, str) else game
    description = describe(game)
    if description is None:
        raise GameError(f"{game.name} does not describe itself (it has no board to show)")
    served = engines.policy(game)
    evaluation = game.static_evaluation()
    lesson = None if evaluation is None else (evaluation.rule, evaluation.examples)
    return GameInfo(
        description, served.exact, served.time_limit, game.format(game.initial()), lesson
    )


@overload
def play_move(game: Game[P, M], position: P | str | None, move: str) -> P: ...
@overload
def play_move(game: str, position: Any, move: str) -> Any: ...
def play_move(game: str | Game[Any, Any], position: Any, move: str) -> Any:
    """The position after ``move`` (in the game's notation), as the rules
    object holds positions; raises :class:`IllegalMoveError` with the reason
    if it is not legal."""
    game, pos = resolve(game, position)
    if not isinstance(move, str):
        raise IllegalMoveError("a move must be a string in the game's notation")
    return game.play(pos, game.parse_move(pos, move))


def set_up(game: str | Game[Any, Any], cells: str, to_move: str) -> MNKPosition:
    """An m,n,k board set up stone by stone, ``to_move`` to play whatever the
    counts: ``cells`` row-major from the top-left, ``x``, ``o`` or ``.``.

    Play never reaches a board whose counts are uneven, and the notation
    refuses one; a Gomocup manager may still send it (a continuous game's
    finished line taken off the board, a position set up by hand), and
    tournament engines play on it, as the brain does. The rules' other check
    stays: a board where a side already has a line (as the game's own
    ``winning_moves`` reads lines) is refused with
    :class:`InvalidPositionError`."""
    from unbeatable.games import InvalidPositionError
    from unbeatable.games import mnk as _mnk

    game = get_game(game) if isinstance(game, str) else game
    if not isinstance(game, _mnk.MNKGame):
        raise GameError(f"{game.name}: only m,n,k boards are set up stone by stone")
    marks = (_mnk.X, _mnk.O)
    if len(cells) != game.size or not set(cells) <= {*marks, _mnk.EMPTY}:
        raise InvalidPositionError(
            f"expected {game.size} cells of x, o and . for {game.name}, got {cells!r}"
        )
    if to_move not in marks:
        raise InvalidPositionError(f"the side to move must be x or o, not {to_move!r}")
    for cell, mark in enumerate(cells):
        if mark == _mnk.EMPTY:
            continue
        without = _mnk.MNKPosition(cells[:cell] + _mnk.EMPTY + cells[cell + 1 :], to_move)
        if cell in game.winning_moves(without, mark):
            raise InvalidPositionError(f"{mark} already has a line")
    return _mnk.MNKPosition(cells, to_move)


@answer(
    "A legal move and the cell it fills (0-based from the top-left).",
    origin=field(
        "The [row, col] the move's piece leaves, in games whose pieces move (absent where "
        "a move puts a new stone down).",
        omit=None,
    ),
)
class Cell(NamedTuple):
    """A legal move and the cell it fills (0-based from the top-left), and
    the cell its piece leaves where pieces move."""

    #: The move in the game's notation.
    move: str
    row: int
    col: int
    #: The (row, col) the move's piece leaves, in games whose pieces move
    #: (``Description.moves_from``); None where a move puts a stone down.
    origin: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, Any]:
        """``origin`` only where pieces move: other games keep their JSON."""
        return json_object(self)


@answer(
    "Whether the game is over, who won, and the winning line's cells.",
    line=field("[row, col] pairs, 0-based from the top-left, or null."),
    reason=field(
        "How the game was won, in words that read after the winner's name ('three in a "
        "row', 'every black pawn taken'), or why a finished game is drawn where the game "
        "says ('40 plies without a mill'); else null."
    ),
)
class Status(NamedTuple):
    """Whether the game is over, and how it ended."""

    over: bool
    #: The player who won (None: nobody yet, or a draw).
    winner: str | None
    #: The cells of the winning line, ``(row, col)`` 0-based from the
    #: top-left, when the game has one.
    line: tuple[tuple[int, int], ...] | None
    #: How the game was won, in words that read after the winner's name
    #: (:meth:`Game.win_reason`, else the description's goal), or why a
    #: finished game is drawn where the game says (:meth:`Game.draw_reason`,
    #: after "Draw: "); else None.
    reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer(
    "A position as a face shows it; the face applies no rules of its own.",
    position=field("Canonical notation of the position."),
    board=field("The rows from the top, one character per cell."),
    moves=field("Every legal move, in board order."),
)
class View(NamedTuple):
    """A position as a face shows it: faces apply no rules of their own."""

    game: str
    #: The position in the game's notation (canonical).
    position: str
    to_move: str
    #: The board's rows from the top, one character per cell (``game.grid``).
    board: tuple[str, ...]
    #: Every legal move with the cell it fills, in board order.
    moves: tuple[Cell, ...]
    status: Status

    def to_dict(self) -> dict[str, Any]:
        """The JSON object served by ``POST /api/position``."""
        return json_object(self)


def status(game: str | Game[Any, Any], position: Any) -> Status:
    """Whether the game is over, who won, and the cells of the winning line
    if the game has one."""
    game, pos = resolve(game, position)
    line = None
    cells = game.winning_line(pos)
    description = describe(game)
    if cells is not None and description is not None:
        line = tuple(divmod(cell, description.columns) for cell in cells)
    winner = game.winner(pos)
    reason = None
    if winner is not None:
        # Games written to the protocol without subclassing Game may lack the hook.
        own = getattr(game, "win_reason", None)
        reason = own(pos) if own is not None else None
        if reason is None and description is not None:
            reason = description.goal
    over = game.is_terminal(pos)
    if winner is None and over:
        drawn = getattr(game, "draw_reason", None)
        reason = drawn(pos) if drawn is not None else None
    return Status(over, winner, line, reason)


def view(game: str | Game[Any, Any], position: Any, move: str | None = None) -> View:
    """What a face needs to show a position (after ``move``, if given): its
    notation, the side to move, the board's rows, every legal move with the
    cell it fills, and the status. Faces apply no rules of their own."""
    game, pos = resolve(game, position)
    if move is not None:
        pos = play_move(game, pos, move)
    moves = []
    # Games written to the protocol without subclassing Game may lack the hook.
    origin = getattr(game, "origin", None)
    for m in game.moves(pos):
        row, col = game.cell(pos, m)
        moves.append(Cell(game.format_move(m), row, col, origin(pos, m) if origin else None))
    return View(
        game=game.name,
        position=game.format(pos),
        to_move=game.to_move(pos),
        board=tuple(game.grid(pos).split("/")),
        moves=tuple(moves),
        status=status(game, pos),
    )


__all__ = [
    "MNK_MAX_SIDE",
    "Cell",
    "GameInfo",
    "Lesson",
    "LessonExample",
    "Status",
    "View",
    "describe",
    "game_info",
    "play_move",
    "set_up",
    "status",
    "view",
]
