"""What the library says that a user may wonder about, and how faces show it.

Notes go to the ``unbeatable`` logger at INFO (an engine being readied;
problems, such as a broken plug-in, are warnings): a script using the
library hears nothing of them unless it configures :mod:`logging`. The
faces show them on stderr, one line each (:func:`show_notes`).
"""

from __future__ import annotations

import logging
import sys
import threading

#: The library's logger (its children: ``unbeatable.games``, ``unbeatable.web``).
log = logging.getLogger("unbeatable")


class NoteLines(logging.Handler):
    """The library's notes on stderr as a face shows them: ``unbeatable:
    NOTE``, one line each (see :func:`show_notes`). ``said`` holds every
    note shown, so that a face need not repeat one as an error."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.said: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = " ".join(record.getMessage().split())
            self.said.add(line)
            # Looked up now: the stream a test or a caller put in place.
            stream = sys.stderr
            text = f"unbeatable: {line}\n"
            if record.exc_info:  # a server's unhandled error: its traceback too
                text += logging.Formatter().formatException(record.exc_info) + "\n"
            stream.write(text)
            stream.flush()
        except Exception:  # pragma: no cover - as logging's own handlers do
            self.handleError(record)


_notes_lock = threading.Lock()


def show_notes() -> NoteLines:
    """Show the library's notes (the ``unbeatable`` loggers' lines at INFO
    and above: an engine being readied, a broken plug-in left out) on stderr,
    one line each: what the faces do (the command line, the server). Used as
    a library, Unbeatable says nothing below a warning by itself. Once per
    process: a second call returns the same handler."""
    with _notes_lock:
        for handler in log.handlers:
            if isinstance(handler, NoteLines):
                return handler
        notes = NoteLines()
        log.addHandler(notes)
        if log.level == logging.NOTSET:  # a level set on purpose stays
            log.setLevel(logging.INFO)
        return notes


__all__ = ["NoteLines", "log", "show_notes"]
