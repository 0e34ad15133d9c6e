//! The `kifu` binary: a thin shell over the library's `cli` module.

/// With several jobs, memory allocated on one thread is freed on another
/// (the walk's paths, the results handed over). glibc's allocator then
/// locks the allocating thread's arena and the threads sleep on each
/// other; jemalloc's thread caches take such frees without a lock
/// (benches/README.md, "Allocation across threads").
#[cfg(not(windows))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() -> std::process::ExitCode {
    kifu::cli::run()
}
