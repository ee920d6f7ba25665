// Runs sigh's Interactive Sudoku Solver (ISS) headless for benchmarks/vs_iss.py.
//
// Usage: node benchmarks/iss_runner.mjs ISS_DIR PUZZLES.json
//
// PUZZLES.json: [{name, specs, solution}], the specs written by benchmarks/iss_adapter.py. Each
// puzzle's specs become ISS constraint objects, then ISS's constraint string (untimed). Then,
// untimed, every string is parsed, built and solved once (a warm-up, and the check: count to 2
// must find exactly one solution, the published one); one JSON line answers
// {checks: [{name, ok, why, string_chars}]}. Then each line "round" on stdin runs every checked
// puzzle once, timed: parse the string, build the solver, count to 2 (ISS's whole call, as a
// setter's page makes it), answering one JSON line [{wall_ms, cpu_ms, nodes, guesses,
// backtracks, solutions}] (null for a puzzle that failed its check). "quit" ends.

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [issDir, puzzlesPath] = process.argv.slice(2);
const load = (rel) => import(pathToFileURL(join(issDir, rel)).href);

const { ensureGlobalEnvironment } = await load('tests/helpers/test_env.js');
ensureGlobalEnvironment();
const { SudokuParser } = await load('js/sudoku_parser.js');
const { SudokuConstraint } = await load('js/sudoku_constraint.js');
const { SudokuBuilder } = await load('js/solver/sudoku_builder.js');
const { CellGeometry } = await load('js/cell_geometry.js');

const geometry = CellGeometry.newDefault();

const build = (spec) => {
  const [op, ...args] = spec;
  switch (op) {
    case 'new':
      return [new SudokuConstraint[args[0]](...args.slice(1))];
    case 'pair': {
      const [pairs, ...cells] = args;
      const allowed = new Set(pairs.map(([a, b]) => a * 100 + b));
      const key = SudokuConstraint.Pair.fnToKey((a, b) => allowed.has(a * 100 + b), 9);
      return [new SudokuConstraint.Pair(key, '', ...cells)];
    }
    case 'outside': {
      const [type, value, cells, fallback] = args;
      try {
        return [SudokuConstraint[type].fromCells(value, cells, geometry)];
      } catch (e) {
        if (!fallback) throw e;
        return fallback.flatMap(build);
      }
    }
    case 'jigsaw':
      return [...SudokuConstraint.Jigsaw.makeFromArgs([args[0]], geometry)];
    case 'or':
      return [new SudokuConstraint.Or(
        args[0].map(caseSpecs => new SudokuConstraint.And(caseSpecs.flatMap(build))))];
    default:
      throw new Error(`unknown spec ${op}`);
  }
};

const solveString = (text) => {
  const constraint = SudokuBuilder.resolveConstraint(SudokuParser.parseText(text));
  const solver = SudokuBuilder.build(constraint);
  const solutions = solver.countSolutions(2);
  return { solver, solutions };
};

const puzzles = JSON.parse(readFileSync(puzzlesPath, 'utf8'));
const checks = puzzles.map((p) => {
  try {
    const text = new SudokuConstraint.Container(p.specs.flatMap(build)).toString();
    const { solver, solutions } = solveString(text);
    const grid = solutions >= 1 ? solver.nthSolution(0) : null;
    const found = grid ? grid.join('') : '';
    p.text = text;
    const ok = solutions === 1 && found === p.solution;
    const why = ok ? '' : `${solutions} solution(s)${found === p.solution ? '' : ', not the published grid'}`;
    if (!ok) p.text = null;
    return { name: p.name, ok, why, string_chars: text.length };
  } catch (e) {
    p.text = null;
    return { name: p.name, ok: false, why: String(e.message).split('\n')[0] };
  }
});
console.log(JSON.stringify({ checks }));

const cpuMs = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e3; };

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (line.trim() === 'quit') break;
  const rows = puzzles.map((p) => {
    if (!p.text) return null;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    const { solver, solutions } = solveString(p.text);
    const wall = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    const c = solver.state().counters;
    return { wall_ms: wall, cpu_ms: cpu, nodes: c.nodesSearched, guesses: c.guesses,
      backtracks: c.backtracks, solutions };
  });
  console.log(JSON.stringify(rows));
}
process.exit(0);
