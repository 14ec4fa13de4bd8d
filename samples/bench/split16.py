#!/usr/bin/env python3
"""par16: where the 16-thread time of six styles programs goes (issue 15).

Usage: python3 samples/bench/split16.py OUTDIR ACCSIM [ACCSIM2 ...]   (PROGS="a b", REPEAT=n, NOGANGS=1)
Each accsim binary runs each program at 1 and 16 threads in full and with its repetitions set
to 0 (start-up, host set-up, data copies in and out, no launches), best of 3 wall seconds with
the user/sys CPU and minor page faults of the best run; gcc -O2 of the same sources beside them.
"""
import os, subprocess, sys, time

C = os.path.dirname(os.path.abspath(__file__))
S = os.path.join(C, "styles")
OUT = sys.argv[1]
BINS = sys.argv[2:]
os.makedirs(OUT, exist_ok=True)
REPS = {"jacobi2d": "TSTEPS", "fdtd2d": "TMAX", "conv2d": "REPS", "conv3d": "REPS", "gesummv": "REPS", "calltree": None}
PROGS = list(REPS)
if os.environ.get("PROGS"):
    PROGS = os.environ["PROGS"].split()
REPEAT = int(os.environ.get("REPEAT", "3"))


def run(cmd, env=None, repeat=REPEAT):
    best = None
    for _ in range(repeat):
        e = dict(os.environ)
        e.update(env or {})
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=e)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
        if status != 0:
            return ("FAILED status %d: %s" % (status, err[-300:]), None)
        r = (wall, ru.ru_utime, ru.ru_stime, ru.ru_minflt)
        if best is None or r[0] < best[0]:
            best = r
    return ("wall %.4f user %.3f sys %.3f minflt %d" % best, best)


def log(f, line):
    print(line)
    f.write(line + "\n")
    f.flush()


with open(os.path.join(OUT, "split.txt"), "a") as f:
    for p in PROGS:
        src = os.path.join(S, p + ".c")
        zero = ["-D%s=0" % REPS[p]] if REPS[p] else None
        exe = "/tmp/par16-" + p
        subprocess.run(["gcc", "-O2", "-w", "-o", exe, src, "-lm"], check=True)
        log(f, "%s gcc -O2 full: %s" % (p, run([exe])[0]))
        if zero:
            subprocess.run(["gcc", "-O2", "-w", "-o", exe + "-0", src, "-lm"] + zero, check=True)
            log(f, "%s gcc -O2 %s=0: %s" % (p, REPS[p], run([exe + "-0"])[0]))
        for b in BINS:
            name = os.path.basename(b)
            for t in ("1", "16"):
                env = {"RAYON_NUM_THREADS": t}
                log(f, "%s %s T=%s full: %s" % (p, name, t, run([b, "run", src], env)[0]))
                if zero:
                    log(f, "%s %s T=%s %s=0: %s" % (p, name, t, REPS[p], run([b, "run"] + zero + [src], env)[0]))
            for g in (() if os.environ.get("NOGANGS") else ("16", "256")):
                log(f, "%s %s T=16 --gangs %s: %s" % (p, name, g, run([b, "run", "--gangs", g, src], {"RAYON_NUM_THREADS": "16"})[0]))
        log(f, "%s gcc -O2 full again: %s" % (p, run([exe])[0]))
    # Per-launch cost: 2,000 launches of a 100x100 stencil.
    if not os.environ.get("PROGS"):
        src = os.path.join(S, "jacobi2d.c")
        subprocess.run(["gcc", "-O2", "-w", "-o", "/tmp/par16-j100", src, "-DN=100", "-DTSTEPS=1000", "-lm"], check=True)
        log(f, "launches gcc -O2 N=100 TSTEPS=1000: %s" % run(["/tmp/par16-j100"])[0])
        for b in BINS:
            for t in ("1", "16"):
                for steps in ("0", "1000"):
                    log(f, "launches %s T=%s N=100 TSTEPS=%s: %s" % (os.path.basename(b), t, steps, run([b, "run", "-DN=100", "-DTSTEPS=" + steps, src], {"RAYON_NUM_THREADS": t}, 5)[0]))

# Phase times at 16 threads (one run each).
with open(os.path.join(OUT, "phases.txt"), "a") as f:
    for b in BINS:
        for p in PROGS:
            src = os.path.join(S, p + ".c")
            for t in ("1", "16"):
                r = subprocess.run([b, "run", src], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                   env=dict(os.environ, RAYON_NUM_THREADS=t, ACCSIM_PHASE_TIMES="1"))
                f.write("== %s %s T=%s\n" % (os.path.basename(b), p, t))
                f.write("\n".join(l for l in r.stderr.decode(errors="replace").splitlines() if "native `" not in l) + "\n")
print("finished")
