#!/usr/bin/env bash
# Every catalogue feature type-checks on its own, `tune` with `full`'s
# features, and exclusive combinations fail to compile with a message
# naming both.
set -euo pipefail
cd "$(dirname "$0")/.."
features=$(sed -n '/^\[features\]/,/^\[/p' Cargo.toml | grep -o '^"[^"]*"' | tr -d '"')
# Two lanes, each with its own target folder, so both cores work: a check
# is one crate, and cargo runs one build at a time in a target folder.
check_lane() {
    local target=$1 feature
    shift
    for feature in "$@"; do
        if ! CARGO_TARGET_DIR=$target cargo check --quiet --lib --features "$feature"; then
            echo "check-features: '$feature' does not type-check on its own" >&2
            return 1
        fi
    done
}
read -r -a all_features <<<"$(echo $features)"
half=$(((${#all_features[@]} + 1) / 2))
# The first lane's first check also checks the dependencies and compiles
# the build script's own (about 16 of its 18 CPU-s); the second lane starts
# from a copy of that folder instead of doing the same again (on a fresh
# clone: an existing folder keeps its own checks).
check_lane target/check-features-a "${all_features[0]}"
[ -d target/check-features-b ] || cp -a target/check-features-a target/check-features-b
check_lane target/check-features-a "${all_features[@]:1:half-1}" &
first_lane=$!
lanes_passed=true
check_lane target/check-features-b "${all_features[@]:half}" || lanes_passed=false
wait "$first_lane" || lanes_passed=false
$lanes_passed || exit 1
echo "check-features: ${#all_features[@]} features type-check on their own"
# The rest reuses the first lane's checked dependencies.
export CARGO_TARGET_DIR=target/check-features-a
cargo check --quiet --lib --features tune,full
echo "check-features: a tuning build of full type-checks"

expect_refusal() {
    local combination="$1" pattern="$2" output
    if output=$(cargo check --quiet --lib --features "$combination" 2>&1); then
        echo "check-features: '$combination' compiled but must be refused" >&2
        exit 1
    fi
    if ! grep -q "$pattern" <<<"$output"; then
        echo "check-features: '$combination' failed without naming the conflict:" >&2
        echo "$output" >&2
        exit 1
    fi
}
expect_refusal "razor-r2 razor-sf" 'razoring styles are exclusive: `razor-r1` and `razor-sf`'
expect_refusal "razor-r3 razor-r2-skip" "readings of plan 000's R2 are exclusive"
expect_refusal "razor-hyatt razor-crafty" 'razoring styles are exclusive: `razor-hyatt` and `razor-crafty`'
expect_refusal "see-prune-conservative see-prune-aggressive" 'see-prune-conservative` and `see-prune-aggressive'
echo "check-features: exclusive combinations are refused by name"
# The variants build chooses each search's techniques by its Variant option.
expect_refusal "variants razor-r1" 'the `variants` build chooses each search'"'"'s techniques'
echo "check-features: the variants build refuses pruning features"
