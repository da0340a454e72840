"""OpenSpiel for every board game of the library, and the AI as an OpenSpiel bot.

::

    import pyspiel
    from unbeatable.envs import openspiel           # registers the games

    game = pyspiel.load_game("unbeatable_connect4")   # or "unbeatable_connect4(columns=6,rows=5)"
    state = game.new_initial_state()
    perfect = openspiel.bot(game, 0)                  # the impossible level, as a pyspiel.Bot
    state.apply_action(perfect.step(state))

Importing this module registers every game of the library, plug-ins
included, as an OpenSpiel Python game named ``unbeatable_`` and its name:
``unbeatable_tictactoe``, ``unbeatable_renju``, ``unbeatable_hexapawn``. A
family takes its members' parameters by the names its notation gives them,
in lower case: ``unbeatable_connect4(columns=6,rows=5)`` is ``connect4:6,5``,
``unbeatable_mnk(rows=4,cols=4,k=3)`` is ``mnk:4,4,3``,
``unbeatable_gomoku(rule=renju,size=15)`` is ``gomoku:renju,15``; without
parameters, a family is its named game (``connect4``, ``gomoku``), and the
m,n,k family tic-tac-toe. (A plug-in family's defaults are its named game's
attributes of those names: ``hexapawn:COLUMNS,ROWS`` reads Hexapawn's
``columns`` and ``rows``; see docs/PLUGINS.md.)

Each is a sequential, deterministic, perfect-information, zero-sum game of
two players with rewards at the end (+1, -1, or 0 for a draw). Actions are
numbered as in :mod:`unbeatable.envs.pettingzoo`
(:class:`~unbeatable.envs.numbering.Numbering`): a cell, a column where
stones drop, ``origin * cells + target`` where pieces move. The observation
string is the position in the game's notation; the observation tensor is
four planes of the board, (4, rows, columns): empty cells, the first
player's pieces, the second player's, and all ones when the first player is
to move; the information state string is the history of actions (perfect
recall), as OpenSpiel's own public-information games give it.

:func:`bot` returns the library's AI at a level as a :class:`pyspiel.Bot`
for one of these games, or for OpenSpiel's own ``tic_tac_toe``,
``connect_four`` and ``mnk``, whose actions are the library's moves.

Like the faces, this module reaches the library only through
:mod:`unbeatable.api`. It needs the ``openspiel`` extra; without it,
importing it fails with one line saying how to install it.
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as missing:  # one line: the fix, not a traceback into OpenSpiel
    raise ImportError(
        f"unbeatable.envs.openspiel needs OpenSpiel ({missing.name} is not installed): "
        "pip install '.[openspiel]' in Unbeatable's folder, or 'WHEEL[openspiel]' with "
        "the wheel's file name (the README's Install)"
    ) from None

from unbeatable import api
from unbeatable.envs.numbering import Numbering

#: What every registered game's OpenSpiel name starts with.
PREFIX = "unbeatable_"

#: The built-in families' parameters and their defaults: the family's named
#: game (``connect4``, ``gomoku``), or tic-tac-toe for the m,n,k-games.
BUILT_IN_DEFAULTS: dict[str, dict[str, Any]] = {
    "connect4": {"columns": 7, "rows": 6},
    "mnk": {"rows": 3, "cols": 3, "k": 3},
    "gomoku": {"rule": "freestyle", "size": 15},
}

#: OpenSpiel's own games that :func:`bot` plays, and the library's name of
#: each from its parameters. Their actions are the library's moves: a cell
#: row-major from the top-left, or a Connect Four column.
OWN_GAMES = ("tic_tac_toe", "connect_four", "mnk")

_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


def spiel_name(name: str) -> str:
    """The OpenSpiel name of a game or family of the library (``unbeatable_``
    and the name, any character but a letter, digit or underscore as ``_``)."""
    return PREFIX + re.sub(r"\W", "_", name)


def _forms() -> dict[str, list[str]]:
    """Every family (its name -> its parameters' names in lower case), read
    from how the library says games are named (``connect4:COLUMNS,ROWS``)."""
    families: dict[str, list[str]] = {}
    for form in api.naming().split(", "):
        family, colon, parameters = form.partition(":")
        if colon:
            names = re.findall(r"[A-Za-z_]\w*", parameters)
            families[family] = [word.lower() for word in names]
    return families


def _defaults(family: str, parameters: list[str]) -> dict[str, Any] | None:
    """A family's parameters with their defaults, or None if it has none to
    give (a plug-in family without a named game carrying them)."""
    if family in BUILT_IN_DEFAULTS and list(BUILT_IN_DEFAULTS[family]) == parameters:
        return dict(BUILT_IN_DEFAULTS[family])
    if family not in api.game_names():
        return None
    try:
        named = api.resolve(family)[0]
    except api.GameError:
        return None
    values = {name: getattr(named, name, None) for name in parameters}
    if any(not isinstance(value, int | str) for value in values.values()):
        return None
    return values


def _member(family: str, parameters: list[str], values: dict[str, Any]) -> str:
    """The library's name of a family's member (``connect4:6,5``)."""
    return f"{family}:{','.join(str(values[name]) for name in parameters)}"


@lru_cache(maxsize=256)
def _rules(name: str) -> tuple[api.Game[Any, Any], api.Description, Numbering]:
    """A board game's rules, description and numbering (once per name)."""
    game = api.resolve(name)[0]
    description = api.describe(game)
    if description is None:
        raise api.GameError(f"{game.name} has no board: OpenSpiel actions number its cells")
    return game, description, Numbering.of(description)


@lru_cache(maxsize=1 << 16)
def _legal(name: str, position: Any) -> dict[int, str]:
    """action -> move notation of every legal move of ``position``."""
    _game, _description, numbering = _rules(name)
    return {
        numbering.action(cell.row, cell.col, cell.origin): cell.move
        for cell in api.view(name, position).moves
    }


def _game_type(short_name: str, title: str, parameters: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Unbeatable {title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


class UnbeatableGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type hints
    """One game of the library as an OpenSpiel game (see the module's
    docstring); each registered name gets a subclass that knows its family."""

    #: The library's game, or family, this class is registered for.
    family: str = ""
    #: A family's parameters in order (empty for a named game).
    parameters: tuple[str, ...] = ()
    game_type: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        if self.parameters:
            values = {**self.game_type.parameter_specification, **given}
            values = {name: values[name] for name in self.parameters}
            self.name = _member(self.family, list(self.parameters), values)
        else:
            self.name = self.family
        game, description, numbering = _rules(self.name)
        self.name = game.name  # connect4:7,6 is connect4
        info = pyspiel.GameInfo(
            num_distinct_actions=numbering.actions,
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            # Every game is shorter than its win score (see Game.win_score).
            max_game_length=int(game.win_score),
        )
        super().__init__(self.game_type, info, given)
        self.rules, self.description, self.numbering = game, description, numbering

    def new_initial_state(self) -> UnbeatableState:
        return UnbeatableState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return BoardObserver(self, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class UnbeatableState(pyspiel.State):  # type: ignore[misc]
    """A position of an :class:`UnbeatableGame`: the library's position
    object (immutable) and the game's name, nothing else, so that cloning
    (a deep copy) is cheap."""

    def __init__(self, game: UnbeatableGame) -> None:
        super().__init__(game)
        self._name = game.name
        self._position = api.resolve(game.rules)[1]

    @property
    def position(self) -> Any:
        """The library's position object."""
        return self._position

    @property
    def notation(self) -> str:
        """The position in the game's notation (what :mod:`unbeatable.api` reads)."""
        return str(_rules(self._name)[0].format(self._position))

    def current_player(self) -> int:
        game = _rules(self._name)[0]
        if game.is_terminal(self._position):
            return _TERMINAL
        return game.players.index(game.to_move(self._position))

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(_legal(self._name, self._position))

    def _apply_action(self, action: int) -> None:
        move = _legal(self._name, self._position).get(int(action))
        if move is None:
            raise ValueError(f"action {action} is not legal in {self._name} {self.notation!r}")
        self._position = api.play_move(self._name, self._position, move)

    def _action_to_string(self, player: int, action: int) -> str:
        move = _legal(self._name, self._position).get(int(action))
        return move if move is not None else f"action {action}"

    def is_terminal(self) -> bool:
        return bool(_rules(self._name)[0].is_terminal(self._position))

    def returns(self) -> list[float]:
        game = _rules(self._name)[0]
        winner = game.winner(self._position)
        if winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == game.players[0] else [-1.0, 1.0]

    def __str__(self) -> str:
        return self.notation


class BoardObserver:
    """OpenSpiel's observer of a position (the PyObserver interface): the
    notation as the string, four planes of the board as the tensor."""

    def __init__(self, game: UnbeatableGame, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self._marks = [side.mark.lower() for side in game.description.sides]
        shape = (4, game.description.rows, game.description.columns)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: UnbeatableState, player: int) -> None:
        planes = self.dict["observation"]
        planes.fill(0)
        view = api.view(state._name, state.position)
        cells = np.array([list(row.lower()) for row in view.board])
        first, second = self._marks
        planes[1] = cells == first
        planes[2] = cells == second
        planes[0] = (cells != first) & (cells != second)
        if view.to_move == _rules(state._name)[0].players[0]:
            planes[3] = 1

    def string_from(self, state: UnbeatableState, player: int) -> str:
        return state.notation


def _register(family: str, parameters: list[str] | None, title: str) -> None:
    """Register ``family`` (a named game, or a family with its parameters'
    defaults) under :func:`spiel_name`, once per process."""
    short = spiel_name(family)
    if short in pyspiel.registered_names():
        return
    specification = _defaults(family, parameters) if parameters else {}
    if parameters and specification is None:
        return  # a plug-in family with no defaults to give: its named game only
    game_type = _game_type(short, title, specification or {})
    subclass = type(
        f"Unbeatable_{short[len(PREFIX):]}",
        (UnbeatableGame,),
        {
            "family": family,
            "parameters": tuple(parameters or ()),
            "game_type": game_type,
        },
    )
    pyspiel.register_game(game_type, subclass)


def register() -> list[str]:
    """Register every board game of the library (plug-ins included) that is
    not yet registered; the OpenSpiel names of all of them. Importing the
    module calls it; call it again after installing a plug-in."""
    families = _forms()
    names: list[str] = []
    for name in dict.fromkeys((*api.game_names(), *families)):
        try:
            description = api.describe(name if name not in families else _defaults_name(name))
        except api.GameError:
            continue  # a broken plug-in: the registry has said why, once
        if description is None:
            continue  # no board: no cells to number
        title = description.title
        _register(name, families.get(name), title)
        if spiel_name(name) in pyspiel.registered_names():
            names.append(spiel_name(name))
    return names


def _defaults_name(family: str) -> str:
    """The game that stands for a family when none is given (its defaults)."""
    if family in api.game_names():
        return family
    defaults = _defaults(family, _forms()[family])
    if defaults is None:
        raise api.GameError(f"{family}: no default member")
    return _member(family, _forms()[family], defaults)


# -- the AI as a bot -----------------------------------------------------------------


def _library_game(game: Any) -> tuple[str, bool]:
    """(the library's name of ``game``'s board, whether ``game`` is one of
    this module's games); raises ValueError for a game the AI cannot play."""
    short = game.get_type().short_name
    if short.startswith(PREFIX):
        return str(game.new_initial_state()._name), True
    parameters = game.get_parameters()
    if short == "tic_tac_toe":
        return "tictactoe", False
    if short == "connect_four" and parameters.get("x_in_row", 4) == 4:
        columns, rows = parameters.get("columns", 7), parameters.get("rows", 6)
        return ("connect4" if (columns, rows) == (7, 6) else f"connect4:{columns},{rows}"), False
    if short == "mnk":
        # OpenSpiel's m counts the columns, n the rows (its defaults: 15, 15, 5).
        m, n, k = (parameters.get("m", 15), parameters.get("n", 15), parameters.get("k", 5))
        return f"mnk:{n},{m},{k}", False
    raise ValueError(
        f"the Unbeatable bot plays the unbeatable_* games and OpenSpiel's "
        f"{', '.join(OWN_GAMES)}, not {short}"
    )


class UnbeatableBot(pyspiel.Bot):  # type: ignore[misc]
    """The library's AI at a level, as an OpenSpiel bot (see :func:`bot`)."""

    def __init__(
        self,
        game: Any,
        player: int,
        level: str = "impossible",
        *,
        seed: int | None = None,
        time_limit: float | None = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self._name, self._ours = _library_game(game)
        self._rules = api.resolve(self._name)[0]
        self._player = player
        self.level = api.Level(level)
        self.time_limit = time_limit
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"UnbeatableBot({self._name!r}, player {self._player}, {str(self.level)!r})"

    def player_id(self) -> int:
        return self._player

    def provides_policy(self) -> bool:
        return False

    def restart_at(self, state: Any) -> None:
        """Nothing to forget: every step reads the whole position."""

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        """Nothing to follow: every step reads the whole position."""

    def position(self, state: Any) -> Any:
        """The library's position of ``state``: its own for this module's
        games, else the history of actions replayed as the library's moves."""
        if self._ours:
            return state.position
        game = self._rules
        position = game.initial()
        for action in state.history():
            position = game.play(position, int(action))
        return position

    def step(self, state: Any) -> int:
        """The level's action in ``state``."""
        if state.is_terminal():
            return int(pyspiel.INVALID_ACTION)
        position = self.position(state)
        chosen = api.choose_move(self._rules, position, self.level, self._rng, self.time_limit)
        if chosen is None:
            return int(pyspiel.INVALID_ACTION)
        if not self._ours:
            raw = chosen.raw
            move = raw if raw is not None else self._rules.parse_move(position, chosen.move)
            return int(move)
        actions = _legal(self._name, position)
        return next(action for action, move in actions.items() if move == chosen.move)


def bot(
    game: Any,
    player: int,
    level: str = "impossible",
    *,
    seed: int | None = None,
    time_limit: float | None = None,
) -> UnbeatableBot:
    """The library's AI at ``level`` (``"impossible"``: perfect play, never
    losing; ``"medium"``, ``"easy"``) playing ``player`` (0 moves first) in
    ``game``: an ``unbeatable_*`` game, or OpenSpiel's own ``tic_tac_toe``,
    ``connect_four`` (four in a row, any board) or ``mnk``. ``seed`` makes the
    weaker levels repeatable; ``time_limit`` is each move's budget in seconds
    (None: the game's default). Raises ValueError for another game."""
    return UnbeatableBot(game, player, level, seed=seed, time_limit=time_limit)


REGISTERED = register()

__all__ = [
    "OWN_GAMES",
    "PREFIX",
    "REGISTERED",
    "BoardObserver",
    "UnbeatableBot",
    "UnbeatableGame",
    "UnbeatableState",
    "bot",
    "register",
    "spiel_name",
]
