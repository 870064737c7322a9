//! A package's tests folder against its test binary: with `autotests =
//! false` cargo compiles only the test targets a manifest names, so a file
//! added to the folder and declared nowhere would silently never run.

use std::path::Path;

/// The `*.rs` files of `tests_dir` that are neither a module declared by
/// its test binary's root (`root`, a file of the folder: `mod NAME;`) nor
/// in `own_binaries` (the files that are test targets of their own), in
/// name order.
pub fn uncompiled_test_files(tests_dir: &Path, root: &str, own_binaries: &[&str]) -> Vec<String> {
    let root_text = std::fs::read_to_string(tests_dir.join(root))
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", tests_dir.join(root).display()));
    let modules: Vec<&str> =
        root_text.lines().filter_map(|line| line.trim().strip_prefix("mod ")?.strip_suffix(';')).collect();
    let mut files: Vec<String> = std::fs::read_dir(tests_dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", tests_dir.display()))
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".rs") && name != root && !own_binaries.contains(&name.as_str()))
        .filter(|name| !modules.contains(&name.trim_end_matches(".rs")))
        .collect();
    files.sort();
    files
}
