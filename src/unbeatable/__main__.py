"""``python -m unbeatable`` runs the command-line interface."""

from unbeatable.cli import main

main()
