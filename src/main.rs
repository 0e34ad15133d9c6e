//! The `kifu` binary: a thin shell over the library's `cli` module.

/// mimalloc, not the system allocator: a check allocates a dozen blocks a
/// file (the tree's records, the board, the table of positions), freed on
/// another thread with `--jobs`, and a thread-caching allocator spends
/// fewer instructions on them (2.4-2.7% of a whole `kifu check`) and
/// takes half the page faults (benches/README.md, "mimalloc as the
/// binary's allocator"). The binary's choice alone: the library leaves it
/// to its users.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    kifu::cli::run()
}
