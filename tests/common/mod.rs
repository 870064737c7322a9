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

/// The razoring styles, one set each (the styles exclude each other): the
/// guards and the mates are checked on the same sets, so each search is
/// compiled once for this binary.
pub mod razor_styles {
    use prunelab::technique_set;

    technique_set!(RazorChain, ["razor-r3"]);
    technique_set!(RazorPlan, ["razor-plan-4.1"]);
    technique_set!(RazorSf, ["razor-sf"]);
    technique_set!(RazorHeinz, ["razor-heinz"]);
    technique_set!(RazorHyatt, ["razor-hyatt"]);
    technique_set!(RazorStrelka, ["razor-strelka"]);
    technique_set!(RazorCrafty, ["razor-crafty"]);
}
