#!/usr/bin/env bash
# Builds salgrade for any x86_64 Linux with glibc 2.17 or later (CentOS 7,
# 2014, onwards) and proves it, from one build:
#
#   dist/salgrade-VERSION-py3-none-manylinux_2_17_x86_64.whl   what students `pip install`
#   dist/salgrade-VERSION-x86_64-linux-glibc2.17               the bare binary (containers)
#
# maturin builds the wheel with zig as the linker (`--zig`), against glibc
# 2.17's symbols (`--compatibility manylinux2014`); the bare binary is the one
# inside the wheel. Then the checks CI relies on:
#
#   1. the highest GLIBC_ symbol version the binary needs is at most 2.17;
#   2. `auditwheel show` reports the wheel as manylinux2014 (manylinux_2_17);
#   3. the wheel, installed into a fresh virtual environment, passes the model
#      solution with `salgrade check` and grades the sample cohort.
#
#   bash packaging/wheel.sh            # build and check (needs Python 3 and cargo)
#   pip install dist/salgrade-*.whl    # then, anywhere on Linux x86_64
#
# The build tools (maturin, ziglang, cargo-zigbuild, auditwheel) come from
# PyPI, pinned below, into a throw-away virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v readelf >/dev/null || { echo "error: readelf (binutils) is needed to check the binary's glibc symbols" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet \
    "maturin==1.16.0" "ziglang==0.17.1" "cargo-zigbuild==0.24.0" "auditwheel==6.8.2"
export PATH="$work/build/bin:$PATH"
rustup target add x86_64-unknown-linux-gnu >/dev/null 2>&1 || true

rm -f dist/salgrade-*.whl dist/salgrade-*-x86_64-linux-glibc2.17
maturin build --release --locked --quiet --zig --compatibility manylinux2014 \
    --target x86_64-unknown-linux-gnu --out dist
wheel=$(ls dist/salgrade-*manylinux*_x86_64.whl)
version=$(basename "$wheel" | cut -d- -f2)
echo "built $wheel ($(du -h "$wheel" | cut -f1))"

# 1. The bare binary, taken out of the wheel, and the glibc it needs.
python3 -m zipfile -e "$wheel" "$work/unzipped"
binary=dist/salgrade-$version-x86_64-linux-glibc2.17
cp "$work/unzipped/salgrade-$version.data/scripts/salgrade" "$binary"
chmod +x "$binary"
highest=$(readelf --dyn-syms --wide "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -u -V | tail -n 1)
echo "$binary needs at most $highest"
if [ "$(printf '%s\n' "$highest" GLIBC_2.17 | sort -V | tail -n 1)" != GLIBC_2.17 ]; then
    echo "error: $binary needs $highest, newer than glibc 2.17" >&2
    exit 1
fi

# 2. The wheel's platform tag, as auditwheel reads it from the binary.
auditwheel show "$wheel" | tee "$work/auditwheel.txt"
if ! tr '\n' ' ' <"$work/auditwheel.txt" | grep -Eq 'consistent with the following platform tag: *"?manylinux_2_17_x86_64'; then
    echo "error: auditwheel does not report $wheel as manylinux_2_17 (manylinux2014)" >&2
    exit 1
fi

# 3. As a student (and an instructor) would use it.
python3 -m venv "$work/try"
"$work/try/bin/pip" install --quiet "$wheel"
"$work/try/bin/salgrade" --version
"$work/try/bin/salgrade" check --cases 2 reference/python/a48/salbLLfunctions.py >"$work/check.txt"
grep -q "All cases pass." "$work/check.txt"
status=0
"$work/try/bin/salgrade" grade --cases 5 --out-dir "$work/out" fixtures/submissions >"$work/table.txt" || status=$?
if [ "$status" != 1 ]; then
    cat "$work/table.txt" >&2
    echo "error: grading the sample cohort exited $status, not 1 (some submissions fail)" >&2
    exit 1
fi
python3 - "$work/out/report.json" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
students = {s["student"]: s for s in report["students"]}
assert len(students) >= 20, f"{len(students)} students graded"
correct = students["correct"]
assert correct["score"] == correct["max_score"], correct["score"]
assert students["wrong_answer"]["score"] < students["wrong_answer"]["max_score"]
print(f"the wheel graded the sample cohort: {len(students)} students, `correct` {correct['score']}/{correct['max_score']}")
EOF
echo "the wheel installs into a fresh virtual environment, passes the model solution and grades the sample cohort"
