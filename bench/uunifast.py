#!/usr/bin/env python3
"""UUniFast task-set generator for bench/dlsets (figures 1 and 2).

Usage: bench/uunifast.py --seed S --cpus M --utils 0.3,0.45,... --sets K [-o FILE]

For each total utilisation U and each of K sets: n tasks (uniform in
4..16), utilisations by UUniFast (Bini & Buttazzo 2005; for U > 1 the
"discard" variant: sets with a task above --umax are drawn again),
periods uniform in 10..100 ms (whole ms), runtime = u * period rounded
down to the microsecond.  Deterministic for a given seed, so both kernels
get exactly the same sets.  Output: "set ID U N" + N "RUNTIME_NS PERIOD_NS".
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--utils", required=True, help="comma-separated total utilisations")
    ap.add_argument("--sets", type=int, default=2, help="sets per utilisation")
    ap.add_argument("--umax", type=float, default=0.9, help="largest utilisation of one task")
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    text = ""
    for sid, u, tasks in generate(a.seed, [float(x) for x in a.utils.split(",")], a.sets, a.umax):
        text += f"set {sid} {u:.3f} {len(tasks)}\n" + "".join(f"{r} {p}\n" for r, p in tasks)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
