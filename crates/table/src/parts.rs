//! The part files of a partitioned table, found again: what `--force` replaces.

use std::{fs, io, path::Path};

use crate::{FileFormat, TableError};

/// Removes the part files of a partitioned table under `out` (`OUT/key=value/part-N.ext`,
/// one or two levels of `key=value` folders, the extension of `format`), and the partition
/// folders left empty, so that a table written again into `out` replaces the earlier one
/// instead of adding its rows to it. Other files are left alone. Gives how many part files
/// were removed.
///
/// ```
/// use tabia_table::{FileFormat, remove_parts};
///
/// let dir = std::env::temp_dir().join(format!("tabia-parts-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("year=2024"))?;
/// std::fs::write(dir.join("year=2024/part-0.parquet"), b"PAR1")?;
/// std::fs::write(dir.join("notes.txt"), b"mine")?;
/// assert_eq!(remove_parts(&dir, FileFormat::Parquet)?, 1);
/// assert!(!dir.join("year=2024").exists());
/// assert!(dir.join("notes.txt").exists());
/// std::fs::remove_dir_all(&dir)?;
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A folder that cannot be read, or a part file that cannot be removed.
pub fn remove_parts(out: &Path, format: FileFormat) -> Result<u64, TableError> {
    remove_in(out, format, 2).map_err(|(path, source)| TableError::Io { path, source })
}

/// [`remove_parts`] in `dir`, going down `depth` more levels of partition folders.
fn remove_in(
    dir: &Path,
    format: FileFormat,
    depth: u32,
) -> Result<u64, (std::path::PathBuf, io::Error)> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(0),
        Err(err) => return Err((dir.to_path_buf(), err)),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry.map_err(|err| (dir.to_path_buf(), err))?;
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir && depth > 0 && name.contains('=') {
            removed += remove_in(&path, format, depth - 1)?;
            // Only when nothing else is left in it.
            let _ = fs::remove_dir(&path);
        } else if !is_dir && depth < 2 && is_part(&name, format) {
            fs::remove_file(&path).map_err(|err| (path.clone(), err))?;
            removed += 1;
        }
    }
    Ok(removed)
}

/// `part-N.ext`, as the writer names a part file.
fn is_part(name: &str, format: FileFormat) -> bool {
    name.strip_prefix("part-")
        .and_then(|rest| rest.strip_suffix(format.extension()))
        .and_then(|rest| rest.strip_suffix('.'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_part_files_in_partition_folders_go() {
        let dir = tempfile::tempdir().unwrap();
        let month = dir.path().join("year=2024/month=05");
        fs::create_dir_all(&month).unwrap();
        for name in ["part-0.csv", "part-12.csv", "part-1.parquet", "part-x.csv"] {
            fs::write(month.join(name), b"x").unwrap();
        }
        // Not in a partition folder: not the writer's.
        fs::write(dir.path().join("part-0.csv"), b"x").unwrap();
        assert_eq!(remove_parts(dir.path(), FileFormat::Csv).unwrap(), 2);
        let mut left: Vec<_> = fs::read_dir(&month)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort();
        assert_eq!(left, ["part-1.parquet", "part-x.csv"]);
        assert!(dir.path().join("part-0.csv").exists());
        assert_eq!(
            remove_parts(&dir.path().join("none"), FileFormat::Csv).unwrap(),
            0
        );
    }
}
