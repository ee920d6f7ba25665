"""The front doors and the batch machinery: a request in, verified results out.

* :mod:`~sudokit.run.request`: the one typed :class:`Request` every door takes;
* :mod:`~sudokit.run.doors`: :func:`solve`, :func:`solutions`, :func:`count_solutions`,
  :func:`solve_many`, :func:`solve_array`;
* :mod:`~sudokit.run.chunk`: one chunk of puzzles as arrays, solved and verified in one call;
* :mod:`~sudokit.run.batch`: the parallel runner (threads, processes, Dask);
* :mod:`~sudokit.run.pipeline`: ``sudokit solve FILE``: files read, solved and written block by
  block; :mod:`~sudokit.run.resume`: continuing an interrupted run;
* :mod:`~sudokit.run.output`: records out (line, grid, jsonl);
* :mod:`~sudokit.run.compare`: methods side by side; :mod:`~sudokit.run.ratings`: explain and
  rate records in bulk.

Nothing here draws or prints for people: that is :mod:`sudokit.present` and :mod:`sudokit.cli`.
"""
