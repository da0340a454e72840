"""Research environments over the library's games, one optional module each.

- :mod:`unbeatable.envs.pettingzoo`: a PettingZoo AEC environment for any
  board game of the library, and :class:`~unbeatable.envs.pettingzoo.UnbeatableAgent`,
  which plays at any level in it or in PettingZoo's own ``connect_four_v3``
  and ``tictactoe_v3`` (the ``pettingzoo`` extra).
- :mod:`unbeatable.envs.openspiel`: every board game of the library as an
  OpenSpiel game (``unbeatable_connect4``), and
  :func:`~unbeatable.envs.openspiel.bot`, the AI as a ``pyspiel.Bot``, which
  also plays OpenSpiel's own ``tic_tac_toe`` and ``connect_four`` (the
  ``openspiel`` extra).
- :mod:`unbeatable.envs.numbering`: the one numbering of a board's actions
  both use.

This package imports nothing: each environment module loads its framework
when it is itself imported, so ``import unbeatable`` (and this package) stay
as light as before. Like the faces, the environments reach the library only
through :mod:`unbeatable.api`; nothing in the library imports them.
"""
