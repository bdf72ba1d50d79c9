"""`make bench`: run every benchmark module and print one table of figures against the issues' targets.

Each ``bench/bench_*.py`` has ``run() -> list[dict]`` with rows ``name, seconds, target, detail``, and runs in a
process of its own (its own Django, on its own database, nothing left over from the module before). Pass module
names to run only some: ``make bench BENCH="mahjong pairing"``.
"""

import json
import pkgutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run_isolated(name: str) -> list[dict]:
    """The module's rows, from a child process whose own output goes to standard error."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.json"
        code = f"import json, sys; from bench.{name} import run; json.dump(run(), open(sys.argv[1], 'w'))"
        done = subprocess.run([sys.executable, "-c", code, str(out)], cwd=ROOT, stdout=sys.stderr, check=False)
        if done.returncode:
            raise RuntimeError(f"bench.{name} exited with {done.returncode}")
        return json.loads(out.read_text())


def _modules(selected: list[str]) -> list[str]:
    here = Path(__file__).parent
    names = sorted(m.name for m in pkgutil.iter_modules([str(here)]) if m.name.startswith("bench_"))
    if selected:
        names = [n for n in names if n.removeprefix("bench_") in selected or n in selected]
    return names


def main(argv: list[str]) -> int:
    rows = []
    for name in _modules(argv):
        started = time.perf_counter()
        try:
            rows.extend(_run_isolated(name))
        except Exception as error:  # a broken benchmark is a row in the table, not the end of the run
            rows.append({"name": name, "seconds": float("nan"), "target": 0, "detail": f"FAILED: {error!r}"})
        sys.stderr.write(f"{name}: {time.perf_counter() - started:.1f} s\n")
    width = max([len(r["name"]) for r in rows] + [9])
    line = f"{'benchmark':<{width}}  {'measured':>10}  {'target':>8}  {'ok':<3}  detail"
    sys.stdout.write(line + "\n" + "-" * len(line) + "\n")
    failed = 0
    for row in rows:
        ok = row["seconds"] == row["seconds"] and (not row["target"] or row["seconds"] <= row["target"])
        failed += not ok
        target = f"{row['target']:.3f}s" if row["target"] else "-"
        verdict = "yes" if ok else "NO"
        measured = f"{row['seconds']:>9.3f}s"
        sys.stdout.write(f"{row['name']:<{width}}  {measured}  {target:>8}  {verdict:<3}  {row['detail']}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
