#!/usr/bin/env bash
# The engine crate's `rust-version` tells the truth for the committed
# lockfile: no dependency it builds with (normal and build, as locked)
# declares a newer Rust, and clippy finds no standard-library item newer
# than it in the engine's code. (One toolchain is all this machine has, so
# language features newer than the claim are left to review.)
set -euo pipefail
cd "$(dirname "$0")/.."
claim=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
if ! command -v python3 >/dev/null; then
    echo "msrv: skipped: python3 is needed to read cargo metadata" >&2
    exit 0
fi
# name@version of every package the engine builds with.
packages=$(cargo tree --locked -p prunelab -e normal,build --prefix none --format '{p}' | awk '{print $1 "@" substr($2, 2)}' | sort -u)
cargo metadata --locked --format-version 1 | python3 -c '
import json, sys
claim = tuple(int(part) for part in sys.argv[1].split("."))
wanted = set(sys.argv[2].split())
too_new = []
for package in json.load(sys.stdin)["packages"]:
    key = package["name"] + "@" + package["version"]
    needed = package.get("rust_version")
    if key in wanted and needed and tuple(int(part) for part in needed.split(".")) > claim:
        too_new.append(f"{key} needs Rust {needed}")
if too_new:
    sys.exit("msrv: rust-version " + sys.argv[1] + " is not true: " + "; ".join(too_new))
print(f"msrv: {len(wanted)} locked dependencies of the engine build with Rust {sys.argv[1]}")
' "$claim" "$packages"
cargo clippy --locked --quiet -p prunelab --lib --bins --profile ci -- -D clippy::incompatible_msrv
echo "msrv: the engine's code uses nothing newer than Rust $claim"
