//! What the integration tests share: the repository's data files
//! (`data/`, named in `prunelab::data`). The tests read this folder, never
//! `$PRUNELAB_DATA`: their expectations are this data's.

use std::path::PathBuf;

/// `file` of the repository's `data/`.
pub fn data_path(file: &str) -> PathBuf {
    prunelab::data::in_repository(env!("CARGO_MANIFEST_DIR"), file)
}

/// The text of `file` of the repository's `data/`.
pub fn data_text(file: &str) -> String {
    let path = data_path(file);
    std::fs::read_to_string(&path).unwrap_or_else(|error| {
        panic!(
            "cannot read {} ({error}): it comes with the repository, restore it with `git checkout -- data/{file}`",
            path.display()
        )
    })
}
