//! The `dist` task: shell completions and man pages of `tabia`, generated from its clap
//! definition (`tabia_cli::command`), so they never drift from the binary.
//!
//! `cargo xtask dist [--out DIR]` writes, under `DIR` (default `target/dist`):
//! - `completions/`: `tabia.bash`, `_tabia` (zsh), `tabia.fish`, `tabia.elv`, `_tabia.ps1`;
//! - `man/`: `tabia.1` and one page per subcommand (`tabia-pgn.1`, …).

use std::{
    fs,
    path::{Path, PathBuf},
};

use anyhow::Context;
use clap_complete::Shell;

/// The shells completions are written for.
const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::Elvish,
    Shell::PowerShell,
];

/// Runs the task.
pub(crate) fn run(args: &[String]) -> anyhow::Result<()> {
    let out = match args {
        [] => crate::project_root().join("target").join("dist"),
        [flag, dir] if flag == "--out" => PathBuf::from(dir),
        _ => anyhow::bail!("usage: cargo xtask dist [--out DIR]"),
    };
    let written = write_all(&out)?;
    for path in &written {
        println!("{}", path.display());
    }
    Ok(())
}

/// Writes the completions and man pages under `out`; gives the files written.
fn write_all(out: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut written = Vec::new();

    let completions = out.join("completions");
    create_dir(&completions)?;
    for shell in SHELLS {
        let mut cmd = tabia_cli::command();
        let path = clap_complete::generate_to(shell, &mut cmd, "tabia", &completions)
            .with_context(|| format!("cannot write {shell} completions"))?;
        written.push(path);
    }

    let man = out.join("man");
    create_dir(&man)?;
    let mut cmd = tabia_cli::command().disable_help_subcommand(true);
    cmd.build();
    man_pages(&cmd, &man, &mut written)?;
    Ok(written)
}

/// Writes the man page of `cmd` and of each of its subcommands.
fn man_pages(cmd: &clap::Command, dir: &Path, written: &mut Vec<PathBuf>) -> anyhow::Result<()> {
    let page = clap_mangen::Man::new(cmd.clone());
    let path = dir.join(page.get_filename());
    fs::write(&path, man_page(cmd, &page)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    written.push(path);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        man_pages(sub, dir, written)?;
    }
    Ok(())
}

/// The sections clap_mangen draws, except that the text after the options (examples, inputs,
/// exit status) becomes sections of its own, laid out as in `--help` instead of refilled.
fn man_page(cmd: &clap::Command, page: &clap_mangen::Man) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    page.render_title(&mut out)?;
    page.render_name_section(&mut out)?;
    page.render_synopsis_section(&mut out)?;
    page.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        page.render_options_section(&mut out)?;
    }
    if cmd.has_subcommands() {
        page.render_subcommands_section(&mut out)?;
    }
    if let Some(after) = cmd.get_after_help() {
        out.extend(after_help_sections(&after.to_string()).into_bytes());
    }
    page.render_version_section(&mut out)?;
    Ok(out)
}

/// `Heading:` blocks separated by blank lines become `.SH HEADING` sections in no-fill mode.
fn after_help_sections(text: &str) -> String {
    let mut roff = String::new();
    for block in text.split("\n\n") {
        let (heading, body) = match block.split_once('\n') {
            Some((first, rest)) if first.ends_with(':') && !first.starts_with(' ') => {
                (first.trim_end_matches(':').to_uppercase(), rest)
            }
            _ => ("NOTES".to_owned(), block),
        };
        roff += &format!(".SH \"{heading}\"\n.nf\n");
        for line in body.lines() {
            roff += &roff_line(line);
            roff.push('\n');
        }
        roff += ".fi\n";
    }
    roff
}

/// A line of text for no-fill mode: backslashes and minus signs escaped, and a line that
/// starts like a request (`.` or `'`) protected.
fn roff_line(line: &str) -> String {
    let escaped = line.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

fn create_dir(dir: &Path) -> anyhow::Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_completions_for_every_shell_and_a_man_page_per_subcommand() {
        let dir = std::env::temp_dir().join(format!("tabia-dist-{}", std::process::id()));
        let written = write_all(&dir).unwrap();
        let names: Vec<String> = written
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        for name in [
            "tabia.bash",
            "_tabia",
            "tabia.fish",
            "tabia.elv",
            "_tabia.ps1",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        for name in ["tabia.1", "tabia-pgn.1", "tabia-eco.1", "tabia-show.1"] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        let bash = fs::read_to_string(dir.join("completions/tabia.bash")).unwrap();
        assert!(
            bash.contains("--jobs") || bash.contains("validate"),
            "{bash}"
        );
        let page = fs::read_to_string(dir.join("man/tabia.1")).unwrap();
        assert!(page.contains(".TH tabia 1"), "{page}");
        assert!(page.contains("tabia\\-pgn(1)"), "subcommands are listed");
        assert!(
            page.contains(".SH \"EXAMPLES\"\n.nf\n  tabia pgn \\-\\-check"),
            "{page}"
        );
        assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
        let page = fs::read_to_string(dir.join("man/tabia-eco.1")).unwrap();
        assert!(page.contains(".TH tabia-eco 1"), "{page}");
        assert!(page.contains(".SH \"EXAMPLES\""), "{page}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn after_help_blocks_become_no_fill_sections() {
        let roff = after_help_sections("Examples:\n  a --b\n.x\n\nplain text");
        assert_eq!(
            roff,
            ".SH \"EXAMPLES\"\n.nf\n  a \\-\\-b\n\\&.x\n.fi\n.SH \"NOTES\"\n.nf\nplain text\n.fi\n"
        );
    }
}
