#!/usr/bin/env bash
# Rewrites README's catalogue table with `prunelab features --all` (the
# registry's catalogue); tests/readme.rs fails while the two differ.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet -p prunelab --bin prunelab
table=$(mktemp)
trap 'rm -f "$table"' EXIT
target/release/prunelab features --all >"$table"
awk -v table="$table" '
    /^<!-- catalogue:/ { print; while ((getline line < table) > 0) print line; skipping = 1; next }
    /^<!-- end of catalogue -->/ { skipping = 0 }
    !skipping { print }
' README.md >README.md.new
mv README.md.new README.md
echo "readme-catalogue: README's table has $(grep -c '^| `' "$table") features"
