#!/bin/sh
# The full mutation search of issue 34 (docs/mutants.md): every machine-made
# mutant of each assignment's model and naive solutions, in Python and C++,
# asked a small-board set (equivalent or not) and the default case set (killed
# or not). It rewrites tests/mutation/results/*.json, the records that the
# suite's quick check (tests/cli/machine_mutants.rs) reads, and fails naming
# any non-equivalent mutant that no default case fails. About 25 minutes of
# wall time and 5 of CPU on 2 busy cores; run it after changing a model or
# naive solution, an operator in tests/mutation/, or the generators, then
# update the table in docs/mutants.md from the counts it prints on failure.
#
#   sh bench/mutants.sh              # all four assignments
#   sh bench/mutants.sh leetcode909  # one (a48, game, leetcode909, min_throws)
set -eu
cd "$(dirname "$0")/.."
filter="machine_mutants::${1:-}"
SALGRADE_MUTANTS_RECORD=1 cargo test --test cli "$filter" -- --ignored --test-threads 1
