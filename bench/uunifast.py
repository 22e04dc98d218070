#!/usr/bin/env python3
"""UUniFast task-set generator for bench/dlsets (figures 1, 2, 9 and 11).

Usage: bench/uunifast.py --seed S --utils 0.3,0.45,... --sets K
                         [--pinned F[,F...] --cpus M] [-o FILE]

For each total utilisation U and each of K sets: n tasks (uniform in
4..16), utilisations by UUniFast (Bini & Buttazzo 2005; for U > 1 the
"discard" variant: sets with a task above --umax are drawn again),
periods uniform in 10..100 ms (whole ms), runtime = u * period rounded
down to the microsecond.  Deterministic for a given seed, so both kernels
get exactly the same sets.  Output: "set ID U N" + N "RUNTIME_NS PERIOD_NS".

--pinned F[,F...] (figure 11): every set is written once per pinned
fraction F (0..1), as "set pF-ID U N" + N "RUNTIME_NS PERIOD_NS CPU":
round(F * N) of its tasks (half rounded up) are pinned, the others global
(CPU -1).  The tasks to pin are the first ones of a random order of the
set drawn once per seed and set (so the tasks pinned at 0.25 are also
pinned at 0.5 and 1, perhaps to another CPU, and the sets are the same
UUniFast sets for every F and the same as without --pinned), and they are
placed in that order, each on the CPU of --cpus M with the least pinned
utilisation so far (worst-fit; ties to the lower CPU).
Without --pinned the output is the 2-column format of figures 1, 2, 9.
"""
import argparse
import random
import sys


def uunifast(rng, n, u):
    out, rest = [], u
    for i in range(1, n):
        nxt = rest * rng.random() ** (1.0 / (n - i))
        out.append(rest - nxt)
        rest = nxt
    out.append(rest)
    return out


def generate(seed, utils, sets, umax=0.9, nmin=4, nmax=16, pmin=10, pmax=100):
    rng = random.Random(seed)
    res = []
    for u in utils:
        for k in range(sets):
            while True:
                n = rng.randint(nmin, nmax)
                us = uunifast(rng, n, u)
                if max(us) <= umax:
                    break
            tasks = []
            for ui in us:
                per = rng.randint(pmin, pmax) * 1_000_000
                rt = max(int(ui * per) // 1000 * 1000, 20_000)
                tasks.append((rt, per))
            res.append((f"u{u:.3f}-{k}", u, tasks))
    return res


def pin(seed, sets, fraction, cpus):
    """Figure 11: the same sets with round(fraction * n) tasks pinned.

    Returns [(id, u, [(runtime_ns, period_ns, cpu)])], cpu -1 = global.
    The choice of tasks comes from a generator of its own, seeded with
    the seed and the set's id, so that generate() draws exactly what it
    draws without pinning and the pinned tasks of a smaller fraction stay
    pinned at a larger one.
    """
    if not 0 <= fraction <= 1:
        raise ValueError(f"pinned fraction {fraction} is not in 0..1")
    if cpus < 1:
        raise ValueError(f"--cpus {cpus}: at least 1")
    res = []
    for sid, u, tasks in sets:
        order = list(range(len(tasks)))
        random.Random(f"{seed}/{sid}").shuffle(order)
        k = int(fraction * len(tasks) + 0.5)
        chosen = order[:k]
        load = [0.0] * cpus
        cpu_of = [-1] * len(tasks)
        for i in chosen:
            c = min(range(cpus), key=lambda c: (load[c], c))
            cpu_of[i] = c
            load[c] += tasks[i][0] / tasks[i][1]
        res.append((f"p{fraction:g}-{sid}", u,
                    [(r, p, c) for (r, p), c in zip(tasks, cpu_of)]))
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--utils", required=True, help="comma-separated total utilisations")
    ap.add_argument("--sets", type=int, default=2, help="sets per utilisation")
    ap.add_argument("--umax", type=float, default=0.9, help="largest utilisation of one task")
    ap.add_argument("--pinned", help="comma-separated pinned fractions (0..1): "
                    "each set once per fraction, with a CPU column (-1 = global)")
    ap.add_argument("--cpus", type=int, default=2, help="CPUs to pin to (with --pinned)")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    try:
        utils = [float(x) for x in a.utils.split(",")]
        fractions = [float(x) for x in a.pinned.split(",")] if a.pinned else None
    except ValueError as e:
        ap.error(f"--utils / --pinned: not a list of numbers ({e})")
    sets = generate(a.seed, utils, a.sets, a.umax)
    text = ""
    if fractions is None:
        for sid, u, tasks in sets:
            text += f"set {sid} {u:.3f} {len(tasks)}\n" + "".join(f"{r} {p}\n" for r, p in tasks)
    else:
        for f in fractions:
            try:
                pinned = pin(a.seed, sets, f, a.cpus)
            except ValueError as e:
                ap.error(str(e))
            for sid, u, tasks in pinned:
                text += (f"set {sid} {u:.3f} {len(tasks)}\n" +
                         "".join(f"{r} {p} {c}\n" for r, p, c in tasks))
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
