"""What loading the compiled engine costs a process (issue 39: the default path's hand-over
loads it in a child of its own, and every tenth of a second counts there)."""

from __future__ import annotations

import subprocess
import sys

from tests.helpers import ROOT

_LOAD = """
import sys
import sudokit.fast  # chooses the kernel cache, defines the kernels
from numba.core.registry import cpu_target
cpu_target.target_context.refresh()  # what the first kernel load does: every registry
import numba.np.arraymath as arraymath
import numba.np.linalg as linalg
print(sorted(name for name in ("scipy.linalg", "numpy.f2py") if name in sys.modules))
print(arraymath.ensure_blas is linalg.ensure_blas, linalg.ensure_blas.__module__)
"""


def test_the_engine_loads_without_scipy_and_keeps_numbas_blas_check() -> None:
    """Numba's BLAS probe (``scipy.linalg``, about 0.17 CPU seconds) is skipped when the
    engine loads (:func:`sudokit.fast.cache.skip_blas_probe`), and Numba's own
    ``ensure_blas`` is put back for kernels that would use ``np.dot``."""
    done = subprocess.run([sys.executable, "-c", _LOAD], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "True numba.np.linalg"]
