#!/usr/bin/env python3
"""Puts the benchmark's latest tables into the documentation (docs/performance.md).

Each `<!-- bench:NAME -->` ... `<!-- /bench:NAME -->` block of README.md or a
`docs/*.md` page is replaced by the file `bench/NAME.md` (written by `run.py`,
`breakdown.py`, `sandbox_startup.py` and `steps.py`), so the documented
figures are always the benchmark's own output, never retyped.

    python3 bench/update_docs.py
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"(<!-- bench:([a-z_]+) -->\n)(.*?)(<!-- /bench:\2 -->)", re.S)


def main():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    missing = []

    def fill(match):
        source = ROOT / "bench" / f"{match.group(2)}.md"
        if not source.exists():
            missing.append(str(source.relative_to(ROOT)))
            return match.group(0)
        return match.group(1) + source.read_text().rstrip() + "\n" + match.group(4)

    updated = {}
    for page in pages:
        text = page.read_text()
        if BLOCK.search(text):
            updated[page] = (BLOCK.sub(fill, text), len(BLOCK.findall(text)))
    if missing:
        sys.exit("not yet measured: " + ", ".join(sorted(set(missing))))
    if not updated:
        sys.exit("no `<!-- bench:NAME -->` block in README.md or docs/*.md")
    for page, (text, count) in updated.items():
        page.write_text(text)
        print(f"{page.relative_to(ROOT)}: {count} benchmark blocks updated")


if __name__ == "__main__":
    main()
