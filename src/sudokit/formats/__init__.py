"""Text and bytes <-> puzzles and records: every form people bring and the forms we write.

* :mod:`~sudokit.formats.text`: :func:`read_puzzles`, :func:`parse_puzzle` and the writers
  (:func:`format_line`, :func:`format_grid`, :func:`format_side_by_side`, ...);
* :mod:`~sudokit.formats.lines`: one input line classified (:class:`Record`, :class:`Style`);
* :mod:`~sudokit.formats.grouping`: lines grouped into puzzles (grids, headers, integer forms);
* :mod:`~sudokit.formats.symbols`: symbols decoded to digits, and the errors naming a bad token;
* :mod:`~sudokit.formats.lineform`: line-form files decoded to arrays in bulk, over
  :mod:`~sudokit.formats.lineblocks` (bytes split into numbered lines) and
  :mod:`~sudokit.formats.linecodec` (byte tables, the chunk arrays, grids encoded back);
* :mod:`~sudokit.formats.lookup`: the compiled byte-table look-up behind those arrays;
* :mod:`~sudokit.formats.drawing`: text drawings of any geometry (regions, cages, layouts),
  by the line rules and marks of :mod:`~sudokit.formats.outline` (shared with HTML and PNG);
* :mod:`~sudokit.formats.janko`, :mod:`~sudokit.formats.compact`,
  :mod:`~sudokit.formats.fpuzzles`: Janko files, the compact line form, f-puzzles data;
  :mod:`~sudokit.formats.fpuzzles_stream` reads files of f-puzzles and SudokuPad lines,
  :mod:`~sudokit.formats.sudokupad` splits SudokuPad links by format and unzips SudokuPad's own
  data, which :mod:`~sudokit.formats.scl` reads (drawn elements without a stated rule refused).

Parsing knows nothing of solving: this package imports only :mod:`sudokit.model` and
:mod:`sudokit.errors`.
"""

from __future__ import annotations

from .text import (
                   DEFAULT_SYMBOLS,
                   EMPTY_MARKERS,
                   Record,
                   Style,
                   format_candidates,
                   format_grid,
                   format_line,
                   format_panels,
                   format_side_by_side,
                   needs_general_reader,
                   parse_alphabet,
                   parse_box,
                   parse_puzzle,
                   parse_variant,
                   read_puzzles,
)

__all__ = ["DEFAULT_SYMBOLS", "EMPTY_MARKERS", "Record", "Style", "format_candidates",
           "format_grid", "format_line", "format_panels", "format_side_by_side",
           "needs_general_reader", "parse_alphabet", "parse_box", "parse_puzzle",
           "parse_variant", "read_puzzles"]
