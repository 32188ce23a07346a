//! Inventor and VRML text into a tree of generic nodes, with DEF/USE sharing.
//!
//! The parser needs no table of node types: inside a node, a word followed by `{` (or `DEF`,
//! `USE`) is a child node and any other word is a field whose value follows it: a list in
//! brackets, a node, `NULL`, a string, a run of numbers, or a word (`A | B` for bit masks).

use std::collections::HashMap;

use super::lexer::{Lexeme, Lexer, Token};

/// Nesting deeper than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 200;

pub(crate) type NodeId = usize;

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub kind: String,
    pub line: usize,
    pub fields: Vec<Field>,
    pub children: Vec<NodeId>,
}

#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub name: String,
    pub line: usize,
    pub value: Value,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// A run of numbers, or a list holding only numbers.
    Numbers(Vec<f64>),
    /// A word, a bit mask (`SIDES|TOP`) or a string.
    Word(String),
    Nodes(Vec<NodeId>),
    Null,
    /// A list with something that is not a number; the first such token and its line.
    Mixed {
        first: String,
        line: usize,
    },
}

impl Node {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().rev().find(|f| f.name == name)
    }
}

/// The parsed file: every node, and the top-level ones in order.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
    pub roots: Vec<NodeId>,
}

/// A syntax error and its line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SyntaxError {
    pub line: usize,
    pub message: String,
}

pub(crate) fn parse_tree(lexer: Lexer<'_>) -> Result<Tree, SyntaxError> {
    let mut parser = Parser {
        lexer,
        tree: Tree::default(),
        names: HashMap::new(),
    };
    parser.top_level()?;
    Ok(parser.tree)
}

struct Parser<'a> {
    lexer: Lexer<'a>,
    tree: Tree,
    names: HashMap<Vec<u8>, NodeId>,
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn error<T>(line: usize, message: impl Into<String>) -> Result<T, SyntaxError> {
    Err(SyntaxError {
        line,
        message: message.into(),
    })
}

fn describe(token: Token<'_>) -> String {
    match token {
        Token::Open => "\"{\"".into(),
        Token::Close => "\"}\"".into(),
        Token::OpenList => "\"[\"".into(),
        Token::CloseList => "\"]\"".into(),
        Token::OpenParen => "\"(\"".into(),
        Token::CloseParen => "\")\"".into(),
        Token::Bar => "\"|\"".into(),
        Token::Word(w) => format!("\"{}\"", text(w)),
        Token::Text(t) => format!("the string \"{}\"", text(t)),
        Token::End => "the end of the file".into(),
    }
}

