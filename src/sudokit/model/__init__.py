"""What a puzzle and an outcome are: the floor every other package stands on.

* :mod:`~sudokit.model.geometry`: cells, units, peers and boxes of a :class:`Geometry`, with
  every derived table, for every size from 1x1 to 64x64;
* :mod:`~sudokit.model.constraints`: the constraints it may carry as records (the whole-grid
  :class:`Variant` rules, killer :class:`Cage` s) and their checks;
* :mod:`~sudokit.model.rules`: the generic kinds of the rules drawn on a grid (pair relation,
  linear sum, automaton, must-contain, renban, between line, lockout line, indexing) and
  :mod:`~sudokit.model.rulebook`: the named rules as constructors over them (thermometer,
  arrow, Kropki dots, XV, whispers, sandwich, little killer, ...);
* :mod:`~sudokit.model.layouts` and :mod:`~sudokit.model.variants`: overlapping-grid layouts
  (:class:`Layout`; the named ones: samurai, butterfly, ...) and the variant names users write
  (:class:`VariantSpec`);
* :mod:`~sudokit.model.puzzle`: :class:`Puzzle` (a geometry and its givens) and the checks of a
  grid against every constraint (:func:`violations`, :func:`is_solution`);
* :mod:`~sudokit.model.transform`: validity-preserving grid transformations;
* :mod:`~sudokit.model.result`: every outcome type (:class:`Status`, :class:`Stats`,
  :class:`Limits`, :class:`Result`, the chunk and array results).

The package itself imports nothing (``import sudokit.model.variants`` stays light): import
names from their modules. Its modules import nothing of sudokit but :mod:`sudokit.errors`
(display methods reach :mod:`sudokit.present` lazily, as the floor test's allow-list says).
"""
