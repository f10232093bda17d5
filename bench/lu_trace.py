#!/usr/bin/env python3
"""Reads an EXSTAR_TRACE timeline (runtime/trace.h) of tiled LUs and says where each run's time
went: the panel chain (panel K, then what panel K+1 waited for), and how busy each GPU was.

  python3 bench/lu_trace.py TRACE.csv[.xz] [TRACE2.csv ...] [--steps] [--backlog] [--panels LOG]

Several files (StarPU-MPI's TRACE.csv.<rank>, one a process) are read as one timeline; a device
is then named file:device (-1: CPU workers).

--backlog says, at each panel K's end, how many steps block column K+1 and the block columns of
its device still had to take (the updates of panels before K not yet ended there): a chain
that waits for its own column's backlog is bound by the updates' throughput, not by its hops.

--panels LOG also reads the lines `panel trace c0=...` that EXSTAR_CUDA_PANEL_TRACE=1 writes to
stderr (the CUDA panel kernel's own clock: its phases and its declined roundings), for the last
factorization in LOG.

A task's end is when StarPU saw it end (for a CUDA task, its stream's event); its start is when
its worker launched it, or, when the worker already had a task in flight (StarPU's CUDA
pipeline), when that one ended: the durations of pipelined tasks are not their kernels' times,
but the chain's points (a panel's end, the next panel's start) are.

A run starts at a panel of step 0, or at the states' initialization before it (the exact LU's
tasks of step 2^20 - 1, reported apart as `setup`). For each step K the chain is: panel K (on the GPU of block
column K) -> the tasks of block column K+1 at step K (interchanges, U row, update), the last of
which ends at `ready` -> panel K+1 starts. `wait` = panel K+1's start - ready (transfers of L's
column copy, task hand-off); `col` = ready - panel K's end (column K+1's own tasks of step K)."""
import csv
import io
import lzma
import re
import sys
from collections import defaultdict


SETUP = (1 << 20) - 1  # the step of the tasks before step 0 (runtime/trace.h: the states' init)


def runs(rows):
    """A run starts at its panel of step 0; its setup tasks (which may run on beside its first
    steps) belong to the first run that ends after they start (runs follow one another)."""
    rows = sorted(rows, key=lambda r: r["start"])
    out, cur = [], []
    for r in rows:
        if r["K"] == SETUP:
            continue
        if r["name"].endswith("panel") and r["K"] == 0 and cur:
            out.append(cur)
            cur = []
        cur.append(r)
    if cur:
        out.append(cur)
    ends = [max(t["end"] for t in run) for run in out]
    for r in rows:
        if r["K"] == SETUP:
            i = next((i for i, e in enumerate(ends) if e >= r["start"]), None)
            if i is not None:
                out[i].append(r)
    return out


def union(iv):
    tot, end = 0.0, None
    for s, e in sorted(iv):
        if end is None or s > end:
            tot += e - s
            end = e
        elif e > end:
            tot += e - end
            end = e
    return tot


def backlog(run, panels):
    """At each panel K's end: the steps block column K+1 still lacks (K minus the update steps it
    has ended), and the most any block column of that device lacks."""
    done = defaultdict(list)  # J -> end times of its updates (one a step)
    for r in run:
        if r["name"] in ("exstar_lu_gemm", "exstar_lu_plain_gemm_col"):
            done[r["J"]].append(r["end"])
    dev = {}
    for r in run:
        if r["K"] != SETUP:
            dev.setdefault(r["J"], r["device"])
    lags, worst = [], []
    for K in sorted(panels):
        if K + 1 not in panels:
            continue
        t = panels[K]["end"]
        lack = {J: K - sum(1 for e in done[J] if e <= t) for J in done if J > K and dev.get(J) == dev.get(K + 1)}
        if K + 1 in lack:
            lags.append(lack[K + 1])
            worst.append(max(lack.values()))
    if lags:
        behind = sum(1 for x in lags if x > 0)
        print(f"  backlog at panel K's end: block column K+1 lacked {sum(lags) / len(lags):.1f} steps on average "
              f"(behind at {behind} of {len(lags)} steps, at most {max(lags)}); the most behind column of its device "
              f"lacked {sum(worst) / len(worst):.1f} on average, at most {max(worst)}")


