//! The `dist` task.

/// Runs the task.
pub(crate) fn run(_args: &[String]) -> anyhow::Result<()> {
    let _ = crate::project_root();
    anyhow::bail!("task not built yet")
}
