#!/usr/bin/env bash
# The bench signature check, as Stockfish's CI does it: the default build's
# `prunelab bench` node count must equal the last `Bench: N` line in the
# commit log. A commit that changes search behaviour ends its message with
# the new `Bench: N`. No such line (a shallow clone, a fresh history) is a
# notice, not a failure.
set -euo pipefail
cd "$(dirname "$0")/.."

target_dir=$(cargo metadata --format-version 1 --no-deps | grep -o '"target_directory":"[^"]*"' | cut -d'"' -f4)
# The default release build, in the lab's target folder (target/lab/cargo),
# where the lab tests and the honesty check build too.
build_dir="$target_dir/lab/cargo"
CARGO_TARGET_DIR="$build_dir" cargo build --release --quiet --bin prunelab
bench_line=$("$build_dir/release/prunelab" bench | tail -n 1)
if ! [[ $bench_line =~ ^Bench:\ ([0-9]+)\ nodes ]]; then
    echo "bench-signature: unexpected last line of prunelab bench: '$bench_line'" >&2
    exit 1
fi
actual=${BASH_REMATCH[1]}

signed_line=$(git log --format=%B 2>/dev/null | grep -m1 -E '^Bench: [0-9]+' || true)
if [ -z "$signed_line" ]; then
    echo "bench-signature: notice: no 'Bench: N' line in the commit log; bench is $actual"
    exit 0
fi
signed=$(grep -oE '[0-9]+' <<<"$signed_line" | head -n 1)
if [ "$actual" != "$signed" ]; then
    echo "bench-signature: prunelab bench gives $actual nodes, the last 'Bench:' line in the commit log says $signed." >&2
    echo "bench-signature: if the change is meant to alter the search, end its commit message with 'Bench: $actual'." >&2
    exit 1
fi
echo "bench-signature: Bench: $actual matches the commit log"
