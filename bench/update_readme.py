#!/usr/bin/env python3
"""Puts the benchmark's latest tables into README.md.

Each `<!-- bench:NAME -->` ... `<!-- /bench:NAME -->` block of the README is
replaced by the file `bench/NAME.md` (written by `run.py`, `breakdown.py`,
`sandbox_startup.py` and `steps.py`), so the README's figures are always the
benchmark's own output, never retyped.

    python3 bench/update_readme.py
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- bench:([a-z_]+) -->\n)(.*?)(<!-- /bench:\2 -->)", re.S)


def main():
    readme = ROOT / "README.md"
    text = readme.read_text()
    missing = []

    def fill(match):
        source = ROOT / "bench" / f"{match.group(2)}.md"
        if not source.exists():
            missing.append(str(source.relative_to(ROOT)))
            return match.group(0)
        return match.group(1) + source.read_text().rstrip() + "\n" + match.group(4)

    new = BLOCK.sub(fill, text)
    if missing:
        sys.exit("not yet measured: " + ", ".join(missing))
    readme.write_text(new)
    print(f"README.md: {len(BLOCK.findall(text))} benchmark blocks updated")


if __name__ == "__main__":
    main()
