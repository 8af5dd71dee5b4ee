#!/usr/bin/env bash
# The test group instructors run to grade: the secret cases, from the seed
# file on the autotester (SALGRADE_SEED_FILE, default /etc/salgrade/seed).
exec "$(dirname "$0")/salgrade_markus.sh" grade
