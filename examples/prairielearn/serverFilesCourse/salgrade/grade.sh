#!/usr/bin/env bash
# PrairieLearn's external grader runs this in the grading container
# (`externalGradingOptions.entrypoint` in the question's info.json:
# `/grade/serverFilesCourse/salgrade/grade.sh a48`). It grades the
# student's files in /grade/student/ and writes
# /grade/results/results.json (`salgrade grade --format prairielearn`: the
# score out of 1, a test per function worth its points, `rules` worth 0,
# the feedback, and `gradable: false` for a file that cannot run at all).
#
# Usage: grade.sh [ASSIGNMENT]   (a48, leetcode909, min-throws or game;
#                                 default: from the file names)
#
# The question's `tests/` folder (copied to /grade/tests/) may hold:
#   seed         the secret seed, one number: without it the public cases
#                (seed 1) are graded, which students can run themselves
#   rubric.toml  the rubric (`salgrade init --rubric rubric.toml`)
#   cases        random cases per function, one number (default 30)
#
# What PrairieLearn needs, and how this script gives it:
# - results.json is read only when the container exits 0, and only when it
#   is at most 1 MiB: salgrade exits 0 in this format once the file is
#   written, and keeps it under 1 MB. A setup error exits 2 and writes no
#   results: PrairieLearn reports the grading as failed and the student
#   keeps the attempt.
# - The container has 2 GiB of memory and one job: one student process of
#   at most 1024 MiB at a time leaves salgrade and the interpreter room.
# - No network (`enableNetworking: false`): salgrade needs none.
set -uo pipefail

# Where PrairieLearn mounts the job (a test points this at a temporary folder).
root=${SALGRADE_GRADE_ROOT:-/grade}
assignment=${1:-}
tests="$root/tests"
mkdir -p "$root/results"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/submissions/student"
cp -R "$root/student/." "$work/submissions/student/"

args=(grade "$work/submissions" --jobs 1 --memory-mb 1024 --student-wall-s 180
      --format prairielearn -o "$root/results/results.json" --out-dir "$work/out")
if [[ -n "$assignment" ]]; then
    args+=(--assignment "$assignment")
fi
if [[ -f "$tests/cases" ]]; then
    args+=(--cases "$(tr -d '[:space:]' < "$tests/cases")")
fi
if [[ -f "$tests/rubric.toml" ]]; then
    args+=(--rubric "$tests/rubric.toml")
fi
if [[ -f "$tests/seed" ]]; then
    # The seed stays secret even where the container refuses namespaces and
    # salgrade falls back to resource limits, under which student code sees
    # the whole file system: as root, salgrade runs student code as an
    # unprivileged uid, so the seed is made root's alone. salgrade warns
    # ("SECRET EXPOSED") in the job's log if student code could read it.
    cp "$tests/seed" "$work/seed"
    chmod 600 "$work/seed"
    chmod -R go-rwx "$tests"
    args+=(--seed-file "$work/seed")
else
    echo "grade.sh: no \`tests/seed\` in the question: grading the public cases (seed 1)" >&2
fi

status=0
salgrade "${args[@]}" || status=$?
exit "$status"
