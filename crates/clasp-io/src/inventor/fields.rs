//! A node's fields read as numbers: a list, one number, a fixed count, or x y z triples; a
//! field of another kind, or too short, is an error naming its line.

use super::{
    Walker,
    tree::{Node, Value},
};
use crate::error::LoadError;

impl<'t> Walker<'t, '_, '_> {
    /// A field of numbers, if present; a field that holds something else is an error.
    pub(super) fn numbers(
        &self,
        node: &'t Node,
        name: &str,
    ) -> Result<Option<&'t [f64]>, LoadError> {
        let Some(field) = node.field(name) else {
            return Ok(None);
        };
        match &field.value {
            Value::Numbers(v) => Ok(Some(v)),
            Value::Mixed { first, line } => Err(self.error(
                *line,
                format!("{} {name}: expected numbers, found {first}", node.kind),
            )),
            _ => Err(self.error(
                field.line,
                format!("{} {name}: expected numbers", node.kind),
            )),
        }
    }

    pub(super) fn scalar(&self, node: &'t Node, name: &str) -> Result<Option<f64>, LoadError> {
        Ok(self.fixed::<1>(node, name)?.map(|[v]| v))
    }

    /// The first `N` numbers of a field; fewer is an error.
    pub(super) fn fixed<const N: usize>(
        &self,
        node: &'t Node,
        name: &str,
    ) -> Result<Option<[f64; N]>, LoadError> {
        let Some(values) = self.numbers(node, name)? else {
            return Ok(None);
        };
        match values.get(..N).and_then(|v| <[f64; N]>::try_from(v).ok()) {
            Some(array) => Ok(Some(array)),
            None => Err(self.error(
                node.field(name).map_or(node.line, |f| f.line),
                format!(
                    "{} {name} needs {N} numbers, found {}",
                    node.kind,
                    values.len()
                ),
            )),
        }
    }

    /// A coordinate field as a flat list of x y z triples.
    pub(super) fn points(
        &self,
        node: &'t Node,
        name: &str,
    ) -> Result<Option<&'t [f64]>, LoadError> {
        let Some(values) = self.numbers(node, name)? else {
            return Ok(None);
        };
        if values.len() % 3 != 0 {
            return Err(self.error(
                node.field(name).map_or(node.line, |f| f.line),
                format!(
                    "{} {name} holds {} numbers, not x y z triples",
                    node.kind,
                    values.len()
                ),
            ));
        }
        Ok(Some(values))
    }
}
