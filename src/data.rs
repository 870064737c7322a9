//! The public test data the repository carries in `data/` (its README names
//! each file's source and licence): the perft suite, the tactical suites,
//! the plans' seed positions, a sample of an opening book and a book of
//! endgames drawn from it. The tests,
//! the benches and the lab's defaults read these files; the engine itself
//! reads none. Paths are relative to the data folder: the repository's
//! `data/`, or for the lab and the benches `$PRUNELAB_DATA` (a folder of
//! the same layout, e.g. with the full opening books).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The data folder, relative to the repository root.
pub const DIR: &str = "data";
/// The variable that names another data folder of the same layout.
pub const DIR_VARIABLE: &str = "PRUNELAB_DATA";

/// Perft suite: a FEN then `;D1 n ;D2 n ...` exact leaf counts.
pub const PERFT: &str = "perft/standard.epd";
/// Win At Chess: 300 tactical positions, `bm` in SAN.
pub const WAC: &str = "suites/wac.epd";
/// Arasan 2021: 200 hard positions, `bm`/`am` in SAN.
pub const ARASAN: &str = "suites/arasan21.epd";
/// Zugzwang positions, where null-move style pruning goes wrong.
pub const ZUGZWANG: &str = "suites/zugts.epd";
/// The positions the pruning plans use for node counts and telemetry.
pub const SEEDS: &str = "suites/seeds.epd";
/// The full UHO_4060_v2 opening book, where a data folder has it (the
/// repository does not: 242,201 lines, 15 MB).
pub const BOOK_FULL: &str = "books/UHO_4060_v2.epd";
/// A fixed, seeded sample of UHO_4060_v2, small enough to version.
pub const BOOK_SAMPLE: &str = "books/UHO_4060_v2-4000.epd";
/// Endgames (game phase at most 4) reached from the sample's openings by
/// `lab endgame-book`: the book of games that claim something of endgames.
pub const ENDGAMES: &str = "books/endgames-500.epd";

/// `file` in the repository's own data folder, `root` being the repository.
pub fn in_repository(root: &str, file: &str) -> PathBuf {
    Path::new(root).join(DIR).join(file)
}

/// The data folder a command reads: `$PRUNELAB_DATA` when it is set, else
/// the repository's `data/` under `root`. A variable naming no folder is
/// an error, never a quiet return to the repository's copy.
pub fn folder(root: &Path) -> Result<PathBuf> {
    match std::env::var_os(DIR_VARIABLE) {
        Some(dir) if dir.is_empty() => {
            bail!("{DIR_VARIABLE} is set but empty: unset it to use the repository's {DIR}/, or name a data folder")
        }
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if !dir.is_dir() {
                bail!(
                    "{DIR_VARIABLE}={} is not a folder: unset it to use the repository's {DIR}/, or name a folder \
                     laid out like it (suites/, perft/, books/)",
                    dir.display()
                );
            }
            Ok(dir)
        }
        None => Ok(root.join(DIR)),
    }
}

/// Says where `file` of a data folder was looked for and how to get it.
pub fn missing(folder: &Path, file: &str) -> String {
    let path = folder.join(file);
    match std::env::var_os(DIR_VARIABLE) {
        Some(dir) => format!(
            "{} does not exist ({DIR_VARIABLE}={} names the data folder; unset it to use the repository's {DIR}/)",
            path.display(),
            dir.to_string_lossy()
        ),
        None => format!(
            "{} does not exist (it comes with the repository: restore it with `git checkout -- {DIR}/{file}`)",
            path.display()
        ),
    }
}

/// The text of `file` in a data folder, or an error that names the path
/// and says how to get it.
pub fn read(folder: &Path, file: &str) -> Result<String> {
    let path = folder.join(file);
    if !path.is_file() {
        bail!("{}", missing(folder, file));
    }
    std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))
}
