//! What a file's name says it holds (a record, an archive, a compressed
//! record, or an archive kifu cannot read), and the decoders that read
//! compressed data as a stream: gzip (`flate2`), bzip2 (`bzip2`, its pure
//! Rust back end), xz (`lzma-rust2`), zstd (`ruzstd`), and 7z archives
//! (`sevenz-rust2`). All are pure Rust: nothing links a system library.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;

/// A compression of one stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Gzip,
    Bzip2,
    Xz,
    Zstd,
}

/// An archive kifu reads in place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ArchiveKind {
    Zip,
    /// A tar file, compressed as a whole or not.
    Tar(Option<Codec>),
    SevenZ,
}

/// What a file holds, by its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Archive(ArchiveKind),
    /// One compressed file (`game.sgf.gz`).
    Compressed(Codec),
    /// An archive or compression kifu does not read, by name.
    Unsupported(&'static str),
}

/// Suffixes naming archives and compressions, longest first where one
/// ends another (`.tar.gz` before `.gz`).
const SUFFIXES: &[(&str, Kind)] = &[
    (".zip", Kind::Archive(ArchiveKind::Zip)),
    (".tar", Kind::Archive(ArchiveKind::Tar(None))),
    (".tar.gz", Kind::Archive(ArchiveKind::Tar(Some(Codec::Gzip)))),
    (".tgz", Kind::Archive(ArchiveKind::Tar(Some(Codec::Gzip)))),
    (".tar.bz2", Kind::Archive(ArchiveKind::Tar(Some(Codec::Bzip2)))),
    (".tbz2", Kind::Archive(ArchiveKind::Tar(Some(Codec::Bzip2)))),
    (".tbz", Kind::Archive(ArchiveKind::Tar(Some(Codec::Bzip2)))),
    (".tar.xz", Kind::Archive(ArchiveKind::Tar(Some(Codec::Xz)))),
    (".txz", Kind::Archive(ArchiveKind::Tar(Some(Codec::Xz)))),
    (".tar.zst", Kind::Archive(ArchiveKind::Tar(Some(Codec::Zstd)))),
    (".tzst", Kind::Archive(ArchiveKind::Tar(Some(Codec::Zstd)))),
    (".7z", Kind::Archive(ArchiveKind::SevenZ)),
    (".gz", Kind::Compressed(Codec::Gzip)),
    (".bz2", Kind::Compressed(Codec::Bzip2)),
    (".xz", Kind::Compressed(Codec::Xz)),
    (".zst", Kind::Compressed(Codec::Zstd)),
    (".rar", Kind::Unsupported("RAR archive")),
    (".lzh", Kind::Unsupported("LHA archive")),
    (".lha", Kind::Unsupported("LHA archive")),
    (".cab", Kind::Unsupported("Cabinet archive")),
    (".arj", Kind::Unsupported("ARJ archive")),
    (".ace", Kind::Unsupported("ACE archive")),
    (".sit", Kind::Unsupported("StuffIt archive")),
    (".sitx", Kind::Unsupported("StuffIt archive")),
    (".zipx", Kind::Unsupported("extended zip (zipx) archive")),
    (".lz", Kind::Unsupported("lzip-compressed file")),
    (".tlz", Kind::Unsupported("lzip-compressed tar")),
    (".lzma", Kind::Unsupported("LZMA-compressed file")),
    (".lz4", Kind::Unsupported("LZ4-compressed file")),
    (".z", Kind::Unsupported("compress (.Z) file")),
    (".taz", Kind::Unsupported("compress (.Z) tar")),
];

/// What the name says the file is; `None` for a plain file.
pub(crate) fn kind(name: &str) -> Option<Kind> {
    // A record's name (`.sgf`) ends with no suffix's last letter: one look
    // at a table tells, where the comparisons with the 31 suffixes took
    // hundreds of instructions for each file of a walk.
    let name = name.as_bytes();
    if !SUFFIX_ENDS[usize::from(name.last()?.to_ascii_lowercase())] {
        return None;
    }
    let ends_with = |suffix: &str| name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes());
    SUFFIXES.iter().filter(|(suffix, _)| ends_with(suffix)).max_by_key(|(suffix, _)| suffix.len()).map(|&(_, kind)| kind)
}

/// Whether a byte is the last of one of [`SUFFIXES`] (all lower-case).
const SUFFIX_ENDS: [bool; 256] = {
    let mut ends = [false; 256];
    let mut i = 0;
    while i < SUFFIXES.len() {
        let suffix = SUFFIXES[i].0.as_bytes();
        ends[suffix[suffix.len() - 1] as usize] = true;
        i += 1;
    }
    ends
};

/// The name without a compression suffix: `game.sgf.gz` is `game.sgf`.
pub(crate) fn decompressed_name(name: &str) -> &str {
    match kind(name) {
        Some(Kind::Compressed(_)) => name.rsplit_once('.').map_or(name, |(stem, _)| stem),
        _ => name,
    }
}

/// The format names kifu reads, for the message about one it does not.
pub(crate) const READ: &str = "zip, tar, tar.gz, tar.bz2, tar.xz, tar.zst and 7z archives, and .gz, .bz2, .xz and .zst files";

/// A reader of the decompressed stream.
pub(crate) fn decompress<'a>(codec: Codec, reader: impl BufRead + 'a) -> io::Result<Box<dyn Read + 'a>> {
    Ok(match codec {
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(reader)),
        Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(reader)),
        Codec::Xz => Box::new(lzma_rust2::XzReader::new(reader, true)),
        Codec::Zstd => Box::new(Zstd { source: reader, frame: ruzstd::decoding::FrameDecoder::new(), in_frame: false }),
    })
}

