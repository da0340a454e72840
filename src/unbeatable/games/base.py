"""The Game protocol: the only thing the search code knows about a game.

A game is a stateless *rules object*; positions are immutable, hashable values
that it creates and interprets. Keeping rules apart from positions lets one
rules object serve any number of concurrent searches (and web requests).

Conventions every implementation follows:

* Two players, named by short strings in :attr:`Game.players`. ``players[0]``
  moves first and is the *maximiser* of classic minimax.
* :meth:`Game.moves` lists the legal moves in *board order* (the order used to
  break ties deterministically) and is empty exactly when the game is over.
* :meth:`Game.utility` scores a finished game from the maximiser's view. For
  win/loss/draw games the score is depth-aware: a win found ``plies`` half-moves
  below the search root is worth ``win_score - plies``, so faster wins score
  higher and slower losses score less badly. :func:`outcome_utility` implements
  that rule once for every such game.
* Parsing rejects illegal input with a :class:`GameError` subclass whose message
  names the problem; ``parse(format(p)) == p`` for every position, and
  ``parse("")`` is the initial position.
* A board game describes itself once (:meth:`Game.describe`: its title, its
  players' names and colours, the board's shape, whether stones drop, the key
  that plays each move) and says which cell each move fills
  (:meth:`Game.cell`) and, where pieces move, which cell it leaves
  (:meth:`Game.origin`). Every face (terminal, page, HTTP API) is drawn from
  those facts, never from the game's name. How an engine serves the game
  (exactly, or within a time budget) is no rule: the solver registry
  (:mod:`unbeatable.solvers`) says it.

Implementations may subclass :class:`Game` to inherit the optional methods'
defaults (``ordered_moves``, ``evaluate``, ``utility``, ``tie_break``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, NamedTuple, Protocol, TypeVar, runtime_checkable

from unbeatable.answers import answer, computed, field, json_object

P = TypeVar("P")
M = TypeVar("M")


class GameError(ValueError):
    """Base class of every error about user-supplied game input."""


class InvalidPositionError(GameError):
    """The text is not a position of this game, or the position cannot arise in play."""


class IllegalMoveError(GameError):
    """The move is malformed or not legal in the given position."""


class UnknownGameError(GameError):
    """No game is registered under that name."""


@answer(json_name="SideInfo", colour=field("CSS colour of its marks or discs."))
class Side(NamedTuple):
    """One player as the faces show it."""

    #: The player's name in positions and moves (``x``).
    mark: str
    #: What to call the player on screen (``X``, ``Red``).
    name: str
    #: The colour of its marks or discs, as a CSS colour (``#d8343f``).
    colour: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


@answer("A keyboard shortcut: the key and the move it plays.", json_name="KeyInfo")
class Key(NamedTuple):
    """A keyboard shortcut, as the JSON of :attr:`Description.keys` writes it."""

    key: str
    move: str

    def to_dict(self) -> dict[str, Any]:
        """The answer's JSON object, as its ``@answer`` states it."""
        return json_object(self)


def _keys(keys: tuple[tuple[str, str], ...]) -> list[dict[str, Any]]:
    return [Key(key, move).to_dict() for key, move in keys]


