//! Buffers a thread keeps from work it finished, for the next work of the
//! same kind on that thread: a game tree's records when the tree is
//! dropped (`sgf::tree`), a replay's board and tables (`replay`). A check
//! of many small files then takes them back rather than asking the
//! allocator for the same blocks again for each file.
//!
//! A buffer is kept emptied, and only while it holds at most
//! [`KEPT_BYTES`]: after a huge game a thread holds a few of those at most,
//! never the huge buffers.

/// The most a kept buffer may hold: the buffers of any game of a few
/// thousand moves fit.
pub(crate) const KEPT_BYTES: usize = 64 << 10;

/// `v` emptied, to keep; a vector with no room when `v` holds more than
/// [`KEPT_BYTES`] (it is freed).
pub(crate) fn emptied<T>(mut v: Vec<T>) -> Vec<T> {
    if v.capacity() * size_of::<T>() > KEPT_BYTES {
        return Vec::new();
    }
    v.clear();
    v
}
