"""Direct constructions of a magic square of every order n >= 3 (and n = 1), O(n²) with NumPy.

* odd n: the Siamese method (de la Loubère, 1693): 1 in the middle of the top row, then move up
  and right (wrapping around), dropping one cell down when the target is taken. Closed form for
  0-based (i, j): ``n * ((i + j + 1 + n // 2) % n) + (i + 2j + 1) % n + 1``.
* doubly even n = 4m: write 1..n² row-major, then replace v by n² + 1 - v on the cells with
  ``(i mod 4 in {0, 3}) == (j mod 4 in {0, 3})`` (the diagonals of every 4x4 block).
* singly even n = 4m + 2: Conway's LUX method: a Siamese square of order 2m + 1 gives each
  2x2 block its quarter; the blocks are filled in the order of the letters L (m + 1 rows),
  U (1 row) and X (m - 1 rows), with the middle U swapped with the L above it.

n = 2 has no magic square. References: S. de la Loubère, "Du Royaume de Siam", 1693;
J. H. Conway, LUX method, in W. W. Rouse Ball and H. S. M. Coxeter, "Mathematical Recreations
and Essays", 13th ed., 1987; MathWorks ``magic`` for the closed forms.
"""

from __future__ import annotations

import numpy as np

from ..errors import InvalidOption

__all__ = ["construct", "siamese", "doubly_even", "lux"]

# 2x2 fill orders of Conway's letters: quarter q of a block gets 4q + k for k = 1..4 here.
_L = np.array([[4, 1], [2, 3]])
_U = np.array([[1, 4], [2, 3]])
_X = np.array([[1, 4], [3, 2]])


def siamese(n: int) -> np.ndarray:
    """Return the Siamese magic square of odd order ``n`` as an (n, n) int64 array.

    Raises:
        InvalidOption: n is even or less than 1.

    >>> siamese(3).tolist()
    [[8, 1, 6], [3, 5, 7], [4, 9, 2]]
    """
    if n < 1 or n % 2 == 0:
        raise InvalidOption(f"the Siamese method needs an odd order, got {n}")
    i, j = np.indices((n, n), dtype=np.int64)
    return n * ((i + j + 1 + n // 2) % n) + (i + 2 * j + 1) % n + 1


def doubly_even(n: int) -> np.ndarray:
    """Return the doubly-even magic square of order ``n = 4m`` as an (n, n) int64 array.

    Raises:
        InvalidOption: n is not a positive multiple of 4.
    """
    if n < 4 or n % 4:
        raise InvalidOption(f"the doubly-even pattern needs an order divisible by 4, got {n}")
    square = np.arange(1, n * n + 1, dtype=np.int64).reshape(n, n)
    outer = np.isin(np.arange(n) % 4, (0, 3))
    flip = outer[:, None] == outer[None, :]
    square[flip] = n * n + 1 - square[flip]
    return square


def lux(n: int) -> np.ndarray:
    """Return Conway's LUX magic square of order ``n = 4m + 2`` (m >= 1) as an (n, n) array.

    Raises:
        InvalidOption: n is not 4m + 2 with m >= 1 (order 2 has no magic square).
    """
    if n < 6 or n % 4 != 2:
        raise InvalidOption(f"the LUX method needs an order 4m + 2 >= 6, got {n}")
    m, k = (n - 2) // 4, n // 2
    letters = np.zeros((k, k), dtype=np.int64)  # 0 = L, 1 = U, 2 = X
    letters[m + 1] = 1
    letters[m + 2:] = 2
    letters[m, m], letters[m + 1, m] = 1, 0
    patterns = np.stack([_L, _U, _X])  # (3, 2, 2)
    blocks = patterns[letters]  # (k, k, 2, 2)
    base = 4 * (siamese(k) - 1)
    return (blocks + base[:, :, None, None]).transpose(0, 2, 1, 3).reshape(n, n)


def construct(n: int) -> np.ndarray:
    """Return a magic square of order ``n`` by the construction for its kind, in O(n²).

    Args:
        n: the order: 1 or at least 3.

    Returns:
        An (n, n) int64 array holding 1..n² whose lines all sum to M(n).

    Raises:
        InvalidOption: n = 2 (no magic square of order 2 exists) or n < 1.

    >>> construct(4).sum(axis=0).tolist()
    [34, 34, 34, 34]
    """
    if n < 1 or n == 2:
        raise InvalidOption(f"no magic square of order {n} exists" if n == 2 else
                            f"the order must be at least 1, got {n}")
    if n % 2:
        return siamese(n)
    return doubly_even(n) if n % 4 == 0 else lux(n)
