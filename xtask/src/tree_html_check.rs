//! The `tree-html-check` task: the page of `tabia tree --html` in a real browser.
//!
//! `cargo xtask tree-html-check [PGN]` (default `../shared/corpus/twic1599_1000k.pgn`, else
//! `fixtures/book/games.pgn`) writes the page, opens it in headless Chromium
//! (`/usr/bin/chromium`, Debian package `chromium`) without network, and writes to
//! `target/tree-html/`:
//! - `start.png`: the page as it opens (the start position);
//! - `click.png`: the page after one click on the first move (the page's `#click=0`
//!   fragment clicks the first move row with a DOM `click()`, through the page's own handler);
//! - `click.html`: the DOM after the click, checked here to show the position after the move.
//!
//! Look at the screenshots: the task only checks that the DOM moved on.

use std::{fs, path::PathBuf, process::Command};

use anyhow::{Context, bail};

const CHROMIUM: &str = "/usr/bin/chromium";

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let root = crate::project_root();
    let pgn = match args {
        [] => {
            let corpus = root.join("../shared/corpus/twic1599_1000k.pgn");
            if corpus.exists() {
                corpus
            } else {
                root.join("fixtures/book/games.pgn")
            }
        }
        [path] => PathBuf::from(path),
        _ => bail!("usage: cargo xtask tree-html-check [PGN]"),
    };
    let status = Command::new("cargo")
        .args(["build", "--release", "-q", "-p", "tabia-cli"])
        .current_dir(&root)
        .status()?;
    if !status.success() {
        bail!("cargo build failed");
    }
    let dir = root.join("target/tree-html");
    fs::create_dir_all(&dir)?;
    let page = dir.join("tree.html");
    let status = Command::new(root.join("target/release/tabia"))
        .args(["tree", "-q", "--min-games", "2", "--html"])
        .arg(&page)
        .arg(&pgn)
        .status()?;
    if status.code().is_none_or(|code| code > 1) {
        bail!("tabia tree --html failed");
    }
    let url = format!("file://{}", page.canonicalize()?.display());
    let profile = dir.join("profile");
    let chromium = |extra: &[String]| -> anyhow::Result<Vec<u8>> {
        let _ = fs::remove_dir_all(&profile);
        let out = Command::new(CHROMIUM)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                "--window-size=1280,900",
                "--virtual-time-budget=3000",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(extra)
            .output()
            .with_context(|| format!("running {CHROMIUM}"))?;
        if !out.status.success() {
            bail!("chromium failed: {}", String::from_utf8_lossy(&out.stderr));
        }
        Ok(out.stdout)
    };
    let start = dir.join("start.png");
    let click = dir.join("click.png");
    chromium(&[format!("--screenshot={}", start.display()), url.clone()])?;
    chromium(&[
        format!("--screenshot={}", click.display()),
        format!("{url}#click=0"),
    ])?;
    let before = chromium(&["--dump-dom".to_owned(), url.clone()])?;
    let after = chromium(&["--dump-dom".to_owned(), format!("{url}#click=0")])?;
    fs::write(dir.join("click.html"), &after)?;
    let before = String::from_utf8_lossy(&before);
    let after = String::from_utf8_lossy(&after);
    let fen = |dom: &str| -> Option<String> {
        let start = dom.find("<div id=\"fen\">")? + "<div id=\"fen\">".len();
        Some(dom[start..].split('<').next()?.to_owned())
    };
    let (Some(first), Some(second)) = (fen(&before), fen(&after)) else {
        bail!("the page has no FEN line: the script did not run");
    };
    if first == second || !second.contains(" b ") {
        bail!("the click did not move on: {first} then {second}");
    }
    if !after.contains("<a>1. ") {
        bail!("the path after the click does not show the move played");
    }
    println!("start:  {first}\nclick:  {second}");
    println!("{}\n{}", start.display(), click.display());
    Ok(())
}
