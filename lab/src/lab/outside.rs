//! The lab outside a prunelab repository (`cargo install --path lab`, or
//! the release binary, run anywhere): it measures UCI engines (`uci:PATH`)
//! and the variants of other engines in `./other-engines/<folder>/`. The
//! suites and the book its commands take by default are built into the
//! binary, and unpacked into the data folder of its home the first time;
//! anything larger (the full opening book) is put there by hand, and a
//! command that needs it says where. Its builds of other engines' commits
//! are kept in the home too (`target/lab/engines/`).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The variable that names the lab's home outside a repository.
pub const HOME_VARIABLE: &str = "PRUNELAB_HOME";

/// Where the variants of other engines are, outside a repository: a
/// folder of the current folder, one folder an engine inside.
pub const OTHER_ENGINES: &str = "other-engines";

/// The data the default suites and the book are read from, as the
/// repository's `data/` lays it out: (path under `data/`, contents).
const BUILT_IN: [(&str, &[u8]); 8] = [
    (prunelab::data::SEEDS, include_bytes!("../../../data/suites/seeds.epd")),
    ("suites/node-suite.epd", include_bytes!("../../../data/suites/node-suite.epd")),
    ("suites/verdict-extra.epd", include_bytes!("../../../data/suites/verdict-extra.epd")),
    (prunelab::data::WAC, include_bytes!("../../../data/suites/wac.epd")),
    (prunelab::data::ARASAN, include_bytes!("../../../data/suites/arasan21.epd")),
    (prunelab::data::ZUGZWANG, include_bytes!("../../../data/suites/zugts.epd")),
    (prunelab::data::BOOK_SAMPLE, include_bytes!("../../../data/books/UHO_4060_v2-4000.epd")),
    (prunelab::data::ENDGAMES, include_bytes!("../../../data/books/endgames-500.epd")),
];

/// The lab's home outside a repository: `$PRUNELAB_HOME`, else
/// `$XDG_DATA_HOME/prunelab`, else `~/.local/share/prunelab`.
pub fn home() -> Result<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
    if let Some(home) = set(HOME_VARIABLE) {
        return Ok(home);
    }
    if let Some(data) = set("XDG_DATA_HOME") {
        return Ok(data.join("prunelab"));
    }
    match set("HOME") {
        Some(home) => Ok(home.join(".local/share/prunelab")),
        None => bail!(
            "no prunelab repository here, and no home for the lab outside one: set {HOME_VARIABLE} to a folder \
             (its data and its builds of other engines go there)"
        ),
    }
}

/// Writes the built-in data into `home`'s data folder wherever a file is
/// missing or differs (a newer lab's), leaving every other file there as
/// it is.
pub fn unpack_data(home: &Path) -> Result<()> {
    let folder = home.join(prunelab::data::DIR);
    for (file, contents) in BUILT_IN {
        let path = folder.join(file);
        if std::fs::read(&path).is_ok_and(|found| found == contents) {
            continue;
        }
        let parent = path.parent().expect("a file in a folder");
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
        let temporary = path.with_extension(format!("tmp-{}", std::process::id()));
        std::fs::write(&temporary, contents).with_context(|| format!("cannot write {}", temporary.display()))?;
        std::fs::rename(&temporary, &path).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_data_is_the_repositorys_and_is_unpacked_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for (file, contents) in BUILT_IN {
            assert_eq!(std::fs::read(root.join("data").join(file)).unwrap(), contents, "{file}");
        }
        // The node suite is where the suites read it; that every named
        // suite loads from the data built in, measure::suites checks.
        assert_eq!(format!("{}/{}", prunelab::data::DIR, BUILT_IN[1].0), prunelab::matrix::SUITE_PATH);
        let home = std::env::temp_dir().join(format!("prunelab-outside-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&home);
        unpack_data(&home).unwrap();
        let seeds = home.join("data").join(prunelab::data::SEEDS);
        assert_eq!(std::fs::read(&seeds).unwrap(), BUILT_IN[0].1);
        // A file the user put there is left alone; a changed one is restored.
        std::fs::write(home.join("data/books/UHO_4060_v2.epd"), "the full book\n").unwrap();
        std::fs::write(&seeds, "edited\n").unwrap();
        unpack_data(&home).unwrap();
        assert_eq!(std::fs::read(&seeds).unwrap(), BUILT_IN[0].1);
        assert_eq!(std::fs::read_to_string(home.join("data/books/UHO_4060_v2.epd")).unwrap(), "the full book\n");
        std::fs::remove_dir_all(&home).unwrap();
    }
}
