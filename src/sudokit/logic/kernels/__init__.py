"""The compiled (Numba) helpers shared by the technique kernels.

Each technique's kernel lives beside its Python finder, with the same stem:
``logic/techniques/<family>.py`` and ``logic/techniques/_<family>_kernel.py`` (singles,
intersections, subsets, fish, wings, uniqueness, single_digit, als, als_wings), the chain
techniques' likewise in :mod:`sudokit.logic.chains`, the ladder's
(:mod:`sudokit.logic._ladder_kernel`) beside :mod:`sudokit.logic.ladder` and the candidates
state's (:mod:`sudokit.logic._state_kernel`) beside :mod:`sudokit.logic.state`. Each kernel
repeats, on arrays, the search of its Python finder in the same order and with the same tests,
and returns only what the step is made of (numbers, paths); the Python side builds the
:class:`~sudokit.logic.step.Step`. Tests hold each kernel equal to its Python reference on every
state of many solves (``tests/test_twins.py``). Candidate masks are uint64 in the ladder's
kernels and int64 in the chains' (bit d - 1 for digit d; the chain techniques run up to side 16).

Here: :mod:`.common` (bit helpers, the places of each digit, combinations) and :mod:`.arrays`
(the arrays of a board the chain, ALS and forcing kernels read).

Nothing is imported here: importing a kernel module loads Numba, which the package defers to
first use. Kernels are cached on disk (:mod:`sudokit.fast.cache`; its ``KERNEL_SOURCES`` must
cover ``logic/kernels/*.py`` and every ``_*_kernel.py`` of ``logic/``, since Numba checks a
cached kernel only against its own file and a kernel inlines the kernels it calls from other
modules).
"""

__all__: list[str] = []
