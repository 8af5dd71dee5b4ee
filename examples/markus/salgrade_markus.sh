#!/usr/bin/env bash
# MarkUs's autotester runs this (through salgrade_student.sh or
# salgrade_grade.sh) in the group's working folder: the student's files and
# the assignment's test files side by side. It grades the student's files
# with salgrade and prints one JSON test result per line on stdout
# (`salgrade grade --format markus`: a test per function, worth its points,
# and `rules`, worth 0), and writes the student's feedback to
# salgrade_feedback.md, which the test group lists as a feedback file.
#
# Usage: salgrade_markus.sh public|grade
#   public  the public cases (seed 1): what `salgrade check` shows a student
#   grade   the secret cases: the seed is read from $SALGRADE_SEED_FILE, a
#           file on the autotester outside the working folder (never a test
#           file: those are copied into every run, students' runs included)
#
# Settings, through the environment or by editing the defaults below:
#   SALGRADE_ASSIGNMENT  a48, leetcode909, min-throws or game (default: from the file names)
#   SALGRADE_CASES       random cases per function (default 30)
#   SALGRADE_SEED_FILE   the secret seed's file (default /etc/salgrade/seed)
#   SALGRADE_WALL_S      the most seconds a student's cases may take in all
#                        (default 120; keep it well under the test group's timeout)
#   SALGRADE_SANDBOX     the sandbox for `grade` (default namespaces; see below)
#
# What MarkUs needs, and how this script gives it:
# - Any stdout text that is not a JSON object discards the whole run
#   ("malformed"): salgrade's own output goes to stderr, which MarkUs shows
#   to the instructor, and stdout gets only the results file.
# - When a test group times out, MarkUs keeps what was already printed and
#   marks the criterion from it: the results are printed only once salgrade
#   has written them all, so a run cut short prints nothing and leaves the
#   mark as it was.
# - A setup error (exit status 2: salgrade missing, a bad seed file) prints
#   no test, so MarkUs reports "no results" instead of recording 0.
set -uo pipefail

mode=${1:-public}
cases=${SALGRADE_CASES:-30}
seed_file=${SALGRADE_SEED_FILE:-/etc/salgrade/seed}
wall_s=${SALGRADE_WALL_S:-120}
feedback_file=salgrade_feedback.md
# The test files this script comes with: not the student's.
ours=(salgrade_markus.sh salgrade_student.sh salgrade_grade.sh salgrade "$feedback_file")

# salgrade from the autotester's PATH, or a bare binary uploaded as a test file.
salgrade=$(command -v salgrade || true)
if [[ -z "$salgrade" && -x ./salgrade ]]; then
    salgrade=./salgrade
fi
fail() {
    echo "salgrade_markus.sh: $*" >&2
    printf 'salgrade could not grade this submission (a setup problem, not your code); your instructor sees the error in the test run.\n' > "$feedback_file"
    exit 2
}
[[ -n "$salgrade" ]] || fail "salgrade is not on the autotester's PATH and no \`salgrade\` binary is among the test files"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One submission: the group's files, in a folder named after the group.
student=${MARKUS_GROUP:-student}
student=${student//\//_}
mkdir -p "$work/submissions/$student"
shopt -s dotglob nullglob
for f in ./*; do
    name=${f#./}
    skip=0
    for o in "${ours[@]}"; do [[ "$name" == "$o" ]] && skip=1; done
    (( skip )) || cp -R -- "$f" "$work/submissions/$student/"
done
shopt -u dotglob nullglob

args=(grade "$work/submissions" --cases "$cases" --jobs 1 --student-wall-s "$wall_s"
      --format markus -o "$work/results.jsonl" --feedback "$work/feedback" --out-dir "$work/out")
if [[ -n "${SALGRADE_ASSIGNMENT:-}" ]]; then
    args+=(--assignment "$SALGRADE_ASSIGNMENT")
fi
case "$mode" in
    public) ;;
    grade)
        [[ -r "$seed_file" ]] || fail "cannot read the secret seed file \`$seed_file\` (set SALGRADE_SEED_FILE)"
        # Student code must not read the seed: under `namespaces` it sees
        # only its own folder. Where namespaces are refused, salgrade's
        # fallback runs it as the autotester's own user, who can read the
        # seed file; asking for `namespaces` makes that a setup error rather
        # than an exposed seed.
        args+=(--seed-file "$seed_file" --sandbox "${SALGRADE_SANDBOX:-namespaces}")
        ;;
    *) fail "unknown mode \`$mode\` (public or grade)" ;;
esac

status=0
"$salgrade" "${args[@]}" >&2 || status=$?
if (( status > 1 )); then
    fail "salgrade stopped with status $status (see above)"
fi
# Exit status 1 is a grade (some case failed): the results were written.
for f in "$work/feedback/"*.md; do
    [[ -f "$f" ]] && cp -- "$f" "$feedback_file"
done
cat "$work/results.jsonl"
