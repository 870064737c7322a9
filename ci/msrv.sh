#!/usr/bin/env bash
# The crates' `rust-version`s tell the truth for the committed lockfile: no
# package a crate builds with declares a newer Rust, and clippy finds no
# standard-library item newer than it in the engine's code. The packages a
# crate builds with are read from `cargo metadata`'s resolve graph (its
# normal and build edges, followed to the end): the workspace's features
# unified, so a dependency another member's features pull into a shared
# crate counts (serde_derive, through the build script's TOML reader, the
# lab's serde). (One toolchain is all this machine has, so language
# features newer than the claim are left to review.)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null; then
    echo "msrv: python3 is needed to read cargo metadata" >&2
    exit 1
fi
cargo metadata --locked --format-version 1 >"${TMPDIR:-/tmp}/msrv-metadata.$$.json"
trap 'rm -f "${TMPDIR:-/tmp}/msrv-metadata.$$.json"' EXIT
# check_crate NAME: every package NAME builds with declares a Rust no newer
# than NAME's rust-version.
check_crate() {
    python3 - "$1" "${TMPDIR:-/tmp}/msrv-metadata.$$.json" <<'PYTHON'
import json, sys
crate, path = sys.argv[1], sys.argv[2]
metadata = json.load(open(path))
packages = {package["id"]: package for package in metadata["packages"]}
nodes = {node["id"]: node for node in metadata["resolve"]["nodes"]}
version = lambda text: tuple(int(part) for part in text.split("."))
root = next(package["id"] for package in metadata["packages"] if package["name"] == crate)
claim = packages[root]["rust_version"]
seen, pending = set(), [root]
while pending:
    node = pending.pop()
    if node in seen:
        continue
    seen.add(node)
    for dependency in nodes[node]["deps"]:
        if any(kind["kind"] in (None, "build") for kind in dependency["dep_kinds"]):
            pending.append(dependency["pkg"])
too_new = sorted(
    f"{packages[node]['name']}@{packages[node]['version']} needs Rust {packages[node]['rust_version']}"
    for node in seen
    if packages[node].get("rust_version") and version(packages[node]["rust_version"]) > version(claim)
)
if too_new:
    sys.exit(f"msrv: {crate}: rust-version {claim} is not true: " + "; ".join(too_new))
print(f"msrv: {len(seen) - 1} locked dependencies of {crate} (normal and build) build with Rust {claim}")
PYTHON
}
check_crate prunelab
# The lab has its own rust-version and dependencies (an HTTP client among them).
check_crate lab
# The games crate, the lab's, claims the lab's Rust.
check_crate games
claim=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
# In ci/check-features.sh's folder and profile: its checked dependencies
# serve (ci/test.sh runs this after it).
CARGO_TARGET_DIR=target/check-features cargo clippy --locked --quiet -p prunelab --lib --bins -- \
    -A clippy::all -D clippy::incompatible_msrv
echo "msrv: the engine's code uses nothing newer than Rust $claim"