fn is_number_like(word: &[u8]) -> bool {
    word.first()
        .is_some_and(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.'))
}

/// A finite number, or `None`.
fn number(word: &[u8]) -> Option<f64> {
    std::str::from_utf8(word)
        .ok()?
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

impl<'a> Parser<'a> {
    fn next(&mut self) -> Result<Lexeme<'a>, SyntaxError> {
        self.lexer.next().map_err(unterminated)
    }

    fn peek(&mut self, n: usize) -> Result<Token<'a>, SyntaxError> {
        self.lexer.peek(n).map(|l| l.token).map_err(unterminated)
    }

    fn top_level(&mut self) -> Result<(), SyntaxError> {
        loop {
            let lexeme = self.next()?;
            match lexeme.token {
                Token::End => return Ok(()),
                // Some GraspIt files close one brace too many at the end; Coin reads past it.
                Token::Close => {}
                Token::Word(b"ROUTE") => self.skip_route()?,
                Token::Word(b"PROTO" | b"EXTERNPROTO") => {
                    return error(lexeme.line, "VRML PROTO definitions are not supported");
                }
                Token::Word(word) => {
                    let node = self.node_after_word(word, lexeme.line, 0)?;
                    self.tree.roots.push(node);
                }
                other => {
                    return error(
                        lexeme.line,
                        format!("expected a node, found {}", describe(other)),
                    );
                }
            }
        }
    }

    /// `ROUTE a.out TO b.in` wires events; it has no geometry.
    fn skip_route(&mut self) -> Result<(), SyntaxError> {
        for _ in 0..3 {
            let lexeme = self.next()?;
            if !matches!(lexeme.token, Token::Word(_)) {
                return error(lexeme.line, "expected \"ROUTE from TO to\"");
            }
        }
        Ok(())
    }

    /// A node that starts with `word`: `DEF name Type {`, `USE name` or `Type {`.
    fn node_after_word(
        &mut self,
        word: &[u8],
        line: usize,
        depth: usize,
    ) -> Result<NodeId, SyntaxError> {
        match word {
            b"DEF" => {
                let name = self.name()?;
                let kind = self.next()?;
                let Token::Word(kind_word) = kind.token else {
                    return error(
                        kind.line,
                        format!(
                            "expected a node type after DEF, found {}",
                            describe(kind.token)
                        ),
                    );
                };
                let node = self.node_body(kind_word, kind.line, depth)?;
                self.names.insert(name, node);
                Ok(node)
            }
            b"USE" => {
                let name = self.name()?;
                self.names.get(&name).copied().ok_or_else(|| SyntaxError {
                    line,
                    message: format!("USE of \"{}\", which no DEF names before", text(&name)),
                })
            }
            kind => self.node_body(kind, line, depth),
        }
    }

    fn name(&mut self) -> Result<Vec<u8>, SyntaxError> {
        let lexeme = self.next()?;
        match lexeme.token {
            Token::Word(name) => Ok(name.to_vec()),
            other => error(
                lexeme.line,
                format!("expected a name, found {}", describe(other)),
            ),
        }
    }

    /// `{ fields and children }` after a node's type.
    fn node_body(&mut self, kind: &[u8], line: usize, depth: usize) -> Result<NodeId, SyntaxError> {
        if depth > MAX_DEPTH {
            return error(line, format!("nodes nest deeper than {MAX_DEPTH} levels"));
        }
        let open = self.next()?;
        if open.token != Token::Open {
            return error(
                open.line,
                format!(
                    "expected \"{{\" after the node type \"{}\", found {}",
                    text(kind),
                    describe(open.token)
                ),
            );
        }
        let mut node = Node {
            kind: text(kind),
            line,
            fields: Vec::new(),
            children: Vec::new(),
        };
        loop {
            let lexeme = self.next()?;
            match lexeme.token {
                Token::Close => break,
                Token::Word(word @ (b"DEF" | b"USE")) => {
                    let child = self.node_after_word(word, lexeme.line, depth + 1)?;
                    node.children.push(child);
                }
                Token::Word(word) if self.peek(0)? == Token::Open => {
                    let child = self.node_body(word, lexeme.line, depth + 1)?;
                    node.children.push(child);
                }
                Token::Word(word) => {
                    let value = self.value(depth)?;
                    node.fields.push(Field {
                        name: text(word),
                        line: lexeme.line,
                        value,
                    });
                }
                Token::End => {
                    return error(
                        lexeme.line,
                        format!("the file ends inside {} (opened on line {line})", node.kind),
                    );
                }
                other => {
                    return error(
                        lexeme.line,
                        format!(
                            "expected a field or a node inside {}, found {}",
                            node.kind,
                            describe(other)
                        ),
                    );
                }
            }
        }
        self.tree.nodes.push(node);
        Ok(self.tree.nodes.len() - 1)
    }

    /// A field's value, the field name just read.
    fn value(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        let lexeme = self.next()?;
        match lexeme.token {
            Token::OpenList => self.list(depth),
            Token::OpenParen => self.parenthesised(lexeme.line),
            Token::Text(t) => Ok(Value::Word(text(t))),
            Token::Word(b"NULL") => Ok(Value::Null),
            Token::Word(word @ (b"DEF" | b"USE")) => Ok(Value::Nodes(vec![self.node_after_word(
                word,
                lexeme.line,
                depth + 1,
            )?])),
            Token::Word(word) if self.peek(0)? == Token::Open => {
                Ok(Value::Nodes(vec![self.node_body(
                    word,
                    lexeme.line,
                    depth + 1,
                )?]))
            }
            Token::Word(word) if is_number_like(word) => self.number_run(word, lexeme.line),
            Token::Word(word) => self.bit_mask(word),
            other => error(
                lexeme.line,
                format!("expected a field value, found {}", describe(other)),
            ),
        }
    }

    /// `1 2 3` up to the first token that is not a number.
    fn number_run(&mut self, first: &[u8], line: usize) -> Result<Value, SyntaxError> {
        let mut numbers = vec![number(first).ok_or_else(|| not_a_number(first, line))?];
        while let Token::Word(word) = self.peek(0)? {
            if !is_number_like(word) || self.peek(1)? == Token::Open {
                break;
            }
            let lexeme = self.next()?;
            numbers.push(number(word).ok_or_else(|| not_a_number(word, lexeme.line))?);
        }
        Ok(Value::Numbers(numbers))
    }

    /// `WORD` or `A | B | C`.
    fn bit_mask(&mut self, first: &[u8]) -> Result<Value, SyntaxError> {
        let mut mask = text(first);
        while self.peek(0)? == Token::Bar {
            self.next()?;
            let lexeme = self.next()?;
            let Token::Word(word) = lexeme.token else {
                return error(
                    lexeme.line,
                    format!(
                        "expected a flag after \"|\", found {}",
                        describe(lexeme.token)
                    ),
                );
            };
            mask.push('|');
            mask.push_str(&text(word));
        }
        Ok(Value::Word(mask))
    }

    /// `( A | B )`, kept as the bit mask `A|B`.
    fn parenthesised(&mut self, line: usize) -> Result<Value, SyntaxError> {
        let mut mask = String::new();
        loop {
            let lexeme = self.next()?;
            match lexeme.token {
                Token::CloseParen => return Ok(Value::Word(mask)),
                Token::Word(word) => mask.push_str(&text(word)),
                Token::Bar => mask.push('|'),
                other => {
                    return error(
                        lexeme.line,
                        format!(
                            "expected flags and \"|\" up to \")\" (opened on line {line}), found {}",
                            describe(other)
                        ),
                    );
                }
            }
        }
    }

    /// The inside of `[ ... ]`: numbers, nodes, or other values.
    fn list(&mut self, depth: usize) -> Result<Value, SyntaxError> {
        let mut numbers = Vec::new();
        let mut nodes = Vec::new();
        let mut first_other: Option<(String, usize)> = None;
        loop {
            let lexeme = self.next()?;
            match lexeme.token {
                Token::CloseList => break,
                Token::Word(word @ (b"DEF" | b"USE")) => {
                    nodes.push(self.node_after_word(word, lexeme.line, depth + 1)?);
                }
                Token::Word(word) if self.peek(0)? == Token::Open => {
                    nodes.push(self.node_body(word, lexeme.line, depth + 1)?);
                }
                Token::Word(word) => match number(word) {
                    Some(v) => numbers.push(v),
                    None => {
                        first_other.get_or_insert((text(word), lexeme.line));
                    }
                },
                Token::Text(t) => {
                    first_other.get_or_insert((format!("\"{}\"", text(t)), lexeme.line));
                }
                Token::Bar => {}
                Token::End => return error(lexeme.line, "the file ends inside a \"[\" list"),
                other => {
                    return error(
                        lexeme.line,
                        format!("expected list items or \"]\", found {}", describe(other)),
                    );
                }
            }
        }
        Ok(match (first_other, nodes.is_empty()) {
            (_, false) => Value::Nodes(nodes),
            (Some((first, line)), true) => Value::Mixed { first, line },
            (None, true) => Value::Numbers(numbers),
        })
    }
}

