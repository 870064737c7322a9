#!/usr/bin/env bash
# Catalogue features type-check on their own, `tune` with `full`'s
# features, and exclusive combinations fail to compile with a message
# naming both.
#
# Usage:
#   ci/check-features.sh          a rotating subset plus every feature the last commit could change
#   ci/check-features.sh --all    every feature
#   ci/check-features.sh NAME...  the named features
#
# What a feature alone compiles is decided by the catalogue alone: a
# feature is read only by `features!` (`cfg!(feature = ..)`, an exclusive
# pair's `compile_error!`), so it type-checks on its own unless its
# implications (Cargo.toml) reach an exclusive pair. The engine's tests
# prove that premise for every feature in every run: tests/catalogue.rs
# (Cargo.toml's implications are the catalogue's, every feature closes
# inside a variant that resolves, and no source names a catalogue feature
# in a `cfg` but the macros). This script checks it against the compiler:
# CHECK_FEATURES_PER_RUN (10) features a run, in a row of the catalogue
# starting where the commit count points, so consecutive commits cover
# every feature (68 in 7), plus all of them when the last commit touched
# what declares them (Cargo.toml, the macros, the generator) and a
# technique file's own when it touched that file (ci/features-this-run.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
read -r -a all_features <<<"$(sed -n '/^\[features\]/,/^\[/p' Cargo.toml | grep -o '^"[^"]*"' | tr -d '"' | tr '\n' ' ')"
per_run=${CHECK_FEATURES_PER_RUN:-10}

selected=()
add() {
    [[ " ${selected[*]} " == *" $1 "* ]] || selected+=("$1")
}
case "${1:-}" in
    --all)
        selected=("${all_features[@]}")
        ;;
    "")
        while read -r feature; do
            add "$feature"
        done < <(bash ci/features-this-run.sh "$per_run" declarations)
        ;;
    -*)
        echo "usage: ci/check-features.sh [--all | FEATURE...]" >&2
        exit 2
        ;;
    *)
        for feature in "$@"; do
            if [[ " ${all_features[*]} " != *" $feature "* ]]; then
                echo "check-features: unknown feature '$feature'" >&2
                exit 2
            fi
            add "$feature"
        done
        ;;
esac

# One target folder: the first check also checks the dependencies.
export CARGO_TARGET_DIR=target/check-features
for feature in "${selected[@]}"; do
    if ! cargo check --quiet --lib --features "$feature"; then
        echo "check-features: '$feature' does not type-check on its own" >&2
        exit 1
    fi
done
echo "check-features: ${#selected[@]} of ${#all_features[@]} features type-check on their own: ${selected[*]}"
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
