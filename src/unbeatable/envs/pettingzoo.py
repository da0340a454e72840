"""PettingZoo for every board game of the library: an AEC environment and an agent.

::

    from unbeatable.envs.pettingzoo import UnbeatableAgent, env

    game = env("connect4", render_mode="ansi")
    game.reset(seed=0)
    perfect = UnbeatableAgent("connect4")          # the impossible level
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        game.step(None if termination or truncation else perfect.act(game))

:func:`env` makes the environment for a game name (``"tictactoe"``,
``"connect4:6,5"``, ``"mnk:5,5,4"``, ``"gomoku"``) or a :class:`Game` object
that describes its board. Agents are ``player_0`` (the game's first player,
who moves first) and ``player_1``. An action is a fixed number for the cell a
move fills, ``row * columns + column`` from the top-left, or the column alone
where stones drop (Connect Four), or, in games whose pieces move from cell to
cell (a plug-in's Hexapawn), ``origin * cells + target`` with both cells
numbered so, a new piece put down in such a game (the placing phase of Three
Men's Morris) ``target * cells + target``: one numbering for every game, read
from its description (:class:`~unbeatable.envs.numbering.Numbering`), so a
learner sees the same action space all game long. The
observation is PettingZoo's classic one: ``observation``, two planes of the
board (rows, columns, 2) from the observing agent's view (its own stones,
then its opponent's), and ``action_mask``, the legal actions of the agent to
move (all zeros for the other). Rewards come at the end: +1 to the winner, -1
to the loser, 0 to both for a draw. ``render`` draws the board as text.

:class:`UnbeatableAgent` plays any level of the library in such an
environment, and in PettingZoo's own ``connect_four_v3`` and ``tictactoe_v3``,
whose numbering (:data:`NUMBERINGS`) it maps to the library's cells.

Like the faces, this module reaches the library only through
:mod:`unbeatable.api`. It needs the ``pettingzoo`` extra; without it, importing
it fails with one line saying how to install it.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any, Literal

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as missing:  # one line: the fix, not a traceback into gymnasium
    raise ImportError(
        f"unbeatable.envs.pettingzoo needs PettingZoo ({missing.name} is not installed): "
        "pip install '.[pettingzoo]' in Unbeatable's folder, or 'WHEEL[pettingzoo]' with "
        "the wheel's file name (the README's Install)"
    ) from None

from unbeatable import api
from unbeatable.envs.numbering import Numbering, Planes

#: The agents' names, in the order of the game's players (the first moves first).
AGENTS = ("player_0", "player_1")

#: What an illegal action does: ``"lose"``, PettingZoo's classic convention
#: (the game ends, -1 to the agent that played it, 0 to the other, with a
#: warning naming the action), or ``"raise"`` an :class:`IllegalActionError`.
Illegal = Literal["lose", "raise"]


class IllegalActionError(api.IllegalMoveError):
    """An action outside the action space, or one the position does not allow
    (with ``illegal="raise"``). A :class:`ValueError`, like every error of the
    library."""


#: PettingZoo's own board games that :class:`UnbeatableAgent` can play, by
#: their ``metadata["name"]``: Connect Four numbers its columns 0-6 from the
#: left, its planes row by row from the top, as the library does; tic-tac-toe
#: numbers its cells down each column (0 1 2 is the left column, top to bottom)
#: and its planes' first axis is the column.
NUMBERINGS: dict[str, Numbering] = {
    "connect_four_v3": Numbering("connect_four_v3", 6, 7, gravity=True),
    "tictactoe_v3": Numbering("tictactoe_v3", 3, 3, gravity=False, column_major=True),
}


def _board_game(game: str | api.Game[Any, Any]) -> tuple[api.Game[Any, Any], api.Description]:
    """The rules object and its description; a game without a board has no
    cells to number, so it is refused."""
    rules, _start = api.resolve(game)
    description = api.describe(rules)
    if description is None:
        raise api.GameError(
            f"{rules.name} has no board: PettingZoo actions number the cells of a board game"
        )
    return rules, description


class UnbeatableEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type hints
    """The AEC environment of one game (see the module's docstring); made by
    :func:`raw_env`, or :func:`env` with PettingZoo's order checks around it.

    ``reset(options={"position": notation})`` starts from a position in the
    game's notation instead of the initial one (a finished one is refused).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it from the class
        "render_modes": ["ansi", "human"],
        "name": "unbeatable_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str | api.Game[Any, Any],
        render_mode: str | None = None,
        illegal: Illegal = "lose",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            modes = " or ".join(self.metadata["render_modes"])
            raise ValueError(f"render_mode must be None, {modes}, not {render_mode!r}")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal must be 'lose' or 'raise', not {illegal!r}")
        self.game, self.description = _board_game(game)
        self.numbering = Numbering.of(self.description)
        self.render_mode = render_mode
        self.illegal: Illegal = illegal
        self.possible_agents = list(AGENTS)
        #: Each agent's player name (what ``to_move`` and ``winner`` say) and mark on the board.
        self.players = dict(zip(AGENTS, self.game.players, strict=True))
        self.marks = {
            agent: side.mark for agent, side in zip(AGENTS, self.description.sides, strict=True)
        }
        self._agent_of = {player: agent for agent, player in self.players.items()}
        # One space object per agent, the same each call: seeding a space must stick.
        observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, self.numbering.shape, np.int8),
                "action_mask": spaces.Box(0, 1, (self.numbering.actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: observation_space for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(self.numbering.actions) for agent in AGENTS}
        self._begin(None)

    def _begin(self, start: Any) -> None:
        """Every agent alive, nothing won yet, ``start`` on the board (a
        position of the game's; None: the initial one)."""
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._show(start)

    def _show(self, position: Any) -> None:
        """Make ``position`` the current one: the agent to move and the legal actions."""
        if position is None:
            _rules, position = api.resolve(self.game)
        view = api.view(self.game, position)
        self._position, self._view = position, view
        self.agent_selection = self._agent_of[view.to_move]
        self._legal = {
            self.numbering.action(cell.row, cell.col, cell.origin): cell for cell in view.moves
        }
        if len(self._legal) != len(view.moves):  # two moves, one number: the game is no board game
            raise api.GameError(f"{self.game.name}: two legal moves fill the same cell")

    @property
    def position(self) -> str:
        """The current position in the game's notation (what :mod:`unbeatable.api` reads)."""
        return self._view.position

    @property
    def view(self) -> api.View:
        """The current position as the library's faces see it."""
        return self._view

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Back to the start (the game has no chance: ``seed`` changes nothing)."""
        start = None
        if options and options.get("position") is not None:
            _rules, start = api.resolve(self.game, options["position"])
            if api.status(self.game, start).over:
                raise api.GameOverError(f"{options['position']!r} is finished: nothing to play")
        self._begin(start)

    def action_mask(self, agent: str) -> Planes:
        """The legal actions of ``agent``: none unless it is to move."""
        mask = np.zeros(self.numbering.actions, dtype=np.int8)
        if agent == self.agent_selection and not self._view.status.over:
            mask[list(self._legal)] = 1
        return mask

    def observe(self, agent: str) -> dict[str, Planes]:
        """The board from ``agent``'s view and its legal actions."""
        other = AGENTS[1 - AGENTS.index(agent)]
        planes = self.numbering.planes(self._view.board, self.marks[agent], self.marks[other])
        return {"observation": planes, "action_mask": self.action_mask(agent)}

    def step(self, action: Any) -> None:
        """Play ``action`` for the agent to move; after the end, each agent
        steps ``None`` once to leave, as in every AEC environment."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = self._number(action)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        cell = self._legal.get(number)
        if cell is None:
            self._refuse(agent, number)
        else:
            self._play(cell)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _number(self, action: Any) -> int:
        """The action as an int of the action space (numpy integers too)."""
        try:
            number = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"an action is an integer, not {action!r}") from None
        if not 0 <= number < self.numbering.actions:
            last = self.numbering.actions - 1
            raise IllegalActionError(f"action {number} is outside the action space (0-{last})")
        return number

    def _refuse(self, agent: str, number: int) -> None:
        legal = sorted(self._legal)
        shown = ", ".join(map(str, legal[:20])) + (", ..." if len(legal) > 20 else "")
        problem = (
            f"action {number} is not legal for {agent} ({self.players[agent]}) in "
            f"{self.game.name} {self.position!r}: the legal actions are {shown}"
        )
        if self.illegal == "raise":
            raise IllegalActionError(problem)
        gymnasium.logger.warn(f"{problem}; {agent} loses the game")
        self.rewards[agent] = -1.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.agent_selection = AGENTS[1 - AGENTS.index(agent)]

    def _play(self, cell: api.Cell) -> None:
        mover = self.agent_selection
        self._show(api.play_move(self.game, self._position, cell.move))
        if self._view.status.over:
            winner = self._view.status.winner
            if winner is not None:
                won = self._agent_of[winner]
                self.rewards[won] = 1.0
                self.rewards[AGENTS[1 - AGENTS.index(won)]] = -1.0
            self.terminations = dict.fromkeys(self.agents, True)
            # Both leave, the opponent of the last mover first (as PettingZoo's games do).
            self.agent_selection = AGENTS[1 - AGENTS.index(mover)]

    def render(self) -> str | None:
        """The board as text (``"ansi"``: returned; ``"human"``: printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called with no render_mode: nothing drawn")
            return None
        text = board_text(self.description, self._view)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the text board holds no window."""


def board_text(description: api.Description, view: api.View) -> str:
    """The board with the game's own labels (columns above, rows on the left,
    as moves are written) and a line saying whose turn it is or how it ended."""
    width = max(len(label) for label in description.column_labels)
    margin = max((len(label) for label in description.row_labels), default=-1) + 1
    labels = description.row_labels or ("",) * len(view.board)
    lines = [" " * margin + " ".join(label.rjust(width) for label in description.column_labels)]
    for label, row in zip(labels, view.board, strict=True):
        cells = " ".join(cell.rjust(width) for cell in row)
        lines.append(f"{label} ".rjust(margin) + cells if margin else cells)
    status = view.status
    if not status.over:
        lines.append(f"{view.to_move} to move")
    else:
        lines.append(f"{status.winner} has won" if status.winner else "draw")
    return "\n".join(lines)


def raw_env(
    game: str | api.Game[Any, Any], render_mode: str | None = None, illegal: Illegal = "lose"
) -> UnbeatableEnv:
    """The environment of ``game`` without PettingZoo's wrappers."""
    return UnbeatableEnv(game, render_mode, illegal)


def env(
    game: str | api.Game[Any, Any], render_mode: str | None = None, illegal: Illegal = "lose"
) -> AECEnv:
    """The AEC environment of ``game`` (a name or a rules object that
    describes its board), inside PettingZoo's order checks as its own games
    are: ``reset`` before ``step``. ``render_mode``: ``"ansi"`` or ``"human"``;
    ``illegal``: what an illegal action does (:data:`Illegal`; an action
    outside the action space always raises :class:`IllegalActionError`).
    Raises :class:`api.GameError` for a game without a board."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, render_mode, illegal))


class UnbeatableAgent:
    """The library's AI at ``level`` (``"impossible"``: perfect play, never
    losing; ``"medium"``, ``"easy"``), as a PettingZoo policy for ``game``.

    It plays in this module's environments, where it reads the exact
    position, and in PettingZoo's own ``connect_four_v3`` and ``tictactoe_v3``
    (see :data:`NUMBERINGS`), where it reads the board from the observation.
    ``seed`` makes the weaker levels' choices repeatable; ``time_limit`` is
    each move's budget in seconds (None: the game's default, as in the
    terminal game; past it the move is the engine's best guess).
    """

    def __init__(
        self,
        game: str | api.Game[Any, Any],
        level: str = "impossible",
        *,
        seed: int | None = None,
        time_limit: float | None = None,
    ) -> None:
        self.game, self.description = _board_game(game)
        self.level = api.Level(level)
        self.time_limit = time_limit
        self._rng = random.Random(seed)
        self._players = {
            side.mark.lower(): player
            for side, player in zip(self.description.sides, self.game.players, strict=True)
        }

    def __repr__(self) -> str:
        return f"UnbeatableAgent({self.game.name!r}, {str(self.level)!r})"

    def act(self, environment: AECEnv) -> int:
        """The action for the agent to move in ``environment`` (an AEC
        environment of this module or a PettingZoo game of :data:`NUMBERINGS`,
        wrapped or not). Raises :class:`ValueError` for another environment or
        another game, :class:`api.GameOverError` when the game is over."""
        inner = environment.unwrapped
        if isinstance(inner, UnbeatableEnv):
            if inner.game.name != self.game.name:
                raise ValueError(f"this agent plays {self.game.name}, not {inner.game.name}")
            return self._choose(inner.position, inner.numbering)
        name = str(inner.metadata.get("name")) if hasattr(inner, "metadata") else str(inner)
        numbering = NUMBERINGS.get(name)
        if numbering is None:
            known = ", ".join(NUMBERINGS)
            raise ValueError(
                f"UnbeatableAgent plays this library's environments and {known}, not {name}"
            )
        return self.act_on(environment.observe(environment.agent_selection), numbering)

    def act_on(
        self, observation: Mapping[str, Any], numbering: Numbering | str | None = None
    ) -> int:
        """The action for an ``observation`` alone, numbered as ``numbering``
        says (a :class:`Numbering`, a name of :data:`NUMBERINGS`, or None for
        this library's). The position is read from the planes, so it must be
        one where the players have alternated from an empty board (the side
        to move follows from the counts), as in every board game here."""
        numbered = self._numbering(numbering)
        position = self.position(observation, numbered)
        action = self._choose(position, numbered)
        mask = observation.get("action_mask")
        if mask is not None and not np.asarray(mask)[action]:  # a numbering that does not fit
            raise ValueError(f"{numbered.name}: the action mask forbids action {action}")
        return action

    def position(
        self, observation: Mapping[str, Any], numbering: Numbering | str | None = None
    ) -> str:
        """The position an observation shows, in the game's notation (the
        board's rows and the side to move: the first player when both have
        as many stones)."""
        numbered = self._numbering(numbering)
        first, second = (side.mark.lower() for side in self.description.sides)
        # Which mark is the observer's: the first player's when the counts are equal.
        planes = np.asarray(observation["observation"])
        own, theirs = int(planes[..., 0].sum()), int(planes[..., 1].sum())
        mover, other = (first, second) if own == theirs else (second, first)
        rows = numbered.board(planes, mover, other)
        return api.view(self.game, "/".join(rows) + " " + self._players[mover]).position

    def _numbering(self, numbering: Numbering | str | None) -> Numbering:
        """The numbering asked for, checked against the agent's board."""
        if numbering is None:
            return Numbering.of(self.description)
        if isinstance(numbering, str):
            if numbering not in NUMBERINGS:
                raise ValueError(
                    f"unknown numbering {numbering!r} (known: {', '.join(NUMBERINGS)})"
                )
            numbering = NUMBERINGS[numbering]
        description = self.description
        board = (description.rows, description.columns, description.gravity, description.moves_from)
        if (numbering.rows, numbering.columns, numbering.gravity, numbering.moves_from) != board:
            raise ValueError(
                f"{numbering.name} is a {numbering.columns}x{numbering.rows} board; "
                f"this agent plays {self.game.name} "
                f"({self.description.columns}x{self.description.rows})"
            )
        return numbering

    def _choose(self, position: str, numbering: Numbering) -> int:
        """The level's move in ``position``, as ``numbering``'s action."""
        chosen = api.choose_move(self.game, position, self.level, self._rng, self.time_limit)
        if chosen is None:
            raise api.GameOverError(f"{position!r} is finished: there is no action to choose")
        cell = next(c for c in api.view(self.game, position).moves if c.move == chosen.move)
        return numbering.action(cell.row, cell.col, cell.origin)


__all__ = [
    "AGENTS",
    "NUMBERINGS",
    "IllegalActionError",
    "Numbering",
    "UnbeatableAgent",
    "UnbeatableEnv",
    "board_text",
    "env",
    "raw_env",
]
