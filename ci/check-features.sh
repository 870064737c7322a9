#!/usr/bin/env bash
# Every catalogue feature type-checks on its own, `tune` with all of them,
# and exclusive combinations fail to compile with a message naming both.
set -euo pipefail
cd "$(dirname "$0")/.."
features=$(sed -n '/^\[features\]/,/^\[/p' Cargo.toml | grep -o '^"[^"]*"' | tr -d '"')
for feature in $features; do
    cargo check --quiet --lib --features "$feature"
done
echo "check-features: $(echo "$features" | wc -w) features type-check on their own"

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
