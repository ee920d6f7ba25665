"""What people see: Rich renderings, Matplotlib figures and the display methods of model values.

* :mod:`~sudokit.present.render`: terminal tables, progress and coloured grids (Rich), and the
  HTML grid of Jupyter displays;
* :mod:`~sudokit.present.plots`: Matplotlib figures of puzzles, traces and comparisons;
* :mod:`~sudokit.present.svg`: the board as SVG (Jupyter, ``sudokit serve``);
* :mod:`~sudokit.present.glyphs`: what to draw for every rule drawn on the grid (thermometers,
  arrows, dots, lines, outside clues), translated by ``svg`` and ``plots``;
* :mod:`~sudokit.present.display`: the functions behind ``Puzzle`` and ``Result`` display methods
  (``__str__``, ``_repr_html_``), called lazily from :mod:`sudokit.model`.
"""
