//! The variants build (what `make` builds: every variant's search in one
//! binary, the UCI option `Variant` choosing it), shared by the tests that
//! search as many variants: the variant matrix (`tests/matrix.rs`) and the
//! lab's tests of `uci:` participants. One build of the 69 searches serves
//! them all, instead of one compiled into each test binary.
//!
//! `$PRUNELAB_VARIANTS_BUILD` names a binary already built (`ci/test.sh`
//! passes the one `ci/make-build.sh` built, so the tests check what `make`
//! builds); without it the build is `make`'s own, in the `ci-variants`
//! profile (debug assertions on, so every search checks the plans' guards),
//! made once into `target/variants-build/`, the folder `ci/make-build.sh`
//! builds in too.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable naming a variants build already built.
pub const VARIANTS_BUILD_VAR: &str = "PRUNELAB_VARIANTS_BUILD";

/// The variants build's binary, built on the first call (instant when cargo
/// has it already). `target_dir` is the workspace's target folder.
pub fn variants_build_in(target_dir: &Path) -> PathBuf {
    static BUILT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            if let Some(binary) = std::env::var_os(VARIANTS_BUILD_VAR).filter(|value| !value.is_empty()) {
                let binary = PathBuf::from(binary);
                assert!(binary.is_file(), "{VARIANTS_BUILD_VAR}={} is no file", binary.display());
                return binary;
            }
            let cargo_dir = target_dir.join("variants-build");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            // What `make PROFILE=ci-variants` runs (ci/make-build.sh), so the two share the build.
            let status = Command::new(cargo)
                .args(["build", "--profile", "ci-variants", "--bin", "prunelab", "--features", "variants"])
                .current_dir(workspace_root())
                .env("CARGO_TARGET_DIR", &cargo_dir)
                // The Makefile's default VARIANT: the build searches as baseline until told.
                .env("PRUNELAB_VARIANT", "")
                // Each variant's values come from its file, not a build's.
                .env_remove("PRUNELAB_TUNABLES")
                .status()
                .expect("cargo runs");
            assert!(status.success(), "building the variants build failed");
            // A copy of its own: a later build in the folder relinks cargo's binary.
            let binary = cargo_dir.join("prunelab");
            let temporary = cargo_dir.join(format!("prunelab.tmp-{}", std::process::id()));
            std::fs::copy(cargo_dir.join("ci-variants").join("prunelab"), &temporary).unwrap();
            std::fs::rename(&temporary, &binary).unwrap();
            binary
        })
        .clone()
}

/// The workspace's root, from this crate's folder (`crates/test-support`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
