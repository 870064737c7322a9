#!/usr/bin/env bash
# The engine crate's `rust-version` tells the truth for the committed
# lockfile: no dependency it builds with (normal and build, as locked)
# declares a newer Rust, and clippy finds no standard-library item newer
# than it in the engine's code. The lab's dependencies are checked against
# the lab's own rust-version. (One toolchain is all this machine has, so
# language features newer than the claim are left to review.)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then
    echo "msrv: skipped: python3 is needed to read cargo metadata" >&2
    exit 0
fi
# Every package a crate builds with (normal and build, as locked) declares a
# Rust no newer than the crate's rust-version: check_crate NAME MANIFEST.
check_crate() {
    local crate=$1 claim packages
    claim=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$2" | head -n 1)
    packages=$(cargo tree --locked -p "$crate" -e normal,build --prefix none --format '{p}' | awk '{print $1 "@" substr($2, 2)}' | sort -u)
    cargo metadata --locked --format-version 1 | python3 -c '
import json, sys
crate, claim_text = sys.argv[1], sys.argv[2]
claim = tuple(int(part) for part in claim_text.split("."))
wanted = set(sys.argv[3].split())
too_new = []
for package in json.load(sys.stdin)["packages"]:
    key = package["name"] + "@" + package["version"]
    needed = package.get("rust_version")
    if key in wanted and needed and tuple(int(part) for part in needed.split(".")) > claim:
        too_new.append(f"{key} needs Rust {needed}")
if too_new:
    sys.exit(f"msrv: {crate}: rust-version {claim_text} is not true: " + "; ".join(too_new))
print(f"msrv: {len(wanted)} locked dependencies of {crate} build with Rust {claim_text}")
' "$crate" "$claim" "$packages"
}
check_crate prunelab Cargo.toml
# The lab has its own rust-version and dependencies (an HTTP client among them).
check_crate lab lab/Cargo.toml
# The games crate, the lab's, claims the lab's Rust.
check_crate games crates/games/Cargo.toml
claim=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
cargo clippy --locked --quiet -p prunelab --lib --bins --profile ci -- -D clippy::incompatible_msrv
echo "msrv: the engine's code uses nothing newer than Rust $claim"
