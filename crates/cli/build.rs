//! Links the `tabia` binary with its debug sections compressed (zlib) on Linux: the line tables
//! that make backtraces readable take a third of the room, and the standard library's backtrace
//! reader, gdb, perf and valgrind all read compressed sections.

use std::env;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let linux_gnu = env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
        && env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("gnu");
    // `DEBUG` is "true" when the profile carries debug info (not in `dist`, which strips).
    let debug_info = env::var("DEBUG").as_deref() == Ok("true");
    if linux_gnu && debug_info {
        println!("cargo::rustc-link-arg-bins=-Wl,--compress-debug-sections=zlib");
    }
}
