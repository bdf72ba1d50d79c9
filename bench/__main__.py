"""`make bench`: run every benchmark module and print one table of figures against the issues' targets.

Each ``bench/bench_*.py`` has ``run() -> list[dict]`` with rows ``name, seconds, target, detail``. Pass module
names to run only some: ``make bench BENCH="mahjong pairing"``.
"""

import importlib
import pkgutil
import sys
import time
from pathlib import Path


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
        module = importlib.import_module(f"bench.{name}")
        try:
            rows.extend(module.run())
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
