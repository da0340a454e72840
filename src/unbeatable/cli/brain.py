"""``pbrain-unbeatable``'s entry point (the console script names this module).

The Gomocup protocol itself is :mod:`unbeatable.brain`, a face of its own
beside this command-line one; ``unbeatable brain`` runs the same."""

from __future__ import annotations

from unbeatable.brain import main, run

__all__ = ["main", "run"]

if __name__ == "__main__":  # python -m unbeatable.cli.brain
    main()
