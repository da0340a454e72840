"""Why a move: an analysis put into the game's words, once, for every face.

An analysis gives values ("loss in 2"); a teacher of the game says what a move
does ("blocks x's four (g8-j11)") and sums a position up ("k12 is the only
move: every other loses to x's four (g8-j11)"). :func:`explain` joins the two:
the values and lines of best play from the analysis, the threats from the
rules (:mod:`unbeatable.games.threats`, for k in a row with k of 4 or more).
Moves of equal value whose best play goes the same way are said in one line
(:class:`Group`); a position where every move loses is said once. The
terminal and the page show these sentences as they are, so both say the same.

:func:`explain` and :func:`threat` are the api's (:mod:`unbeatable.api`
re-exports them and the types): they read the rules and the analysis, and
faces read them.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from unbeatable.api.request import GAME_DEFAULT, TimeLimit, asked
from unbeatable.api.request import resolve as _resolve
from unbeatable.api.values import analysis as _analysis_of
from unbeatable.games import GameError
from unbeatable.games import threats as _threats
from unbeatable.games.base import Game
from unbeatable.search.analysis import Analysis, MoveValue, rank
from unbeatable.search.engine import Outcome
from unbeatable.search.explanation import (
    Does,
    Explanation,
    Forbidden,
    Group,
    Mark,
    MarkKind,
    Note,
    joined,
)

#: Moves of a line said in words (Gomoku's lines run long).
LINE_SAID = 9
#: Moves named in a group before the rest are counted.
NAMED = 5
#: Groups said one by one; the rest are counted by value.
GROUPS_SAID = 8
#: Moves named as "the only moves" when every other loses.
FEW = 3


def threat_name(game: Game[Any, Any], position: Any, value: MoveValue) -> str | None:
    """How ``value``'s proven line wins by threats alone, in the rules'
    words (``"continuous fours"``, from the game's ``threat_win`` hook), or
    None: a game without the hook, a value not proven, or a line cut short
    by the time budget (it proves nothing) say nothing. Remembered for the
    last few thousand lines: the web names every move's threat, then its
    explanation names them again."""
    if value.result not in ("win", "loss") or len(value.line) != value.plies:
        return None
    rules: Any = game  # rules objects hash by identity
    try:
        return _threat_name(rules, position, value.line)
    except TypeError:  # a position that cannot be a key: read afresh
        return _threat_name.__wrapped__(rules, position, value.line)


@lru_cache(maxsize=1 << 12)
def _threat_name(game: Game[Any, Any], position: Any, line: tuple[str, ...]) -> str | None:
    name_of = getattr(game, "threat_win", None)
    if name_of is None:
        return None
    moves, after = [], position
    try:
        for text in line:
            move = game.parse_move(after, text)
            moves.append(move)
            after = game.play(after, move)
    except GameError:
        return None
    name: str | None = name_of(position, moves)
    return name


def supports(game: Game[Any, Any]) -> bool:
    """Whether :func:`explained` has the game's words for its moves: k in a
    row with k of 4 or more (the m,n,k-games, Gomoku)."""
    return _threats.supports(game)


def explained(
    game: Game[Any, Any], position: Any, analysis: Analysis, chosen: str | None = None
) -> Explanation:
    """``analysis`` of ``position`` in the game's words: what each move does,
    the position in one sentence (the only move, every move losing, equally
    good moves), the moves in lines of equal value, and the threats on the
    board. ``chosen``, the move played, gets a line of its own. A game whose
    threats the rules do not name (:func:`supports`) gets no words: an empty
    explanation."""
    if not supports(game) or not analysis.moves:
        return Explanation(None, (), None, (), (), {})
    return _Explainer(game, position, analysis, chosen).explanation()


def threat(game: str | Game[Any, Any], position: Any, value: MoveValue) -> str | None:
    """How ``value``'s proven line wins by threats alone, in the rules' words
    (``"continuous fours"``, from the game's ``threat_win`` hook), or None: a
    game without the hook, a value not proven, or a line cut short by the
    time budget (it proves nothing) say nothing. Every face names threats
    from here."""
    rules, pos = _resolve(game, position)
    return threat_name(rules, pos, value)


def explain(
    game: str | Game[Any, Any],
    position: Any,
    analysis: Analysis | None = None,
    *,
    chosen: str | None = None,
    time_limit: TimeLimit = None,
    stop: threading.Event | None = None,
) -> Explanation:
    """Why: ``analysis`` of ``position`` (by default :func:`analyze`'s, within
    ``time_limit``: None or :data:`GAME_DEFAULT` for the game's default,
    seconds, ``math.inf`` for none) in the game's words, for k in a row with
    k of 4 or more (Gomoku, the m,n,k-games): what each move does (``blocks
    x's four (g8-j11)``, ``makes an open four (h8-k8)``), the position in one
    sentence (``k12 is the only move: every other loses to x's four
    (g8-j11).``, ``Every move loses: x has a four-three at h9; k12 holds out
    longest (loss in 6).``), the moves in lines of equal value, the fours and
    open threes of both sides and, in renju, black's forbidden points.
    ``chosen`` (the move played) gets a line of its own. Other games get an
    empty explanation (their analysis says it all). :func:`in_words` puts it
    on the analysis (the ``explanation`` and each move's ``notes``)."""
    request = asked(game, position, GAME_DEFAULT, time_limit, stop=stop)
    if analysis is None:
        analysis = _analysis_of(request)
    return explained(request.game, request.position, analysis, chosen)


def in_words(
    game: str | Game[Any, Any], position: Any, analysis: Analysis, *, chosen: str | None = None
) -> Analysis:
    """``analysis`` of ``position`` with what a face without rules cannot
    work out: each move's :attr:`~MoveValue.threat` (:func:`threat`) and,
    where the rules name threats (k in a row, k >= 4), each move's
    :attr:`~MoveValue.notes` and the analysis' :attr:`~Analysis.explanation`
    (:func:`explain`; ``chosen``, the move played, said on its own). The web
    sends this; its ``to_dict()`` writes them where they are."""
    rules, pos = _resolve(game, position)
    explanation = explained(rules, pos, analysis, chosen)
    said = bool(explanation.notes)  # a game whose moves have no words keeps its JSON
    moves = tuple(
        value._replace(
            threat=threat_name(rules, pos, value),
            notes=explanation.notes.get(value.move, ()) if said else None,
        )
        for value in analysis.moves
    )
    best = analysis.best
    if best is not None:
        best = next((value for value in moves if value.move == best.move), best)
    return analysis._replace(best=best, moves=moves, explanation=explanation if said else None)


class _Explainer:
    """The words of one analysis."""

    def __init__(self, game: Any, position: Any, analysis: Analysis, chosen: str | None) -> None:
        self.game, self.position, self.analysis = game, position, analysis
        self.mover = analysis.to_move
        self.other = next(p for p in game.players if p != self.mover)
        self.board = _threats.read(game, position)
        self.chosen = chosen
        near = set(_threats.near(game, position.cells))
        empty = _threats.MoveFacts(0, self.mover, None, (), ())
        self.facts = {
            m.move: (
                _threats.move_facts(game, position, m.raw, self.board) if m.raw in near else empty
            )
            for m in analysis.moves
        }
        self.said = {move: self.notes(move) for move in self.facts}
        self.phrases = {move: [note.words for note in notes] for move, notes in self.said.items()}

    def side(self, mark: str) -> str:
        return _threats.side_word(self.game, mark)

    def explanation(self) -> Explanation:
        groups, more = self.groups()
        return Explanation(
            self.summary(),
            groups,
            more,
            tuple(self.mark(shape) for shape in self.board.shapes),
            tuple(self.forbidden(cell, why) for cell, why in sorted(self.board.forbidden.items())),
            self.said,
        )

    # -- the board and the moves' facts --

    def names(self, cells: Sequence[int]) -> tuple[str, ...]:
        return tuple(self.game.format_move(cell) for cell in cells)

    def mark(self, shape: _threats.Shape) -> Mark:
        game = self.game
        return Mark(
            shape.side,
            MarkKind(shape.kind.value),
            _threats.shape_name(shape.kind, game.k),
            self.names(shape.stones),
            self.names(shape.points),
            _threats.shape_words(game, shape),
        )

    def forbidden(self, cell: int, reason: str) -> Forbidden:
        row, col = divmod(cell, self.game.columns)
        words = _threats.forbidden_words(self.game, reason)
        return Forbidden(self.game.format_move(cell), row, col, reason, words)

    def notes(self, move: str) -> tuple[Note, ...]:
        """What ``move`` does, in the order :func:`threats.move_words` says
        it: a five alone; else what it blocks and stops, the point it takes,
        what it makes."""
        facts = self.facts[move]
        phrases = _threats.move_words(self.game, facts)
        notes: list[Note] = []
        if facts.makes is _threats.Makes.five:
            stones = self.names(facts.made[0].stones)
            return (Note(Does.wins, facts.makes.value, facts.side, stones, phrases[0]),)
        for shape in facts.stops:
            does = Does.blocks if shape.kind is _threats.Kind.four else Does.stops
            stones = self.names(shape.stones)
            notes.append(Note(does, shape.kind.value, shape.side, stones, phrases[len(notes)]))
        if facts.takes is not None:
            said = phrases[len(notes)]
            notes.append(Note(Does.takes, facts.takes.value, self.other, (move,), said))
        if facts.makes is not None:
            stones = self.names(tuple(dict.fromkeys(c for s in facts.made for c in s.stones)))
            notes.append(Note(Does.makes, facts.makes.value, facts.side, stones, phrases[-1]))
        return tuple(notes)

    # -- lines of best play --

    def line_text(self, line: Sequence[str]) -> str:
        return " ".join(line[:LINE_SAID]) + (" …" if len(line) > LINE_SAID else "")

    def continuation(self, value: MoveValue) -> str:
        """What best play after ``value``'s move does, in words: ``x answers
        k12 and wins: five in a row (g8-k12)``; "" when nothing is proven."""
        if value.result == "unknown" or value.plies is None or value.plies <= 1:
            return ""
        mover, other = self.side(self.mover), self.side(self.other)
        line = value.line
        name = threat_name(self.game, self.position, value)
        if name is not None and value.result == "win":
            return f"{mover} wins by {name} in {value.plies}: {self.line_text(line)}"
        if name is not None:
            return (
                f"{other} answers {line[1]} and wins by {name} in {value.plies - 1}: "
                f"{self.line_text(line[1:])}"
            )
        if value.result == "draw":
            return "best play ends in a draw"
        if len(line) < 2:
            return ""
        made = self.reply(value)
        later = value.plies - 2
        if value.result == "loss" and later == 0:
            return f"{other} answers {line[1]} and wins" + (f": {made}" if made else "")
        making = f", making {made}," if made else ""
        if value.result == "loss":
            return f"{other} answers {line[1]}{making} and wins in {later} more"
        return f"{other} answers {line[1]}{making} and {mover} still wins in {later} more"

    def reply(self, value: MoveValue) -> str | None:
        """What the reply in ``value``'s line makes (``five in a row (g8-k12)``)."""
        game = self.game
        try:
            child = game.play(self.position, value.raw)
            answer = game.parse_move(child, value.line[1])
        except (GameError, IndexError):
            return None
        made = _threats.made_in_reply(game, self.position, value.raw, answer)
        return _threats.made_words(game, made)

    # -- the summary --

    def summary(self) -> str | None:
        analysis = self.analysis
        moves = analysis.moves
        best = analysis.best
        losses = [m for m in moves if m.result == "loss"]
        if len(losses) == len(moves) or analysis.result == "loss":
            return self.all_lose()  # every move proven to lose, or the position itself
        holding = [m for m in moves if m.result != "loss"]
        if len(holding) <= FEW and losses:
            return self.only(holding)
        if best is None or best.result == "unknown":
            phrases = [] if best is None else self.phrases[best.move]
            if best is None or not phrases:
                return None
            return f"{best.move} is the engine's best guess: it {joined(phrases)}."
        wins = [m for m in moves if m.result == "win"]
        proven = all(m.result != "unknown" for m in moves)
        phrases = self.phrases[best.move]
        does = f": it {joined(phrases)}" if phrases else ""
        then = self.continuation(best)
        does += f"; {then}" if then else ""
        if best.result == "win" and len(wins) == 1 and len(moves) > 1 and proven:
            return f"{best.move} is the only winning move ({best.words}){does}."
        equal = [m for m in moves if (m.result, m.plies) == (best.result, best.plies)]
        if len(equal) > 1:
            named = _listed(self.ordered([m.move for m in equal]))
            return f"{len(equal)} moves are equally good ({best.words}): {named}."
        return f"{best.move} is the best move ({best.words}){does}."

    def only(self, holding: Sequence[MoveValue]) -> str:
        """The few moves that do not lose (not proven to), and what every
        other loses to: the threats those moves all stop, else the other
        side's strongest threat."""
        stopped = [
            {_threats.shape_words(self.game, s) for s in self.facts[m.move].stops} for m in holding
        ]
        shared = sorted(set.intersection(*stopped)) if stopped else []
        if shared:
            to = " and ".join(shared)
        else:
            threat = _threats.threat_words(self.game, self.position, self.other, self.board)
            to = f"{self.side(self.other)}'s {_bare(threat)}" if threat else ""
        names = _listed(self.ordered([m.move for m in holding]))
        if len(holding) > 1:
            head = f"{names} are the only moves"
        elif holding[0].result == "unknown":
            head = f"{names} is the only move"
        else:
            head = f"{names} is the only move ({holding[0].words})"
        return f"{head}: every other loses" + (f" to {to}." if to else ".")

    def all_lose(self) -> str:
        """Every move loses: said once, with the threat that wins and the
        longest defence (the longest proven, when some moves were not
        valued in time: the position's value says they lose too)."""
        moves, best = self.analysis.moves, self.analysis.best
        plies = {m.plies for m in moves}
        proven = all(m.result == "loss" for m in moves)
        threat = _threats.threat_words(self.game, self.position, self.other, self.board)
        text = "Every move loses"
        if len(plies) == 1 and proven:
            text += f" in {plies.pop()}"
        if threat:
            text += f": {self.side(self.other)} has {threat}"
        if best is not None and best.result == "loss" and len(plies) > 1:
            longest = "holds out longest" if proven else "is the longest defence proven"
            text += f"; {best.move} {longest} ({best.words})"
        return text + "."

    # -- groups --

    def ordered(self, moves: Sequence[str]) -> list[str]:
        """Moves as a player reads them: nearest the centre first (the
        game's tie-break order), not in board order."""
        raw = {m.move: m.raw for m in self.analysis.moves}
        order = self.game.tie_break(self.position, [raw[m] for m in moves])
        by_raw = {r: m for m, r in raw.items()}
        return [by_raw[r] for r in order]

    def groups(self) -> tuple[tuple[Group, ...], str | None]:
        analysis = self.analysis
        best = analysis.best.move if analysis.best is not None else None
        alone = {best, self.chosen} - {None}
        keyed: dict[tuple[Any, ...], list[MoveValue]] = {}
        said = {m.move: self.continuation(m) for m in analysis.moves}
        for m in analysis.moves:
            # Lines that win by the same threats after the same reply are one
            # way of winning, whatever order their last moves come in.
            gist = said[m.move].split(": ")[0] if " by " in said[m.move] else said[m.move]
            key = (m.result, m.plies, gist, m.move if m.move in alone else None)
            keyed.setdefault(key, []).append(m)

        def order(key: tuple[Any, ...]) -> tuple[Any, ...]:
            # The move played first, then the analysis' best, then by value:
            # the fewer moves a line has, the sooner it is read.
            members = keyed[key]
            value = rank(Outcome(members[0].result, members[0].plies))
            alone = key[3]
            played = alone is not None and alone == self.chosen
            return (not played, alone is None or alone != best, -value[0], -value[1], len(members))

        groups = []
        keys = sorted(keyed, key=order)
        for key in keys[:GROUPS_SAID]:
            members = keyed[key]
            moves = self.ordered([m.move for m in members])
            groups.append(self.group(moves, members[0], said[members[0].move]))
        rest = [m for key in keys[GROUPS_SAID:] for m in keyed[key]]
        more = None
        if rest:
            counts = Counter(m.words for m in rest)
            listed = ", ".join(f"{n} {words}" for words, n in counts.most_common())
            more = f"{len(rest)} more moves: {listed}."
        return tuple(groups), more

    def group(self, moves: list[str], value: MoveValue, said: str) -> Group:
        phrases = [tuple(self.phrases[m]) for m in moves]
        shared = list(phrases[0]) if len(set(phrases)) == 1 else []
        parts = [joined(shared)] if shared else []
        if said:
            parts.append(said)
        best = self.analysis.best
        tag = ", best" if best is not None and moves == [best.move] else ""
        head = moves[0] if len(moves) == 1 else _listed(moves)
        words = f"{head} ({value.words}{tag})"
        words += f": {'; '.join(parts)}." if parts else "."
        return Group(tuple(moves), value.result, value.plies, words)


def _listed(moves: Sequence[str], most: int = NAMED) -> str:
    """``a1, b2, c3``, or ``a1, b2, c3, d4 and 212 others``."""
    if len(moves) <= most:
        return ", ".join(moves[:-1]) + f" and {moves[-1]}" if len(moves) > 1 else moves[0]
    return f"{', '.join(moves[: most - 1])} and {len(moves) - most + 1} others"


def _bare(phrase: str) -> str:
    """A noun phrase without its article: ``four-three at h9``."""
    for article in ("a ", "an "):
        if phrase.startswith(article):
            return phrase[len(article) :]
    return phrase


__all__ = [
    "Explanation",
    "Forbidden",
    "Group",
    "Mark",
    "Note",
    "explain",
    "in_words",
    "supports",
    "threat_name",
]
