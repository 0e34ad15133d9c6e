//! Sets as the bits of words: a move's neighbours as the bits of a mask,
//! and sets of points (point `p` is bit `p % 64` of word `p / 64`) as
//! the count's fills, the reader's walks and the life-and-death search
//! keep them: read here, in order.

/// The places of the bits set in `word`, lowest first.
pub(crate) fn ones(mut word: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = word.trailing_zeros() as usize;
        word &= word.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

/// The points of `set`, in order.
pub(crate) fn members(set: &[u64]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| ones(word).map(move |i| w * 64 + i))
}
