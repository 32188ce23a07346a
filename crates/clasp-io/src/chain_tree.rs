//! A robot's chains from a file whose links form a tree (URDF, MJCF): each walk from a joint
//! follows one path to a leaf and hands back the branches it passed, and every branch becomes
//! a chain of its own that starts on the joint it left from.

use clasp_core::{Chain, ChainParent, Pose};

/// A chain that branches off another where a link has several movable joints.
pub(crate) struct Branch<T> {
    /// Where it starts in the file (its first joint, or its first body).
    pub(crate) first: T,
    /// Its base in the frame of the joint it starts on.
    pub(crate) base: Pose,
    /// The index, in the chain it branches off, of the joint it starts on.
    pub(crate) on_joint: usize,
}

/// Every chain, each branch right after the chain it starts on and its branches in file order:
/// `roots` leave the palm (first, base), and `walk(first, base, index)` reads the chain that
/// will stand at `index` and the branches it passes.
pub(crate) fn chain_tree<T, E>(
    roots: Vec<(T, Pose)>,
    mut walk: impl FnMut(T, Pose, usize) -> Result<(Chain, Vec<Branch<T>>), E>,
) -> Result<Vec<Chain>, E> {
    let mut pending: Vec<(T, Pose, Option<ChainParent>)> = roots
        .into_iter()
        .rev()
        .map(|(first, base)| (first, base, None))
        .collect();
    let mut chains = Vec::new();
    while let Some((first, base, parent)) = pending.pop() {
        let here = chains.len();
        let (mut chain, branches) = walk(first, base, here)?;
        chain.parent = parent;
        chains.push(chain);
        pending.extend(branches.into_iter().rev().map(|branch| {
            let parent = ChainParent {
                chain: here,
                joint: branch.on_joint,
            };
            (branch.first, branch.base, Some(parent))
        }));
    }
    Ok(chains)
}
