"""The chain code of the technique engine: chains of implications between candidates, their
searches (Python and compiled), their ratings and the chain techniques.

* alternating inference chains (AIC, X- and XY-chains, grouped nodes): the technique
  :mod:`.aic`, the search :mod:`.search`, the links and the Python search :mod:`.links`, the
  ratings :mod:`.rating`, the compiled searches driven from Python :mod:`.walkers` over the
  kernels :mod:`._links_kernel`, :mod:`._walk_kernel` and :mod:`._rank_kernel`;
* the Bidirectional Y-Cycle: :mod:`.cycles` and its kernel :mod:`._cycles_kernel`;
* forcing chains: the consequences of an assumption by singles :mod:`.dynamic` (also the trial
  step's search), the digit, cell and unit forcing chains :mod:`.forcing` and their kernel
  :mod:`._forcing_kernel`, the forcing chains through drawn rules :mod:`.rule_forcing`.

The technique modules register themselves (:mod:`sudokit.logic.registry` loads every module
here whose name does not start with ``_``). Nothing is imported here: a kernel module
(``_*_kernel.py``) loads Numba, which the package defers to first use; the kernels inline the
shared helpers of :mod:`sudokit.logic.kernels` and are cached on disk
(:data:`sudokit.fast.cache.KERNEL_SOURCES` covers them).
"""

__all__: list[str] = []
