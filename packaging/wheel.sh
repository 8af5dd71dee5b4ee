#!/usr/bin/env bash
# Builds the salgrade wheel into dist/ (the release binary inside, built by
# maturin), then proves it as a student would use it: installs it into a
# fresh virtual environment and runs `salgrade check` on the model solution.
#
#   bash packaging/wheel.sh            # build and test
#   pip install dist/salgrade-*.whl    # then, anywhere on Linux x86_64
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/build"
"$work/build/bin/pip" install --quiet "maturin>=1.5,<2.0"
"$work/build/bin/maturin" build --release --quiet --out dist
wheel=$(ls -t dist/salgrade-*.whl | head -n 1)
echo "built $wheel ($(du -h "$wheel" | cut -f1))"

python3 -m venv "$work/try"
"$work/try/bin/pip" install --quiet "$wheel"
"$work/try/bin/salgrade" --version
"$work/try/bin/salgrade" check --cases 2 reference/python/a48/salbLLfunctions.py >"$work/check.txt"
grep -q "All cases pass." "$work/check.txt"
echo "the wheel installs into a fresh virtual environment and its salgrade passes the model solution"