/// zstd data of any number of frames (`ruzstd` decodes one at a time),
/// skippable frames skipped.
struct Zstd<R> {
    source: R,
    frame: ruzstd::decoding::FrameDecoder,
    in_frame: bool,
}

impl<R: BufRead> Read for Zstd<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        use ruzstd::decoding::BlockDecodingStrategy;
        use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.in_frame {
                while self.frame.can_collect() < buf.len() && !self.frame.is_finished() {
                    let wanted = buf.len() - self.frame.can_collect();
                    self.frame.decode_blocks(&mut self.source, BlockDecodingStrategy::UptoBytes(wanted)).map_err(io::Error::other)?;
                }
                let n = self.frame.read(buf)?;
                if n > 0 {
                    return Ok(n);
                }
                self.in_frame = false;
            }
            if self.source.fill_buf()?.is_empty() {
                return Ok(0);
            }
            match self.frame.init(&mut self.source) {
                Ok(()) => self.in_frame = true,
                Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame { length, .. })) => {
                    io::copy(&mut (&mut self.source).take(u64::from(length)), &mut io::sink())?;
                }
                Err(e) => return Err(io::Error::other(e)),
            }
        }
    }
}

/// Receives an archive member's name and its bytes (`Ok(None)`: over
/// `max_bytes`, not read; an error of kind `FileTooLarge`: not read
/// because of another member over it).
pub(crate) type EmitMember<'a> = dyn FnMut(&str, io::Result<Option<Vec<u8>>>) -> ControlFlow<()> + 'a;

/// Hands out the wanted members of a 7z archive. Blocks holding no wanted
/// member are not decompressed; in a solid block the members before a
/// wanted one are decompressed and dropped. A member larger than
/// `max_bytes` (by its declared size, which bounds its stream) is not read,
/// nor are the members after it in the same block (they would need it
/// decompressed first): each is reported.
pub(crate) fn sevenz_members(path: &Path, wanted: &dyn Fn(&str) -> bool, max_bytes: u64, emit: &mut EmitMember<'_>) -> io::Result<ControlFlow<()>> {
    use sevenz_rust2::{Archive, BlockDecoder, Password};
    let mut source = BufReader::new(File::open(path)?);
    let password = Password::empty();
    let archive = Archive::read(&mut source, &password).map_err(io::Error::other)?;
    let is_wanted = |e: &sevenz_rust2::ArchiveEntry| !e.is_directory && !e.is_anti_item && wanted(&e.name);
    for block in 0..archive.blocks.len() {
        let decoder = BlockDecoder::new(1, block, &archive, &password, &mut source);
        let Some(last) = decoder.entries().iter().rposition(is_wanted) else { continue };
        let mut flow = ControlFlow::Continue(());
        let mut blocked: Option<String> = None;
        let mut index = 0;
        let result = decoder.for_each_entries(&mut |entry, reader| {
            let this = index;
            index += 1;
            if let Some(big) = &blocked {
                if is_wanted(entry) {
                    let why = format!("not read: it follows {big}, larger than --max-bytes {max_bytes}, in the same solid block");
                    flow = emit(&entry.name, Err(io::Error::new(io::ErrorKind::FileTooLarge, why)));
                }
                return Ok(flow.is_continue() && this < last);
            }
            if entry.size > max_bytes {
                blocked = Some(entry.name.clone());
                if is_wanted(entry) {
                    flow = emit(&entry.name, Ok(None));
                }
            } else if is_wanted(entry) {
                let mut bytes = Vec::with_capacity(entry.size as usize);
                reader.read_to_end(&mut bytes)?;
                flow = emit(&entry.name, Ok(Some(bytes)));
            } else {
                io::copy(reader, &mut io::sink())?;
            }
            Ok(flow.is_continue() && this < last)
        });
        result.map_err(io::Error::other)?;
        if flow.is_break() {
            return Ok(flow);
        }
    }
    // Empty members have no stream, so no block.
    for (file, entry) in archive.files.iter().enumerate() {
        if archive.stream_map.file_block_index[file].is_none() && is_wanted(entry) && emit(&entry.name, Ok(Some(Vec::new()))).is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_say_what_a_file_holds() {
        assert_eq!(kind("a/Games.TAR.BZ2"), Some(Kind::Archive(ArchiveKind::Tar(Some(Codec::Bzip2)))));
        assert_eq!(kind("x.tgz"), Some(Kind::Archive(ArchiveKind::Tar(Some(Codec::Gzip)))));
        assert_eq!(kind("x.sgf.xz"), Some(Kind::Compressed(Codec::Xz)));
        assert_eq!(kind("x.7z"), Some(Kind::Archive(ArchiveKind::SevenZ)));
        assert_eq!(kind("x.rar"), Some(Kind::Unsupported("RAR archive")));
        assert_eq!(kind("x.sgf"), None);
        assert_eq!(decompressed_name("dir/x.gib.zst"), "dir/x.gib");
        assert_eq!(decompressed_name("x.tar.gz"), "x.tar.gz");
    }

    #[test]
    fn zstd_frames_one_after_another_and_skippable_frames() {
        use ruzstd::encoding::{CompressionLevel, compress_to_vec};
        let mut data = compress_to_vec(&b"(;GM[1]"[..], CompressionLevel::Fastest);
        data.extend([0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9]); // a skippable frame
        data.extend(compress_to_vec(&b";B[aa])"[..], CompressionLevel::Fastest));
        let mut out = String::new();
        decompress(Codec::Zstd, &data[..]).unwrap().read_to_string(&mut out).unwrap();
        assert_eq!(out, "(;GM[1];B[aa])");
        assert!(decompress(Codec::Zstd, &b"not zstd"[..]).unwrap().read_to_string(&mut out).is_err());
    }
}
