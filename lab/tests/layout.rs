//! The lab's rooms are layers (docs/lab.md, "The lab's layout"): a room
//! of lab/src uses only rooms of the layers below its own, so no two rooms
//! import each other.

use std::path::Path;

/// The rooms of lab/src, bottom layer first.
const LAYERS: &[&[&str]] = &[
    &["tools", "plots"],
    &["variants"],
    &["lab"],
    &["engines"],
    &["measure"],
    &["explain", "tune"],
    &["verdicts"],
    &["openbench", "develop", "list", "play", "snapdiff"],
    &["cli"],
];

fn layer(room: &str) -> Option<usize> {
    LAYERS.iter().position(|rooms| rooms.contains(&room))
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// The rooms `text` names as `crate::ROOM` or inside `crate::{...}`,
/// outside comments (a comment may point anywhere).
fn rooms_named(text: &str) -> Vec<String> {
    let code: String = text.lines().filter(|line| !line.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n");
    let text = code.as_str();
    let mut named = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let names: Vec<&str> = match rest.strip_prefix('{') {
            Some(group) => group[..group.find('}').unwrap_or(group.len())].split(',').collect(),
            None => vec![rest],
        };
        for name in names {
            let name: String = name.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            named.push(name);
        }
    }
    named
}

#[test]
fn each_room_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut rooms_seen = Vec::new();
    let mut problems = Vec::new();
    for (path, text) in &files {
        let relative = Path::new(path).strip_prefix(&src).unwrap();
        let first = relative.components().next().unwrap().as_os_str().to_str().unwrap();
        let room = first.trim_end_matches(".rs");
        if room == "lib" || room == "main" {
            continue;
        }
        let Some(own) = layer(room) else {
            problems.push(format!("{path}: room `{room}` has no layer in tests/layout.rs"));
            continue;
        };
        rooms_seen.push(room.to_string());
        for named in rooms_named(text) {
            match layer(&named) {
                Some(used) if named != room && used >= own => {
                    problems.push(format!("{path}: `{room}` uses `{named}`, which is not below it"));
                }
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Each layer's rooms are there: a room renamed or removed is noticed.
    for room in LAYERS.iter().flat_map(|rooms| rooms.iter()) {
        assert!(rooms_seen.iter().any(|seen| seen == room), "no room `{room}` in lab/src");
    }
}

#[test]
fn a_room_is_named_as_a_path_or_in_a_group() {
    let text =
        "use crate::lab::Lab;\n// crate::cli\nuse crate::{develop, openbench};\nlet x = crate::tools::commit(root);";
    assert_eq!(rooms_named(text), ["lab", "develop", "openbench", "tools"]);
}

/// No two files of lab/src share a name (`mod.rs` aside): a file's name
/// finds it, as docs/lab.md promises.
#[test]
fn no_two_files_share_a_name() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut by_name: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for (path, _) in &files {
        let name = Path::new(path).file_name().unwrap().to_string_lossy().into_owned();
        if name != "mod.rs" {
            by_name.entry(name).or_default().push(path.clone());
        }
    }
    let shared: Vec<String> =
        by_name.into_values().filter(|paths| paths.len() > 1).map(|paths| paths.join(" and ")).collect();
    assert!(shared.is_empty(), "files that share a name: {}", shared.join("; "));
}
