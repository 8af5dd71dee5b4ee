//! The course's Python API and the model solution, embedded as text so the
//! binary carries them everywhere it grades.

/// `salboard.py`: the dictionary representation, `SALboard(numSquares, snadders)`.
pub const SALBOARD_PY: &str = include_str!("../../python/a48/salboard.py");
/// `salbnode.py`: the linked-list node, `SALBnode(next=None, snadder=None)`.
pub const SALBNODE_PY: &str = include_str!("../../python/a48/salbnode.py");
/// A model `salbLLfunctions.py` that obeys the handout's rules.
pub const MODEL_SOLUTION_PY: &str = include_str!("../../python/a48/salbLLfunctions.py");
/// The slowest acceptable `salbLLfunctions.py` (one node a step, twins found
/// by walking): deadlines are a multiple of its CPU time.
pub const NAIVE_SOLUTION_PY: &str = include_str!("../../python/a48/naive/salbLLfunctions.py");
