"""Variant names as users write them: ``--variant NAME`` and ``# variant: NAME`` lines.

A name combines, with ``+`` (or ``,``), any of

* the whole-grid rules of :class:`~sudokit.model.constraints.Variant`: ``diagonal`` (both
  diagonals; ``main-diagonal`` or ``anti-diagonal`` for one), ``hyper``, ``disjoint``,
  ``anti-knight``, ``anti-king``, ``non-consecutive`` (and ``standard``: none);
* the puzzle types whose constraints a file holds: ``jigsaw`` (regions replace the boxes),
  ``killer`` (cages with sums), ``even-odd`` (cells marked even or odd). A reader finds these in
  the file when it can; the name says which one a file means where it cannot tell (a Janko
  file's second grid of ids: jigsaw regions or killer cages) and makes a file without them an
  error;
* at most one overlapping layout of :data:`~sudokit.model.layouts.LAYOUTS`: ``samurai``,
  ``butterfly``, ``sumo``, ``windmill``, ``gattai-8``, ``shogun``, ``sohei``, ``clueless-1``,
  ``clueless-2`` (a file cannot say which of the 21x21 or 27x27 layouts it is drawn on).

Names are case-insensitive; ``_`` stands for ``-``; ``16x16`` style folder names are not names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from ..errors import InvalidPuzzle
from .constraints import VARIANT_NAMES, Variant
from .geometry import Geometry
from .layouts import LAYOUT_NAMES, LAYOUTS

__all__ = ["ALL_NAMES", "TYPE_NAMES", "VariantLike", "VariantSpec", "parse_spec",
           "spec_of_folder", "spec_of_geometry"]

TYPE_NAMES = ("jigsaw", "killer", "even-odd")
"""The puzzle types whose constraints the file holds (regions, cages, parity marks)."""

ALL_NAMES = (*VARIANT_NAMES, *TYPE_NAMES, *LAYOUT_NAMES)
"""Every single name :func:`parse_spec` reads (combine them with ``+``)."""

_ALIASES = {"evenodd": "even-odd", "odd-even": "even-odd",
            "gattai8": "gattai-8", "clueless1": "clueless-1", "clueless2": "clueless-2"}


@dataclass(frozen=True)
class VariantSpec:
    """What a variant name asks for.

    Attributes:
        rules: the whole-grid rules (combinable flags).
        kinds: which of :data:`TYPE_NAMES` the puzzles must have (a subset; empty: whatever
            the file holds).
        layout: the name of an overlapping layout, or None for one grid.
    """

    rules: Variant = Variant.STANDARD
    kinds: frozenset[str] = frozenset()
    layout: str | None = None

    @property
    def is_rules_only(self) -> bool:
        """True when the name is only whole-grid rules (what plain line form can carry)."""
        return not self.kinds and self.layout is None

    @property
    def text(self) -> str:
        """The name back: ``"samurai"``, ``"killer+diagonal"``, ``"standard"``."""
        parts = [p for p in (self.layout, *sorted(self.kinds, key=TYPE_NAMES.index)) if p]
        if self.rules is not Variant.STANDARD or not parts:
            parts.append(self.rules.text)
        return "+".join(parts)


VariantLike = Union[Variant, str, VariantSpec]
"""What the readers take as a variant: whole-grid rules, a name (see the module docstring) or a
parsed :class:`VariantSpec`."""


def parse_spec(text: VariantLike) -> VariantSpec:
    """Read a variant name (see the module docstring), e.g. ``"killer+diagonal"``.

    Raises:
        InvalidPuzzle: a part that is no name (the message lists the names), or two layouts.

    >>> parse_spec("Samurai").layout, parse_spec("killer+Diagonal").text
    ('samurai', 'killer+diagonal')
    """
    if isinstance(text, VariantSpec):
        return text
    if isinstance(text, Variant):
        return VariantSpec(text)
    rules, kinds, layout = Variant.STANDARD, set(), None
    for part in text.replace(",", "+").split("+"):
        name = part.strip().lower().replace("_", "-").replace(" ", "-")
        name = _ALIASES.get(name, name)
        if name in ("", "standard"):
            continue
        if name in TYPE_NAMES:
            kinds.add(name)
        elif name in LAYOUTS:
            if layout not in (None, name):
                raise InvalidPuzzle(f"expected one layout, got {layout} and {name}")
            layout = name
        else:
            try:
                rules |= Variant(name)
            except ValueError:
                raise InvalidPuzzle(f"expected a variant ({', '.join(ALL_NAMES)}; combine "
                                    f"them with +), found {part.strip()!r}") from None
    return VariantSpec(rules, frozenset(kinds), layout)


def spec_of_folder(folder: str) -> VariantSpec | None:
    """The variant of a folder named after Janko's puzzle types (``SamuraiSudoku``,
    ``Gattai8Sudoku``, ``KillerSudoku``, ``16x16Sudoku`` -> standard), or None for another
    folder name.

    >>> spec_of_folder("Gattai8Sudoku").layout, spec_of_folder("data")
    ('gattai-8', None)
    """
    name = folder.lower()
    if not name.endswith("sudoku"):
        return None
    name = name[: -len("sudoku")].strip("-_ ")
    if name and name.replace("x", "").isdigit():
        return VariantSpec()
    try:
        return parse_spec(name) if name else VariantSpec()
    except InvalidPuzzle:
        return None


def spec_of_geometry(geometry: Geometry) -> VariantSpec:
    """The variant a geometry has, as a name would ask for it: its rules, its types (jigsaw,
    killer, even-odd) and its layout's name (None for a layout that is not named).

    >>> spec_of_geometry(Geometry.of(3, 3, "diagonal", parity="e" * 81)).text
    'even-odd+diagonal'
    """
    layout = next((name for name, lay in LAYOUTS.items() if lay == geometry.layout), None)
    return VariantSpec(geometry.variant, frozenset(geometry.features) & set(TYPE_NAMES),
                       layout)
