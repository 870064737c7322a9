//! README shows what the code has: its catalogue table is the output of
//! `prunelab features --all`.

use std::process::Command;

#[test]
fn readme_catalogue_is_the_binarys() {
    let output = Command::new(env!("CARGO_BIN_EXE_prunelab")).args(["features", "--all"]).output().unwrap();
    assert!(output.status.success());
    let table = String::from_utf8(output.stdout).unwrap();
    let readme = include_str!("../README.md");
    let begin = readme.find("<!-- catalogue:").expect("README marks its catalogue");
    let body_start = begin + readme[begin..].find('\n').unwrap() + 1;
    let end = readme.find("<!-- end of catalogue -->").expect("README ends its catalogue");
    assert_eq!(&readme[body_start..end], table, "README's catalogue is stale: run `bash ci/readme-catalogue.sh`");
}
