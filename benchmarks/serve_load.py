"""The board's server under load: a cheap request while many slow ones are in flight, the CPU
after the 503s, and no process left once the server is killed.

Starts ``sudokit serve`` as a user does (a child process, its token from the printed address),
waits for its quick lane, then, in each round: sends ``--slow`` requests at once (``explain`` of
an empty 25x25 grid: minutes of work each, far past the limit), and while they are in flight
times ``--cheap`` hints on a 9x9 (one after another); then counts the answers (200, 503 at the
limit, 503 "busy" with ``Retry-After``) and measures the CPU seconds the server and its children
use in the second after the last answer. At the end the server is killed with SIGKILL and its
children are looked for 1 s later. The server runs with ``SUDOKIT_BACKGROUND_COMPILE=0``: the
kernels are taken from the disk cache (run it twice on a fresh install), so that a first-use
compile in the background, which is not a request's work, is not counted as CPU after the
503s (``--background`` keeps it). Prints medians over the rounds::

    python benchmarks/serve_load.py --rounds 3 --slow 50 --cheap 5 --time-limit 5
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT))

from tests.helpers import proc_alive, proc_cpu_seconds, proc_parents  # noqa: E402

NINE = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY_25 = "." * 625


def _post(base: str, token: str, name: str, body: dict) -> tuple[int, dict, dict]:
    request = urllib.request.Request(
        f"{base}api/{name}", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Sudokit-Token": token})
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.status, json.load(response), dict(response.headers)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc), dict(exc.headers)


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc)."""
    parents = proc_parents()
    found, frontier = [pid], [pid]
    while frontier:
        frontier = [c for c, p in parents.items() if p in frontier]
        found += frontier
    return found


def _cpu(pids: list[int]) -> float:
    return sum(proc_cpu_seconds(pid) for pid in pids)


def round_(base: str, token: str, server: int, slow: int, cheap: int) -> dict:
    """One round: ``slow`` slow requests at once, ``cheap`` hints timed meanwhile."""
    answers: list[tuple[int, dict, dict]] = []
    lock = threading.Lock()

    def explain() -> None:
        got = _post(base, token, "explain", {"puzzle": EMPTY_25})
        with lock:
            answers.append(got)

    threads = [threading.Thread(target=explain) for _ in range(slow)]
    for thread in threads:
        thread.start()
    time.sleep(0.5)
    hints = []
    for _ in range(cheap):
        started = time.perf_counter()
        status, answer, _h = _post(base, token, "hint", {"puzzle": NINE})
        hints.append(time.perf_counter() - started)
        assert status == 200 and answer["step"], (status, answer)
    for thread in threads:
        thread.join()
    pids = _tree(server)
    before = {pid: _cpu([pid]) for pid in pids}
    time.sleep(1.0)
    used = {pid: _cpu([pid]) - before[pid] for pid in pids}
    idle = sum(used.values())
    if os.environ.get("SERVE_LOAD_DEBUG"):
        for pid, seconds in used.items():
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:80]
            print(f"    pid {pid} {seconds:.2f} s {cmd!r}")
    busy = sum(1 for s, a, h in answers if s == 503 and "retry-after" in map(str.lower, h))
    late = sum(1 for s, a, h in answers if s == 503 and "time limit" in a.get("error", ""))
    return {"hint": statistics.median(hints), "hint_max": max(hints), "busy": busy,
            "late": late, "ok": sum(1 for s, _a, _h in answers if s == 200),
            "cpu_after": idle}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slow", type=int, default=50)
    parser.add_argument("--cheap", type=int, default=5)
    parser.add_argument("--time-limit", type=float, default=5.0)
    parser.add_argument("--background", action="store_true",
                        help="let the server compile missing kernels in the background")
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    if not args.background:
        env["SUDOKIT_BACKGROUND_COMPILE"] = "0"
    server = subprocess.Popen(
        [sys.executable, "-m", "sudokit", "serve", "--port", "0", "--time-limit",
         str(args.time_limit)], stdout=subprocess.PIPE, text=True, env=env)
    try:
        address = server.stdout.readline().split()[3]
        base, token = address.split("?token=")
        _post(base, token, "hint", {"puzzle": NINE})  # the quick lane is up
        _post(base, token, "explain", {"puzzle": NINE})  # a slow child, too
        rounds = [round_(base, token, server.pid, args.slow, args.cheap)
                  for _ in range(args.rounds)]
        children = _tree(server.pid)[1:]
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    time.sleep(1.0)
    left = [pid for pid in children if proc_alive(pid)]
    print(f"{args.rounds} rounds of {args.slow} slow requests (explain of an empty 25x25, "
          f"limit {args.time_limit:g} s) and {args.cheap} cheap ones (hint on a 9x9):")
    for key, label in [("hint", "cheap hint, median s"), ("hint_max", "cheap hint, worst s"),
                       ("ok", "slow: answered 200"), ("late", "slow: 503 at the limit"),
                       ("busy", "slow: 503 busy (Retry-After)"),
                       ("cpu_after", "CPU s used in the second after the last answer")]:
        values = [r[key] for r in rounds]
        print(f"  {label:48} median {statistics.median(values):8.3f}  "
              f"(min {min(values):.3f}, max {max(values):.3f})")
    print(f"  children alive 1 s after SIGKILL of the server: {len(left)} of {len(children)}")


if __name__ == "__main__":
    main()
