#!/usr/bin/env bash
# The bench signature check, as Stockfish's CI does it: the bench of what
# `make` builds (the variants build, searching as the Makefile's VARIANT,
# baseline when it names none; a FEATURES line builds that feature set) must
# equal the last `Bench: N` line in the commit log, the figure OpenBench
# reads. A commit that changes that search ends its message with the new
# `Bench: N`. No such line (a shallow clone, a fresh history) is a notice,
# not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# PRUNELAB_VARIANTS_BUILD: what ci/make-build.sh already made (ci/test.sh
# hands it over). Making it again would copy the binary over itself while
# the tests run it, which fails ("Text file busy").
binary=${PRUNELAB_VARIANTS_BUILD:-$(bash ci/make-build.sh)}
bench_line=$("$binary" bench | tail -n 1)
if ! [[ $bench_line =~ ^Bench:\ ([0-9]+)\ nodes ]]; then
    echo "bench-signature: unexpected last line of prunelab bench: '$bench_line'" >&2
    exit 1
fi
actual=${BASH_REMATCH[1]}
what=$("$binary" features | head -n 1)

signed_line=$(git log --format=%B 2>/dev/null | grep -m1 -E '^Bench: [0-9]+' || true)
if [ -z "$signed_line" ]; then
    echo "bench-signature: notice: no 'Bench: N' line in the commit log; bench is $actual ($what)"
    exit 0
fi
signed=$(grep -oE '[0-9]+' <<<"$signed_line" | head -n 1)
if [ "$actual" != "$signed" ]; then
    echo "bench-signature: make builds $what; its bench gives $actual nodes, the last 'Bench:' line in the commit log says $signed." >&2
    echo "bench-signature: if the change is meant to alter that search, end its commit message with 'Bench: $actual'." >&2
    exit 1
fi
echo "bench-signature: Bench: $actual matches the commit log ($what)"
