"""Stand-ins for the slide-frame sensor board, both speaking the real serial protocol.

* ``simavr_board.SimavrBoard``: the real firmware ELF run in simavr by the C harness of
  this folder (``passeframe_sim.c``), its UART on a pseudo-terminal.
* ``hardware.sim_board.SimulatedBoard`` (one level up): a pure-Python board for fast
  tests and ``passetable run --sim``, built from ``board_model`` (the protocol as the
  firmware speaks it), ``top_holes`` (the top-hole sensors with their faults and the
  firmware's drop counting), ``faults`` (switchable line faults) and ``pty_port``.
* ``virtual_link``: board model, faulty line and bridge logic in virtual time, for the
  fault-injection test and the benchmark.
* ``inline_board.InlineBoard``: the Python board, a faulty line and the bridge's logic
  run synchronously on any clock (a ``ManualClock``): the real protocol for tables that
  play in virtual time.
"""
