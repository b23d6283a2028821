//! The one integration test binary of the `tabia` command: one module per subcommand.

mod show;
