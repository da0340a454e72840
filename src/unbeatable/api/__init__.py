"""The library's front door: analyse, solve and play any registered game.

Every function takes a game (its registry name or a :class:`Game` object) and a
position (its notation or a position object), so the CLI, the web API and
Python users share one code path; or one :class:`Request`, the question
resolved once at the door (:func:`ask`: the rules object, the position
parsed, the level, the budget). Engines are created once per process and
keep what they learn, so repeated queries get faster.

Names: a :class:`Game` (the rules object) is called ``game`` throughout the
library; here a ``game`` parameter may also be a registry name, and once
resolved the same name holds the object. The library writes British English
(``analyse``, ``normalise``, ``colour``) with one exception kept for
compatibility: ``analyze``, the public function, the CLI command and the
``/api/analyze`` endpoint.

Answers are typed values (:class:`Analysis`, :class:`Solution`, :class:`View`,
:class:`Status`, :class:`Turn`, :class:`TracedTree`, :class:`Review`), each
with ``to_dict()`` for its JSON: the faces (the CLI and the web server)
import only this package and render or send what it answers.

The package's modules, each one concern: :mod:`.request` (the door: the
request, the budget and its one meaning), :mod:`.engines` (the engines, their
one bounded cache and what the process has learnt), :mod:`.values`
(``analyze``, ``best_move``, ``solve``), :mod:`.turn` (the AI's move and
turn), :mod:`.views` (positions and games as faces show them),
:mod:`.explanations` (the game's words), :mod:`.reviews` (a game looked back
on), :mod:`.trees` (traced trees), :mod:`.notes` (what the library says on
the ``unbeatable`` logger). Every name is importable from here; the tools
(the tracer, perft, the game's words, the review) load on first use, so
``import unbeatable.api`` stays light.

Every function is safe to call from several threads at once: each search
keeps its own state, the tables engines share are made to be raced on (a race
can lose an entry, never make one wrong), and the caches here are locked.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from unbeatable.api.engines import (
    ALGORITHMS,
    ENGINES_KEPT,
    Algorithm,
    book_builder,
    cache_dir,
    cache_size,
    clear_cache,
    clear_caches,
    default_time_limit,
    engine,
    knows,
    policy,
    use_book,
    warm,
)
from unbeatable.api.notes import NoteLines, show_notes
from unbeatable.api.notes import log as log  # the library's logger (tests read its handlers)
from unbeatable.api.request import (
    ANSWER_RESERVE,
    GAME_DEFAULT,
    STOPPED,
    Default,
    Request,
    ask,
    budget,
    limits,
    resolve,
)
from unbeatable.api.values import Solution, analyze, best_move, solve
from unbeatable.games import (
    Description,
    Game,
    GameError,
    IllegalMoveError,
    InvalidPositionError,
    UnknownGameError,
    describe_all,
    game_names,
    get_game,
    naming,
    normalise,
    offered,
    plugins,
)
from unbeatable.search.analysis import Analysis, MoveValue, value_letters, value_words
from unbeatable.search.engine import UNLIMITED, Progress, Result
from unbeatable.search.levels import Level
from unbeatable.solvers import Policy

if TYPE_CHECKING:
    from unbeatable.api.explanations import (
        Explanation,
        Forbidden,
        Group,
        Mark,
        Note,
        explain,
        in_words,
        threat,
    )
    from unbeatable.api.reviews import REVIEW_TOTAL, review
    from unbeatable.api.trees import textbook_tree, tree
    from unbeatable.api.turn import (
        VARIETY_MOVES,
        VARIETY_SHARE,
        GameOverError,
        Turn,
        ai_turn,
        choose_move,
        equally_good,
        quick_move,
    )
    from unbeatable.api.views import (
        Cell,
        GameInfo,
        Status,
        View,
        describe,
        game_info,
        play_move,
        set_up,
        status,
        view,
    )
    from unbeatable.search.explore import (
        CUTOFFS,
        TREE_ALGORITHMS,
        Cutoff,
        TracedTree,
        TraceStep,
        TreeAlgorithm,
        TreeNode,
        TreeTooLarge,
    )
    from unbeatable.search.perft import Forecast as PerftForecast
    from unbeatable.search.perft import Perft, perft
    from unbeatable.search.perft import forecast as perft_forecast
    from unbeatable.search.perft import leaves as perft_leaves
    from unbeatable.search.perft import small_tree as perft_small_tree
    from unbeatable.search.review import Review, ReviewedMove
    from unbeatable.search.review import Value as ReviewValue

#: Names loaded on first use: name -> (module, attribute). The turn and the
#: views are the play's; the rest are tools (the game's words, the review,
#: the tracer, perft), so that ``import unbeatable.api`` (a one-shot
#: ``analyze --json``) stays light without them.
_LAZY: dict[str, tuple[str, str]] = {
    **{
        name: ("unbeatable.api.turn", name)
        for name in (
            "VARIETY_MOVES",
            "VARIETY_SHARE",
            "GameOverError",
            "Turn",
            "ai_turn",
            "choose_move",
            "equally_good",
            "quick_move",
        )
    },
    **{
        name: ("unbeatable.api.views", name)
        for name in (
            "Cell",
            "GameInfo",
            "Status",
            "View",
            "describe",
            "game_info",
            "play_move",
            "set_up",
            "status",
            "view",
        )
    },
    **{
        name: ("unbeatable.api.explanations", name)
        for name in (
            "Explanation",
            "Forbidden",
            "Group",
            "Mark",
            "Note",
            "explain",
            "in_words",
            "threat",
        )
    },
    "REVIEW_TOTAL": ("unbeatable.api.reviews", "REVIEW_TOTAL"),
    "review": ("unbeatable.api.reviews", "review"),
    "Review": ("unbeatable.search.review", "Review"),
    "ReviewedMove": ("unbeatable.search.review", "ReviewedMove"),
    "ReviewValue": ("unbeatable.search.review", "Value"),
    "tree": ("unbeatable.api.trees", "tree"),
    "textbook_tree": ("unbeatable.api.trees", "textbook_tree"),
    **{
        name: ("unbeatable.search.explore", name)
        for name in (
            "CUTOFFS",
            "Cutoff",
            "TREE_ALGORITHMS",
            "TracedTree",
            "TraceStep",
            "TreeAlgorithm",
            "TreeNode",
            "TreeTooLarge",
        )
    },
    "Perft": ("unbeatable.search.perft", "Perft"),
    "perft": ("unbeatable.search.perft", "perft"),
    "perft_leaves": ("unbeatable.search.perft", "leaves"),
    "PerftForecast": ("unbeatable.search.perft", "Forecast"),
    "perft_forecast": ("unbeatable.search.perft", "forecast"),
    "perft_small_tree": ("unbeatable.search.perft", "small_tree"),
    "MNK_MAX_SIDE": ("unbeatable.games.mnk", "MAX_SIDE"),
}


#: Computed from the game registry and the installed plug-ins on each access
#: (see :mod:`unbeatable.games`): the offered games and how to name any game.
OFFERED: tuple[str, ...]
NAMING: str
#: The biggest board side of the m,n,k family (what the Gomocup brain accepts).
MNK_MAX_SIDE: int


def __getattr__(name: str) -> Any:
    if name == "OFFERED":
        return offered()
    if name == "NAMING":
        return naming()
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = _LAZY[name]
    value = getattr(import_module(module), attribute)
    globals()[name] = value  # imported once: later look-ups are plain attributes
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "OFFERED", "NAMING"})


__all__ = [
    "ALGORITHMS",
    "ANSWER_RESERVE",
    "CUTOFFS",
    "ENGINES_KEPT",
    "GAME_DEFAULT",
    "MNK_MAX_SIDE",
    "NAMING",
    "OFFERED",
    "REVIEW_TOTAL",
    "STOPPED",
    "TREE_ALGORITHMS",
    "UNLIMITED",
    "VARIETY_MOVES",
    "VARIETY_SHARE",
    "Algorithm",
    "Analysis",
    "Cell",
    "Cutoff",
    "Default",
    "Description",
    "Explanation",
    "Forbidden",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "Group",
    "IllegalMoveError",
    "InvalidPositionError",
    "Level",
    "Mark",
    "MoveValue",
    "Note",
    "NoteLines",
    "Perft",
    "PerftForecast",
    "Policy",
    "Progress",
    "Request",
    "Result",
    "Review",
    "ReviewValue",
    "ReviewedMove",
    "Solution",
    "Status",
    "TraceStep",
    "TracedTree",
    "TreeAlgorithm",
    "TreeNode",
    "TreeTooLarge",
    "Turn",
    "UnknownGameError",
    "View",
    "ai_turn",
    "analyze",
    "ask",
    "best_move",
    "book_builder",
    "budget",
    "cache_dir",
    "cache_size",
    "choose_move",
    "clear_cache",
    "clear_caches",
    "default_time_limit",
    "describe",
    "describe_all",
    "engine",
    "equally_good",
    "explain",
    "game_info",
    "game_names",
    "get_game",
    "in_words",
    "knows",
    "limits",
    "naming",
    "normalise",
    "offered",
    "perft",
    "perft_forecast",
    "perft_leaves",
    "perft_small_tree",
    "play_move",
    "plugins",
    "policy",
    "quick_move",
    "resolve",
    "review",
    "set_up",
    "show_notes",
    "solve",
    "status",
    "textbook_tree",
    "threat",
    "tree",
    "use_book",
    "value_letters",
    "value_words",
    "view",
    "warm",
]
