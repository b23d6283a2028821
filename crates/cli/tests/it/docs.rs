//! The user documentation: `README.md` stays a front door (at most 300 lines), every relative
//! link of `README.md` and `docs/` leads to a file (and to a heading, for `#anchor`), every
//! subcommand has its page, and the `--json` fields the schema tests check are documented in
//! `docs/schema.md`.

use std::{
    collections::BTreeSet,
    fs,
    path::{Path, PathBuf},
};

use crate::schema;

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// `README.md` and every Markdown file under `docs/`.
fn pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).expect("docs/ exists") {
            let path = entry.expect("a docs entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
}

/// The lines of a Markdown text outside fenced code blocks.
fn prose(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fenced = false;
    text.lines().enumerate().filter(move |(_, line)| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The targets of the inline links `[text](target)` of a text, with their line numbers, outside
/// code blocks and code spans.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in prose(text) {
        // Code spans are the odd pieces between backticks.
        for piece in line.split('`').step_by(2) {
            let mut rest = piece;
            while let Some(at) = rest.find("](") {
                let after = &rest[at + 2..];
                let Some(end) = after.find(')') else { break };
                found.push((number + 1, after[..end].to_owned()));
                rest = &after[end..];
            }
        }
    }
    found
}

/// GitHub's anchor of a heading: lowercase, spaces to `-`, punctuation but `-` and `_` dropped.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown text's headings (a repeated one gets `-1`, `-2`, … as on GitHub).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for (_, line) in prose(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let base = slug(heading.trim_start_matches('#'));
        let mut anchor = base.clone();
        let mut n = 0;
        while !anchors.insert(anchor.clone()) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
    }
    anchors
}

#[test]
fn readme_is_a_front_door() {
    let lines = read(&root().join("README.md")).lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines: move reference to docs/"
    );
}

#[test]
fn every_relative_link_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = read(&page);
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("a page's folder").join(path)
            };
            let name = page
                .strip_prefix(root())
                .unwrap_or(&page)
                .display()
                .to_string();
            if !file.exists() {
                broken.push(format!("{name}:{line}: {target}: no such file"));
            } else if let Some(anchor) = anchor
                && file.extension().is_some_and(|e| e == "md")
                && !anchors(&read(&file)).contains(anchor)
            {
                broken.push(format!("{name}:{line}: {target}: no such heading"));
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: is the link reader broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_reader_sees_links_and_skips_code() {
    let text =
        "a [x](a.md) `[y](b.md)` [z](c.md#top)\n```\n[w](d.md)\n```\n# A: `b` c\n# A: `b` c\n";
    assert_eq!(
        links(text),
        [(1, "a.md".to_owned()), (1, "c.md#top".to_owned())]
    );
    assert_eq!(
        anchors(text).into_iter().collect::<Vec<_>>(),
        ["a-b-c", "a-b-c-1"]
    );
    assert_eq!(slug(" `tabia stats --json`"), "tabia-stats---json");
}

#[test]
fn every_subcommand_has_its_page() {
    let index = read(&root().join("docs/README.md"));
    let readme = read(&root().join("README.md"));
    for sub in tabia_cli::command().get_subcommands() {
        let name = sub.get_name();
        let page = format!("commands/{name}.md");
        assert!(root().join("docs").join(&page).exists(), "no docs/{page}");
        assert!(
            index.contains(&format!("({page})")),
            "docs/README.md does not link {page}"
        );
        assert!(
            readme.contains(&format!("(docs/{page})")),
            "README.md does not link {page}"
        );
    }
}

#[test]
fn the_json_fields_are_documented() {
    let doc = read(&root().join("docs/schema.md"));
    let fields = [
        schema::ERROR,
        schema::EVAL,
        schema::PGN,
        schema::REJECTED,
        schema::EPD,
        schema::ECO,
        schema::ECO_POSITION,
        schema::FEN,
        schema::VALIDATE,
    ];
    for (name, _, _) in fields.iter().flat_map(|fields| fields.iter()) {
        assert!(
            doc.contains(&format!("`{name}`")),
            "the --json field `{name}` is not in docs/schema.md"
        );
    }
}
