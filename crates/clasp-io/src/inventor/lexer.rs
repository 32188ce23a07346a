//! Tokens of Inventor ASCII and VRML text: braces, brackets, parentheses, bars, words and
//! quoted strings. Commas are separators like whitespace; `#` starts a comment.

/// One token; words and strings borrow the file's bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Token<'a> {
    Open,
    Close,
    OpenList,
    CloseList,
    OpenParen,
    CloseParen,
    Bar,
    Word(&'a [u8]),
    /// A quoted string, without its quotes (escapes are kept as written).
    Text(&'a [u8]),
    End,
}

/// A token and the line it starts on.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lexeme<'a> {
    pub token: Token<'a>,
    pub line: usize,
}

/// Reads tokens with two tokens of look-ahead.
pub(crate) struct Lexer<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    ahead: [Option<Result<Lexeme<'a>, usize>>; 2],
}

impl<'a> Lexer<'a> {
    pub fn new(bytes: &'a [u8], first_line: usize, start: usize) -> Self {
        Self {
            bytes,
            at: start,
            line: first_line,
            ahead: [None, None],
        }
    }

    /// The next token; `Err(line)` for a string that never ends.
    pub fn next(&mut self) -> Result<Lexeme<'a>, usize> {
        self.fill(0);
        let first = self.ahead[0].take().unwrap_or_else(|| self.scan());
        self.ahead[0] = self.ahead[1].take();
        first
    }

    /// The token `n` (0 or 1) places ahead, without consuming it.
    pub fn peek(&mut self, n: usize) -> Result<Lexeme<'a>, usize> {
        self.fill(n);
        self.ahead[n].unwrap_or(Err(self.line))
    }

    fn fill(&mut self, n: usize) {
        for slot in 0..=n {
            if self.ahead[slot].is_none() {
                self.ahead[slot] = Some(self.scan());
            }
        }
    }

    fn scan(&mut self) -> Result<Lexeme<'a>, usize> {
        self.skip_space_and_comments();
        let line = self.line;
        let Some(&byte) = self.bytes.get(self.at) else {
            return Ok(Lexeme {
                token: Token::End,
                line,
            });
        };
        let single = match byte {
            b'{' => Some(Token::Open),
            b'}' => Some(Token::Close),
            b'[' => Some(Token::OpenList),
            b']' => Some(Token::CloseList),
            b'(' => Some(Token::OpenParen),
            b')' => Some(Token::CloseParen),
            b'|' => Some(Token::Bar),
            _ => None,
        };
        if let Some(token) = single {
            self.at += 1;
            return Ok(Lexeme { token, line });
        }
        if byte == b'"' {
            return self.quoted(line);
        }
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|&b| !is_separator(b) && !b"{}[]()|\"#".contains(&b))
        {
            self.at += 1;
        }
        Ok(Lexeme {
            token: Token::Word(&self.bytes[start..self.at]),
            line,
        })
    }

    fn quoted(&mut self, line: usize) -> Result<Lexeme<'a>, usize> {
        let start = self.at + 1;
        let mut at = start;
        loop {
            match self.bytes.get(at) {
                None => return Err(line),
                Some(b'\\') => at += 2,
                Some(b'"') => break,
                Some(b'\n') => {
                    self.line += 1;
                    at += 1;
                }
                Some(_) => at += 1,
            }
        }
        self.at = at + 1;
        Ok(Lexeme {
            token: Token::Text(&self.bytes[start..at.min(self.bytes.len())]),
            line,
        })
    }

    fn skip_space_and_comments(&mut self) {
        while let Some(&b) = self.bytes.get(self.at) {
            if b == b'#' {
                while self.bytes.get(self.at).is_some_and(|&b| b != b'\n') {
                    self.at += 1;
                }
            } else if is_separator(b) {
                if b == b'\n' {
                    self.line += 1;
                }
                self.at += 1;
            } else {
                break;
            }
        }
    }
}

/// Whitespace, commas, and `~` (Inventor's "ignore this field" flag, which changes no geometry).
fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b',' || b == b'~' || b == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<(Token<'_>, usize)> {
        let mut lexer = Lexer::new(text.as_bytes(), 1, 0);
        let mut out = Vec::new();
        loop {
            let lexeme = lexer.next().unwrap();
            if lexeme.token == Token::End {
                return out;
            }
            out.push((lexeme.token, lexeme.line));
        }
    }

    #[test]
    fn splits_words_punctuation_and_strings_with_lines() {
        let got = tokens("Cube { width 2.5, # comment\n parts (SIDES|TOP) name \"a b\" }");
        assert_eq!(
            got,
            vec![
                (Token::Word(b"Cube"), 1),
                (Token::Open, 1),
                (Token::Word(b"width"), 1),
                (Token::Word(b"2.5"), 1),
                (Token::Word(b"parts"), 2),
                (Token::OpenParen, 2),
                (Token::Word(b"SIDES"), 2),
                (Token::Bar, 2),
                (Token::Word(b"TOP"), 2),
                (Token::CloseParen, 2),
                (Token::Word(b"name"), 2),
                (Token::Text(b"a b"), 2),
                (Token::Close, 2),
            ]
        );
    }

    #[test]
    fn peeks_two_ahead_and_reports_unterminated_strings() {
        let mut lexer = Lexer::new(b"a { \"never", 1, 0);
        assert_eq!(lexer.peek(1).unwrap().token, Token::Open);
        assert_eq!(lexer.next().unwrap().token, Token::Word(b"a"));
        assert_eq!(lexer.next().unwrap().token, Token::Open);
        assert_eq!(lexer.next().unwrap_err(), 1);
    }
}
