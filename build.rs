// The generator is the crate `engine-build` (crates/engine-build): cargo
// compiles a build script with its package's features, so this call is all
// that `ci/check-features.sh` recompiles per feature.
fn main() {
    engine_build::generate();
}