@answer(
    players=computed(lambda description: [side.mark for side in description.sides], list[str]),
    gravity=field("Moves name a column; the stone drops to its lowest cell."),
    column_labels=field("Left to right, in the move notation."),
    row_labels=field("Top to bottom; empty when moves name columns."),
    keys=field(write=_keys, shape="list[Key]"),
    moves_from=field(
        "Moves take a piece from one cell to another (each move's view says its origin); "
        "present, true, only in such games.",
        omit=False,
    ),
    notation=field("How a position is written, ending with an example."),
    json_order=(
        "name",
        "title",
        "players",
        "sides",
        "rows",
        "columns",
        "gravity",
        "column_labels",
        "row_labels",
        "goal",
        "keys",
        "notation",
        "moves_from",
    ),
)
class Description(NamedTuple):
    """Everything a face needs to know about a board game, stated once."""

    #: Registry name (``tictactoe``, ``connect4``, ``mnk:4,4,4``).
    name: str
    #: Human title (``Tic-tac-toe``).
    title: str
    #: Both players, the first one moving first.
    sides: tuple[Side, Side]
    rows: int
    columns: int
    #: Whether a move names a column and the stone drops to its lowest free cell.
    gravity: bool
    #: Labels of the columns, left to right, and of the rows, top to bottom, in
    #: the move notation (no row labels where moves name only a column).
    column_labels: tuple[str, ...]
    row_labels: tuple[str, ...]
    #: What wins, in words that read before "wins." and after a winner's
    #: name ("x (x): three in a row"): ``three in a row``, ``reaching the far row``.
    goal: str
    #: Keyboard shortcuts: (key, move notation) pairs, in key order.
    keys: tuple[tuple[str, str], ...]
    #: Whether a move takes a piece from one cell to another (Hexapawn,
    #: draughts) rather than putting a new stone down: :meth:`Game.origin`
    #: then says which cell it leaves, and the faces choose a move by its
    #: piece and then its cell, and show hints on the pieces that can move.
    moves_from: bool = False
    #: How a position is written, in one sentence ending with an example: the
    #: faces' help beside a position field (empty: "in the game's notation").
    notation: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``GET /api/games`` adds the engine policy and the initial
        position: :func:`unbeatable.api.game_info`); ``moves_from`` only where pieces move,
        so the games that put stones down keep their JSON."""
        return json_object(self)


class StaticEvaluation(NamedTuple, Generic[P]):
    """A game's classic evaluation function, the one textbooks teach
    depth-limited search with: a whole number a learner can count on the
    board. (The engine's own guidance is :meth:`Game.evaluate`.)"""

    #: What it counts, in one sentence for the faces.
    rule: str
    #: No estimate is larger than this in absolute value, so a search can
    #: score every finished game beyond it: a real result outranks a guess.
    bound: int
    #: The estimate of an unfinished position, from ``players[0]``'s view.
    value: Callable[[P], int]
    #: Positions where a shallow search with this estimate picks a worse move
    #: than a deeper one: ``(name, position)`` pairs, the position in the
    #: game's notation. Learn's depth lesson offers the games that give some.
    examples: tuple[tuple[str, str], ...] = ()


@runtime_checkable
class Game(Protocol[P, M]):
    """Rules of a two-player, zero-sum, perfect-information, turn-based game."""

    #: Registry name, e.g. ``"tictactoe"``.
    name: str
    #: The two players; ``players[0]`` moves first from the initial position.
    players: tuple[str, str]
    #: Value of a win at the root; must exceed the longest possible game in plies,
    #: so that every depth-aware win still scores above a draw.
    win_score: int

    def initial(self) -> P:
        """The position at the start of the game."""
        ...

    def parse(self, text: str) -> P:
        """Read a position from its notation; raises :class:`InvalidPositionError`."""
        ...

    def format(self, position: P) -> str:
        """The canonical notation of ``position`` (round-trips through :meth:`parse`)."""
        ...

    def to_move(self, position: P) -> str:
        """The player whose turn it is (also defined for finished positions)."""
        ...

    def moves(self, position: P) -> Sequence[M]:
        """Legal moves in board order; empty exactly when the game is over."""
        ...

    def play(self, position: P, move: M) -> P:
        """The position after ``move``; the move must be legal (see :meth:`parse_move`)."""
        ...

    def winner(self, position: P) -> str | None:
        """The player who has won, or ``None`` (game running, or drawn)."""
        ...

    def is_terminal(self, position: P) -> bool:
        """True when nobody can move any more: someone won or the game is drawn."""
        ...

    def key(self, position: P) -> Hashable:
        """A compact hashable key, equal for equal positions (transposition tables)."""
        ...

    def parse_move(self, position: P, text: str) -> M:
        """Read a move in the game's notation; raises :class:`IllegalMoveError`
        unless it is legal in ``position``."""
        ...

    def format_move(self, move: M) -> str:
        """The move's notation."""
        ...

    def move_fields(self, move: M) -> dict[str, Any]:
        """Extra JSON fields that locate the move on the board (e.g. ``row``, ``col``)."""
        ...

    # -- optional: subclasses of Game inherit these defaults -------------------

    def utility(self, position: P, plies: int) -> float:
        """Score of a finished position from ``players[0]``'s view, reached
        ``plies`` half-moves below the search root."""
        return outcome_utility(self, position, plies)

    def ordered_moves(self, position: P) -> Sequence[M]:
        """Legal moves, most promising first; search uses it to cut off sooner."""
        return self.moves(position)

    def evaluate(self, position: P) -> float:
        """Heuristic value of an unfinished position for the side to move,
        strictly between -1 and 1 (so it never outweighs a proven result).
        Used only by depth-limited search."""
        return 0.0

    def static_evaluation(self) -> StaticEvaluation[P] | None:
        """The game's classic evaluation function for teaching depth-limited
        search (``unbeatable tree --cutoff heuristic``, Learn's second
        lesson); None (the default) when the game offers none."""
        return None

    def tie_break(self, position: P, moves: Sequence[M]) -> Sequence[M]:
        """Moves in the order that breaks ties between equal values (default:
        board order, as given)."""
        return moves

    def describe(self) -> Description:
        """The game's facts for the faces (board games only)."""
        problem = f"{self.name} does not describe itself (it has no board to show)"
        raise NotImplementedError(problem)

    def cell(self, position: P, move: M) -> tuple[int, int]:
        """The (row, column) a legal ``move`` fills, 0-based from the top-left
        (for a dropped stone, where it lands). Board games only."""
        problem = f"{self.name} has no board cells"
        raise NotImplementedError(problem)

    def origin(self, position: P, move: M) -> tuple[int, int] | None:
        """The (row, column) a legal ``move`` takes its piece from, for games
        whose pieces move (:attr:`Description.moves_from`); None (the
        default) where a move puts a new stone down."""
        return None

    def winning_moves(self, position: P, player: str) -> Sequence[M] | None:
        """The moves with which ``player`` would win at once, were it to move
        now; None if the game does not say (the default).

        Games that implement it promise what k-in-a-row games guarantee: a move
        can only take away an opponent's winning move by being played on it.
        Search then takes an immediate win at once, answers a single threat
        by blocking it, and knows two threats lose (and one on a cell that is
        not a legal move for the player to move: renju's forbidden points).
        """
        return None

    def grid(self, position: P) -> str:
        """The board for display: rows from top to bottom separated by ``/``, one
        character per cell (``.`` when empty). Only board games implement it."""
        problem = f"{self.name} has no board to draw"
        raise NotImplementedError(problem)

    def win_reason(self, position: P) -> str | None:
        """How the game was won, in words that read after the winner's name
        (``"White (w): every black pawn taken"``), for games won in more than
        one way; None (the default): the description's ``goal`` says it."""
        return None

    def winning_line(self, position: P) -> tuple[int, ...] | None:
        """Cells of the line that won, as flat indices row-major from the
        top-left of :meth:`grid`; None when nobody has won (or no such line)."""
        return None

    def draw_reason(self, position: P) -> str | None:
        """Why a finished game with no winner is drawn, in words that read
        after "Draw: " (``"the same position a third time"``, ``"40 plies
        without a mill"``), for games drawn in more than one way or by a rule
        a player may not expect; None (the default) for a plain draw (a full
        board) or an unfinished game. The faces show it, and the API's
        ``status.reason``."""
        return None

    def draw_plies(self, position: P) -> int:
        """Length in plies of a drawn game from here (a board game that can only
        be drawn on a full board returns its empty cells); 0 if unknown."""
        return 0

    def score(self, position: P, result: str, plies: int) -> int:
        """The game's display score of an outcome for the side to move: by
        default ``win_score - plies`` for a win, its negative for a loss, 0 for
        a draw (games with a published convention override it)."""
        if result == "draw":
            return 0
        value = self.win_score - plies
        return value if result == "win" else -value


def side_from_counts(
    first: int, second: int, side: str | None, players: tuple[str, str], pieces: str = "marks"
) -> str:
    """The side to move of a board where ``players[0]`` moved first and the
    players alternated: equal counts mean the first player moves, one more of
    the first player's pieces means the second. Raises
    :class:`InvalidPositionError` for other counts, or for a given ``side``
    that contradicts them."""
    a, b = players
    if first - second not in (0, 1):
        raise InvalidPositionError(
            f"impossible counts: {first} {a} and {second} {b} "
            f"({a} moves first, so {a} has as many {pieces} as {b} or one more)"
        )
    inferred = a if first == second else b
    if side is not None and side != inferred:
        raise InvalidPositionError(
            f"side to move {side!r} contradicts the counts: {first} {a} and {second} {b} "
            f"means {inferred} to move"
        )
    return inferred


def outcome_utility(game: Game[P, M], position: P, plies: int) -> int:
    """Depth-aware win/loss/draw score from ``players[0]``'s view:
    ``+(win_score - plies)`` for a first-player win, the negative for a
    second-player win, ``0`` for a draw."""
    who = game.winner(position)
    if who is None:
        return 0
    value = game.win_score - plies
    return value if who == game.players[0] else -value
