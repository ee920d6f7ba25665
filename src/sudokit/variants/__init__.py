"""Variant Sudoku beyond the whole-grid rules: names, named layouts and the file forms that
hold regions, cages, even/odd marks and overlapping grids.

* :mod:`~sudokit.variants.layouts`: samurai, butterfly, sumo ... as
  :class:`~sudokit.geometry.Layout` values;
* :mod:`~sudokit.variants.names`: ``--variant`` / ``# variant:`` names (:class:`VariantSpec`);
* :mod:`~sudokit.variants.janko`: Otto Janko's files (header, givens, region or cage grids);
* :mod:`~sudokit.variants.compact`: the compact line form (givens, ids, sums on one line);
* :mod:`~sudokit.variants.fpuzzles`: f-puzzles data (JSON, f-puzzles and SudokuPad links).

:func:`sudokit.formats.read_puzzles` reads every one of these forms.
"""

from __future__ import annotations

from .janko import format_janko, format_janko_puzzle, janko_puzzle
from .layouts import LAYOUT_NAMES, LAYOUTS, layout_named, layouts_for_canvas
from .names import ALL_NAMES, TYPE_NAMES, VariantSpec, parse_spec, spec_of_folder

__all__ = ["ALL_NAMES", "LAYOUTS", "LAYOUT_NAMES", "TYPE_NAMES", "VariantSpec",
           "format_janko", "format_janko_puzzle", "janko_puzzle", "layout_named",
           "layouts_for_canvas", "parse_spec", "spec_of_folder"]