fn unterminated(line: usize) -> SyntaxError {
    SyntaxError {
        line,
        message: "a quoted string starts here and never ends".into(),
    }
}

fn not_a_number(word: &[u8], line: usize) -> SyntaxError {
    SyntaxError {
        line,
        message: format!("\"{}\" is not a finite number", text(word)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Tree, SyntaxError> {
        parse_tree(Lexer::new(text.as_bytes(), 1, 0))
    }

    #[test]
    fn reads_fields_children_and_shared_nodes() {
        let tree = parse(
            "Separator {\n DEF C Coordinate3 { point [ 0 0 0, 1 0 0 ] }\n\
             Transform { translation 1 2 3 rotation 0 0 1 1.5 }\n\
             Cone { parts (SIDES | BOTTOM) }\n USE C\n}",
        )
        .unwrap();
        let root = &tree.nodes[tree.roots[0]];
        assert_eq!(root.kind, "Separator");
        assert_eq!(root.children.len(), 4);
        assert_eq!(root.children[0], root.children[3]);
        let coords = &tree.nodes[root.children[0]];
        assert_eq!(
            coords.field("point").unwrap().value,
            Value::Numbers(vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0])
        );
        let transform = &tree.nodes[root.children[1]];
        assert_eq!(transform.field("rotation").unwrap().line, 3);
        assert_eq!(
            transform.field("rotation").unwrap().value,
            Value::Numbers(vec![0.0, 0.0, 1.0, 1.5])
        );
        let cone = &tree.nodes[root.children[2]];
        assert_eq!(
            cone.field("parts").unwrap().value,
            Value::Word("SIDES|BOTTOM".into())
        );
    }

    #[test]
    fn vrml2_node_fields_and_lists_of_nodes() {
        let tree = parse(
            "Transform { children [ Shape { geometry IndexedFaceSet { coord NULL } } ] }\n\
             ROUTE a.b TO c.d\nGroup { }",
        )
        .unwrap();
        assert_eq!(tree.roots.len(), 2);
        let transform = &tree.nodes[tree.roots[0]];
        let Value::Nodes(children) = &transform.field("children").unwrap().value else {
            panic!("children is not a node list");
        };
        assert_eq!(tree.nodes[children[0]].kind, "Shape");
    }

    #[test]
    fn errors_say_what_and_where() {
        let err = parse("Separator {\n Cube { width 2 }\n").unwrap_err();
        assert!(err.message.contains("ends inside Separator"), "{err:?}");
        let err = parse("Separator {\n USE nothing\n}").unwrap_err();
        assert_eq!(err.line, 2);
        let tree = parse("Coordinate3 { point [ 0 0 x ] }").unwrap();
        let point = &tree.nodes[0].field("point").unwrap().value;
        assert_eq!(
            point,
            &Value::Mixed {
                first: "x".into(),
                line: 1
            }
        );
        let err = parse("Translation {\n translation 1 -nan 3 }").unwrap_err();
        assert_eq!((err.line, err.message.contains("-nan")), (2, true));
        let err = parse(&"Group {".repeat(300)).unwrap_err();
        assert!(err.message.contains("deeper"), "{err:?}");
    }
}
