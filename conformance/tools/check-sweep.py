#!/usr/bin/env python3
"""`accsim check` on every program of some sample directories (issue 12, "check must not cry wolf").

    conformance/tools/check-sweep.py ACCSIM DIR_OR_FILE... [--timeout S]

Each program (`.c`, `.f`, `.f90`, `.F90`) is checked with the flags and environment of its
header lines, as the regress and spec tests read them (`// accsim-flags:`, `// accsim-env: K=V`,
`// check: skip`; `!` instead of `//` in Fortran), with `accsim check --format json`. Its error
and warning findings (notes do not count) are compared with its marks, `/* expect: KIND */` in C
and `! expect: KIND` in Fortran, on the finding's primary line, and with the warnings its header
announces (`// accsim warns: KIND (line N)`, the dialect samples); a program whose header
says `expect-exit: N` (N not 0) stops with that status on purpose, so check's `exit-status`
finding is expected there. One line per program:

    CLEAN     no error or warning finding, no mark
    EXPECTED  exactly the marked findings
    SKIP      `check: skip` in the header
    STOPPED   check stopped (compile error, runtime error) where the header expects `run` to
              stop (`expect-exit:` other than 0) and nothing is marked
    FALSE     a finding no mark names (kind@line listed)
    MISSED    a marked finding check did not report
    NOJSON    no JSON report (timeout, crash)

then the counts. Programs that are meant to be run by a test with other flags (a whole
directory of `samples/bugs`) are better checked by their own test.
"""
import json
import os
import re
import subprocess
import sys

EXTS = (".c", ".f", ".f90", ".F90")


def header_values(text, key):
    out = []
    for line in text.splitlines()[:40]:
        s = line.strip()
        for lead in ("//", "!", "/*", "*"):
            if s.startswith(lead):
                rest = s[len(lead):].strip()
                if rest.startswith(key + ":"):
                    out.append(rest[len(key) + 1:].strip().rstrip("*/").strip())
                break
    return out


def marks(text):
    found = set()
    for i, line in enumerate(text.splitlines(), 1):
        for m in re.finditer(r"(?:/\*|!)\s*expect:\s*([a-z-]+)", line):
            found.add((m.group(1), i))
    return found


def programs(args):
    for a in args:
        if os.path.isdir(a):
            for n in sorted(os.listdir(a)):
                if n.endswith(EXTS):
                    yield os.path.join(a, n)
        elif a.endswith(EXTS):
            yield a


def main():
    argv = sys.argv[1:]
    timeout = 300
    if "--timeout" in argv:
        i = argv.index("--timeout")
        timeout = int(argv[i + 1])
        del argv[i:i + 2]
    if len(argv) < 2:
        print(__doc__)
        return 2
    accsim, targets = argv[0], argv[1:]
    counts = {}
    for path in programs(targets):
        text = open(path, encoding="utf-8", errors="replace").read()
        flags = [f for v in header_values(text, "accsim-flags") for f in v.split()]
        env = dict(os.environ)
        for kv in header_values(text, "accsim-env"):
            if "=" in kv:
                k, v = kv.split("=", 1)
                env[k.strip()] = v.strip()
        want_exit = next((int(v) for v in header_values(text, "expect-exit") if v.lstrip("-").isdigit()), 0)
        expected = marks(text)
        for v in header_values(text, "accsim warns"):
            m = re.match(r"([a-z-]+) \(line (\d+)\)", v)
            if m:
                expected.add((m.group(1), int(m.group(2))))
        if any(v == "skip" for v in header_values(text, "check")):
            status, detail = "SKIP", ""
        else:
            try:
                p = subprocess.run([accsim, "check", "--format", "json", *flags, path], env=env, capture_output=True, timeout=timeout)
                last = p.stdout.decode(errors="replace").strip().splitlines()[-1:] or [""]
                doc = json.loads(last[0])
                found = {(f["kind"], f["line"]) for f in doc["findings"] if f["severity"] != "note"}
                if want_exit != 0:
                    expected |= {f for f in found if f[0] == "exit-status"}
                false = sorted(found - expected)
                missed = sorted(expected - found)
                if false:
                    status, detail = "FALSE", " ".join("%s@%d" % f for f in false)
                elif missed:
                    status, detail = "MISSED", " ".join("%s@%d" % f for f in missed)
                elif found:
                    status, detail = "EXPECTED", " ".join("%s@%d" % f for f in sorted(found))
                else:
                    status, detail = "CLEAN", ""
            except subprocess.TimeoutExpired:
                status, detail = "NOJSON", "timeout after %ds" % timeout
            except (ValueError, KeyError, IndexError):
                if want_exit != 0 and not expected and p.returncode == want_exit:
                    status, detail = "STOPPED", "exit %d" % p.returncode
                else:
                    err = p.stderr.decode(errors="replace").strip().splitlines()
                    status, detail = "NOJSON", "exit %d %s" % (p.returncode, (err[:1] or [""])[0][:140])
        counts[status] = counts.get(status, 0) + 1
        print("%-8s  %s %s" % (status, path, detail), flush=True)
    print()
    print("total %d: %s" % (sum(counts.values()), ", ".join("%d %s" % (n, k) for k, n in sorted(counts.items()))))
    return 1 if counts.get("FALSE") or counts.get("MISSED") or counts.get("NOJSON") else 0


if __name__ == "__main__":
    sys.exit(main())
