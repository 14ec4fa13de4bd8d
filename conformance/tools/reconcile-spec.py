#!/usr/bin/env python3
"""Bring the spec suite's bookkeeping up to date after fixes: reads the report of
`cargo test -p accsim --test spec` (a file, or stdin) and, for every program the report says
"now passes", removes it from KNOWN_FAILURES in simulator/tests/spec.rs (or regress.rs), marks it
passing in conformance/SPEC_COVERAGE.md, drops its reproducer from conformance/spec/FAILURES.md,
and recounts the summary line. Programs that "fail differently" are only listed: their new
symptom needs a person's reading.

    cargo test -p accsim --test spec > /tmp/spec.txt 2>&1; conformance/tools/reconcile-spec.py /tmp/spec.txt
"""
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
report = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
passing = sorted(set(re.findall(r"^(\S+): now passes", report, re.M)))
different = sorted(set(re.findall(r"^(\S+): fails differently", report, re.M)))

for harness in ["simulator/tests/spec.rs", "simulator/tests/regress.rs"]:
    p = root / harness
    lines = p.read_text().split("\n")
    keep = [l for l in lines if not any(l.strip().startswith(f'("{n}",') for n in passing)]
    p.write_text("\n".join(keep))

cov = root / "conformance/SPEC_COVERAGE.md"
text = cov.read_text()
for n in passing:
    text = re.sub(r"^(\| `%s` \| [^|]+\| )fails: [^\n]*\|$" % re.escape(n), r"\1passes |", text, flags=re.M)
rows = re.findall(r"^\| `[^`]+` \| [^|]+\| (passes|fails)", text, re.M)
total, fails = len(rows), sum(1 for r in rows if r == "fails")
text = re.sub(r"\*\*\d+ programs; \d+ pass, \d+ fail\*\*", f"**{total} programs; {total - fails} pass, {fails} fail**", text)
cov.write_text(text)

fail = root / "conformance/spec/FAILURES.md"
text = fail.read_text()
for n in passing:
    text = re.sub(r"^### `%s`\n.*?(?=^### |^## |\Z)" % re.escape(n), "", text, flags=re.M | re.S)
fail.write_text(text)

print(f"now passing, removed from the known failures: {len(passing)}")
for n in passing:
    print("  " + n)
print(f"failing differently (read and update by hand): {len(different)}")
for n in different:
    print("  " + n)
print(f"coverage: {total} programs, {total - fails} pass, {fails} fail")