def report(run, steps, lag=False):
    t0 = min(r["start"] for r in run)
    t1 = max(r["end"] for r in run)
    m = run[0]["m"]
    plain = any("plain" in r["name"] for r in run)
    span = (t1 - t0) / 1e3
    print(f"== {'plain' if plain else 'exact'} LU m={m}: {span:.1f} ms, {len(run)} tasks")
    bydev = defaultdict(list)
    kinds = defaultdict(float)
    for r in run:
        bydev[r["device"]].append((r["start"], r["end"]))
        kinds[r["name"]] += (r["end"] - r["start"]) / 1e3
    print("  busy (union of task times) by device: " +
          ", ".join(f"{d}: {union(iv) / 1e3:.0f} ms ({100 * union(iv) / (t1 - t0):.0f}%)" for d, iv in sorted(bydev.items())))
    print("  task time by codelet (sum, ms): " + ", ".join(f"{k}: {v:.0f}" for k, v in sorted(kinds.items())))
    panels = {r["K"]: r for r in run if r["name"].endswith("panel")}
    col = defaultdict(list)  # (K, J) -> tasks of block column J at step K
    setup = [r for r in run if r["K"] == SETUP]
    if setup and panels:
        first_col = [r["end"] for r in setup if r["J"] == min(panels)]
        print(f"  setup: {len(setup)} state init tasks, {(max(r['end'] for r in setup) - t0) / 1e3:.1f} ms in all; "
              f"block column {min(panels)}'s done at {(max(first_col, default=t0) - t0) / 1e3:.1f} ms, "
              f"panel {min(panels)} starts at {(panels[min(panels)]['start'] - t0) / 1e3:.1f} ms")
    for r in run:
        if not r["name"].endswith("panel") and r["K"] != SETUP:
            col[(r["K"], r["J"])].append(r)
    tp = tc = tw = 0.0
    first = panels[min(panels)]["start"] - t0 if panels else 0
    last = t1 - panels[max(panels)]["end"] if panels else 0
    lines = []
    for K in sorted(panels):
        p = panels[K]
        tp += p["end"] - p["start"]
        if K + 1 not in panels:
            continue
        q = panels[K + 1]
        ts = col.get((K, K + 1), [])
        ready = max([t["end"] for t in ts] + [p["end"]])
        c, w = ready - p["end"], q["start"] - ready
        tc += c
        tw += w
        names = " ".join(f"{t['name'].replace('exstar_lu_', '')} {(t['end'] - t['start']) / 1e3:.2f}" for t in sorted(ts, key=lambda t: t["start"]))
        lines.append(f"  K={K:3d} dev {p['device']} panel {(p['end'] - p['start']) / 1e3:6.2f} ms | col {K + 1}: {c / 1e3:6.2f} ms ({names}) | wait {w / 1e3:6.2f} ms")
    print(f"  chain: panels {tp / 1e3:.0f} ms + column K+1's tasks {tc / 1e3:.0f} ms + waits {tw / 1e3:.0f} ms"
          f" (+ {first / 1e3:.0f} ms before panel 0, {last / 1e3:.0f} ms after the last panel) of {span:.0f} ms")
    if lag:
        backlog(run, panels)
    if steps:
        print("\n".join(lines))


def panels(log):
    """The last factorization's panel traces: one line per panel, then the sums."""
    lines = [l for l in open(log) if l.startswith("panel trace")]
    last = []
    for l in lines:
        if " c0=0 " in l:
            last = []
        last.append(l)
    tot = {"kernel": 0.0, "rows": 0.0, "state_sub": 0.0, "usub": 0.0, "declined": 0}
    print(f"== panel kernels (EXSTAR_CUDA_PANEL_TRACE), the last factorization in {log}: {len(last)} panels")
    for l in last:
        m = re.search(r"c0=(\d+) rows=(\d+) .*: (\d+) us = pivot\+u (\d+), rows (\d+), last pivots (\d+), "
                      r"usub (\d+), state_sub (\d+); declined: rows (\d+)", l)
        if not m:
            continue
        c0, rows, us, _, rw, _, usub, ssub, dec = (int(x) for x in m.groups())
        tot["kernel"] += us / 1e3
        tot["rows"] += rw / 1e3
        tot["usub"] += usub / 1e3
        tot["state_sub"] += ssub / 1e3
        tot["declined"] += dec
        print(f"  c0={c0:6d} rows={rows:6d}: {us / 1e3:6.2f} ms, rows phases {rw / 1e3:6.2f} ms, "
              f"state_sub {ssub / 1e3:6.2f} ms, usub {usub / 1e3:5.2f} ms, {dec:4d} declined")
    print("  sums: " + ", ".join(f"{k} {v:.0f}{'' if k == 'declined' else ' ms'}" for k, v in tot.items()))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    if "--panels" in sys.argv:
        panels(sys.argv[sys.argv.index("--panels") + 1])
    rows = []
    paths = []
    for i, a in enumerate(sys.argv[1:], 1):
        if not a.startswith("--") and sys.argv[i - 1] != "--panels":
            paths.append(a)
    for src, path in enumerate(paths):
        with (io.TextIOWrapper(lzma.open(path)) if path.endswith(".xz") else open(path)) as f:
            for r in csv.DictReader(f):
                dev = int(r["device"]) if len(paths) == 1 else f"{src}:{r['device']}"
                rows.append({"name": r["name"], "m": int(r["m"]), "K": int(r["K"]), "J": int(r["J"]),
                             "device": dev, "start": float(r["start_us"]), "end": float(r["end_us"])})
    lu = [r for r in rows if r["name"].startswith("exstar_lu_") or r["K"] == SETUP]
    for run in runs(lu):
        report(run, "--steps" in sys.argv, "--backlog" in sys.argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
