//! Input handed to a library reader one line at a time, so that when the library fails the
//! bytes it has taken tell which line it was reading (tobj and stl_io give no line numbers).

use std::io::{self, BufRead, Read, Seek, SeekFrom};

pub(crate) struct LineReader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> LineReader<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// The line of the last byte taken (1 before anything is read).
    pub fn line(&self) -> usize {
        line_of(self.bytes, self.pos.saturating_sub(1))
    }

    /// The rest of the current line, its `\n` included.
    fn current_line(&self) -> &'a [u8] {
        let rest = &self.bytes[self.pos..];
        let end = rest
            .iter()
            .position(|&b| b == b'\n')
            .map_or(rest.len(), |i| i + 1);
        &rest[..end]
    }
}

/// The 1-based line holding byte `offset`.
pub(crate) fn line_of(bytes: &[u8], offset: usize) -> usize {
    1 + bytes[..offset.min(bytes.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}

impl Read for LineReader<'_> {
    /// Never more than one line per call, so a wrapping `BufReader` holds at most one line.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let line = self.current_line();
        let n = line.len().min(buf.len());
        buf[..n].copy_from_slice(&line[..n]);
        self.pos += n;
        Ok(n)
    }
}

impl BufRead for LineReader<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        Ok(self.current_line())
    }

    fn consume(&mut self, amount: usize) {
        self.pos = (self.pos + amount).min(self.bytes.len());
    }
}

impl Seek for LineReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => i128::from(n),
            SeekFrom::End(n) => self.bytes.len() as i128 + i128::from(n),
            SeekFrom::Current(n) => self.pos as i128 + i128::from(n),
        };
        if target < 0 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "seek before the start",
            ));
        }
        self.pos = (target as usize).min(self.bytes.len());
        Ok(self.pos as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_handed_out_one_at_a_time() {
        let mut reader = LineReader::new(b"a b\nccc\nd");
        assert_eq!(reader.line(), 1);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert_eq!((line.as_str(), reader.line()), ("a b\n", 1));
        let mut wrapped = io::BufReader::new(&mut reader);
        let mut buf = [0u8; 2];
        wrapped.read_exact(&mut buf).unwrap();
        drop(wrapped);
        // The BufReader took the whole second line and no more.
        assert_eq!(reader.line(), 2);
        reader.seek(SeekFrom::End(0)).unwrap();
        assert_eq!(reader.line(), 3);
    }
}
