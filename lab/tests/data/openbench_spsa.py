#!/usr/bin/env python3
"""OpenBench's SPSA formulas, computed independently of the lab's Rust code,
for the numbers lab/src/tune/spsa.rs's tests pin.

The formulas, as OpenBench writes them (AndyGrant/OpenBench):
  OpenBench/spsa_utils.py, create_spsa_run:
    c_value = c_end * iterations ** gamma
    a_end   = r_end * c_end ** 2
    a_value = a_end * (a_ratio * iterations + iterations) ** alpha
  spsa_workload_assignment_dict, at iteration k:
    c_k = max(c_value / k ** gamma, 0.5 for an int, 0.0 for a float)
    R_k = a_value / (a_ratio * iterations + k) ** alpha / c_k ** 2
  Client/worker.py: delta = R_k * c_k * (wins - losses) * flip
  OpenBench/utils.py: value = max(min, min(max, value + delta))

Run: python3 lab/tests/data/openbench_spsa.py
"""

alpha, gamma, a_ratio, iterations = 0.602, 0.101, 0.1, 1000
start, low, high, c_end, r_end = 90.0, 50.0, 200.0, 10.0, 0.002

c_value = c_end * iterations ** gamma
a_value = r_end * c_end ** 2 * (a_ratio * iterations + iterations) ** alpha
print("c", repr(c_value))
print("a", repr(a_value))


def gains(k, floor=0.5, c_value=c_value, a_value=a_value):
    c = max(c_value / k ** gamma, floor)
    return c, a_value / (a_ratio * iterations + k) ** alpha / c ** 2


for k in (1, 2, 500, 1000):
    print("k", k, *map(repr, gains(k)))

# A float parameter with c_end 0.25: no 0.5 floor.
small_c, small_a = 0.25 * iterations ** gamma, r_end * 0.25 ** 2 * (a_ratio * iterations + iterations) ** alpha
print("float k 1000", *map(repr, gains(1000, 0.0, small_c, small_a)))

value = start
for k, (flip, result) in enumerate([(1, 3), (-1, -2), (1, 0), (-1, 5), (1, 8)], start=1):
    c, r = gains(k)
    value = max(low, min(high, value + r * c * result * flip))
    print("value after", k, repr(value))
