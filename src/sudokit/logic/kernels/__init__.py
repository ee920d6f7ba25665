"""The compiled (Numba) kernels of the technique engine, one module per family.

Each kernel repeats, on arrays, the search of a Python finder of
:mod:`sudokit.logic.techniques` in the same order and with the same tests, and returns only
what the step is made of (numbers, paths); the Python side builds the
:class:`~sudokit.logic.step.Step`. Tests hold each kernel equal to its Python reference on every
state of many solves. Candidate masks are uint64 in the ladder's kernels and int64 in the
chains' (bit d - 1 for digit d; the chain techniques run up to side 16).

* :mod:`.ladder`: which cheap technique of a ladder run finds a step first (:func:`~.ladder.
  first_found`), over :mod:`.singles`, :mod:`.subsets` (and basic fish), :mod:`.wings` (and
  uniqueness) and :mod:`.single_digit`; :mod:`.common` holds their helpers and the state's
  two kernels (placing the givens, the places of each digit);
* :mod:`.arrays`: what the chain, ALS and forcing kernels read; :mod:`.als`. The chain
  kernels live with the chain code, in :mod:`sudokit.logic.chains` (``_*_kernel.py``).

Nothing is imported here: importing a kernel module loads Numba, which the package defers to
first use. Kernels are cached on disk (:mod:`sudokit.fast.cache`; its ``KERNEL_SOURCES`` must
cover ``logic/kernels/*.py`` and the ``_*_kernel.py`` modules of ``logic/``, since Numba
checks a cached kernel only against its own file and a kernel inlines the kernels it calls from
the other modules here).
"""

__all__: list[str] = []
