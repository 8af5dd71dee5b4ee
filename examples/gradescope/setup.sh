#!/usr/bin/env bash
# Gradescope runs this once, when it builds the autograder image, from
# /autograder/source (the unzipped autograder you uploaded). The zip holds:
#
#   setup.sh, run_autograder   these two files
#   salgrade/                  your copy of salgrade's source tree
#   seed                       the secret seed, one number (students never see this zip)
#   rubric.toml                optional: your rubric (`salgrade init --rubric rubric.toml`)
#
# salgrade is installed from your copy with `cargo install --path`: a course
# usually pins the version it tested, and `cargo install --git` needs the
# repository to be reachable from Gradescope's builders.
set -euo pipefail

apt-get update
# python3 runs the students' code. salgrade sandboxes with its own
# namespaces; bubblewrap is its fallback where they are refused but a setuid
# bwrap works (where neither does, salgrade says so and uses resource limits).
apt-get install -y --no-install-recommends python3 bubblewrap curl ca-certificates build-essential

# Rust, for building salgrade (only at image build time).
if ! command -v cargo >/dev/null; then
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
fi
export PATH="$HOME/.cargo/bin:$PATH"

cargo install --locked --path /autograder/source/salgrade
salgrade --version
# The secret seed: root's alone, so student code (an unprivileged uid) cannot
# read it even in the `rlimit` sandbox.
chown root:root /autograder/source/seed
chmod 600 /autograder/source/seed
