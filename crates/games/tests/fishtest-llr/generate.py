#!/usr/bin/env python3
"""Writes llr.csv: fishtest's own LLR on a grid of results, the reference
the SPRT's tests compare `llr_penta` and `llr_wdl` with.

The values come from fishtest's published code, not from the lab's:

    fetch official-stockfish/fishtest, then
    git -C FISHTEST show COMMIT:server/fishtest/stats/LLRcalc.py > LLRcalc.py
    pip install scipy
    python3 generate.py LLRcalc.py COMMIT > llr.csv

Each row: the group the result belongs to, its counts (LL LD D WD WW
for pairs, L D W for games), then fishtest's LLR for each model and
bounds of the header (`normalized 0 5`: LLR_normalized with nElo
bounds [0, 5]), to ten significant digits, or `error` where fishtest's
solver raises (its brentq brackets the root 1e-9 inside the poles; its
t-value fixed point runs 10 iterations and asserts the t-value to 1e-5).
"""

import importlib.util
import itertools
import sys


def load(path):
    spec = importlib.util.spec_from_file_location("LLRcalc", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compositions(total, bins):
    """Every vector of `bins` non-negative counts summing to `total`."""
    for cuts in itertools.combinations(range(total + bins - 1), bins - 1):
        edges = (-1,) + cuts + (total + bins - 1,)
        yield [edges[i + 1] - edges[i] - 1 for i in range(bins)]


def grid():
    """(counts, why) for every result the test covers."""
    # Every pentanomial of up to 6 pairs.
    for pairs in range(1, 7):
        for counts in compositions(pairs, 5):
            yield counts, "all pentanomials of up to 6 pairs"
    # Every trinomial of up to 12 games.
    for games in range(1, 11):
        for counts in compositions(games, 3):
            yield counts, "all trinomials of up to 10 games"
    # The pole's line: with a hypothesis at 0, the first Newton step from
    # x = 0 lands on the pole -1/max(phi) when LD = 3 WD + 8 WW (the mirror:
    # WD = 3 LD + 8 LL).
    for ll, dd, wd, ww in itertools.product((0, 1, 25), (0, 3, 90), (0, 1, 4, 9), (0, 1, 3)):
        ld = 3 * wd + 8 * ww
        if ll + ld + dd + wd + ww > 0:
            yield [ll, ld, dd, wd, ww], "on the pole's line"
            yield [ww, wd, dd, ld, ll], "on the pole's mirrored line"
    # Lopsided samples, large and small.
    lopsided = [
        [25, 35, 20, 9, 1],
        [1, 6, 8, 26, 27],
        [5000, 100, 10, 0, 0],
        [0, 0, 10, 100, 5000],
        [0, 0, 0, 0, 10000],
        [10000, 0, 0, 0, 0],
        [1, 0, 0, 0, 20000],
        [3000, 0, 0, 0, 3000],
        [0, 0, 40000, 0, 0],
        [1, 0, 40000, 0, 1],
        [900, 30596, 67292, 30899, 809],
        [3, 400, 1000, 20, 0],
        [0, 20, 1000, 400, 3],
        [120, 300, 200, 40, 2],
        [2, 40, 200, 300, 120],
        [400, 0, 0, 0, 1],
        [0, 0, 5, 0, 0],
        [5, 0, 0, 0, 0],
    ]
    for counts in lopsided:
        yield counts, "lopsided"
    for counts in [[20000, 10, 3], [3, 10, 20000], [0, 40000, 0], [1, 40000, 1], [9000, 0, 9000],
                   [4000, 100, 0], [0, 100, 4000], [600, 400, 10], [10, 400, 600], [1, 0, 5000]]:
        yield counts, "lopsided"


BOUNDS = [(0, 5), (-5, 0), (-3, 3), (0, 3)]


def main():
    llrcalc = load(sys.argv[1])
    commit = sys.argv[2]
    models = (("normalized", llrcalc.LLR_normalized), ("logistic", llrcalc.LLR_logistic))
    print(f"# fishtest's LLR: official-stockfish/fishtest {commit}, server/fishtest/stats/LLRcalc.py,")
    print("# LLR_normalized and LLR_logistic; written by generate.py beside this file.")
    columns = [f"{model} {elo0} {elo1}" for model, _ in models for elo0, elo1 in BOUNDS]
    print(",".join(["group", "counts"] + columns))
    groups = {}
    seen = set()
    for counts, why in grid():
        if tuple(counts) in seen:
            continue
        seen.add(tuple(counts))
        group = groups.setdefault(why, len(groups))
        values = []
        for _, function in models:
            for elo0, elo1 in BOUNDS:
                try:
                    values.append(f"{function(elo0, elo1, list(counts)):.10g}")
                except (ValueError, AssertionError, ZeroDivisionError):
                    values.append("error")
        print(",".join([why, " ".join(map(str, counts))] + values))


if __name__ == "__main__":
    main()
