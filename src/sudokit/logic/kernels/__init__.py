"""The compiled (Numba) kernels of the technique engine, one module per family.

Each kernel repeats, on arrays, the search of a Python finder of
:mod:`sudokit.logic.techniques` (or of :mod:`sudokit.logic.chain_links`,
:mod:`sudokit.logic.dynamic`) in the same order and with the same tests, and returns only what
the step is made of (numbers, paths); the Python side builds the
:class:`~sudokit.logic.step.Step`. Tests hold each kernel equal to its Python reference on every
state of many solves. Candidate masks are uint64 in the ladder's kernels and int64 in the
chains' (bit d - 1 for digit d; the chain techniques run up to side 16).

* :mod:`.ladder`: which cheap technique of a ladder run finds a step first (:func:`~.ladder.
  first_found`), over :mod:`.singles`, :mod:`.subsets` (and basic fish), :mod:`.wings` (and
  uniqueness) and :mod:`.single_digit`; :mod:`.common` holds their helpers and the state's
  two kernels (placing the givens, the places of each digit);
* chains: :mod:`.arrays` (what they read), :mod:`.links`, :mod:`.walk`, :mod:`.rank`;
  :mod:`.forcing` (singles after an assumption), :mod:`.als`, :mod:`.cycles`.

Nothing is imported here: importing a kernel module loads Numba, which the package defers to
first use. Kernels are cached on disk (:mod:`sudokit.fast.cache`; its ``KERNEL_SOURCES`` must
cover ``logic/kernels/*.py``, since Numba checks a cached kernel only against its own file and a
kernel inlines the kernels it calls from the other modules here).
"""

__all__: list[str] = []
