import os, sys, subprocess, collections
# Issue 16 twins (session 15): user CPU of whole runs from wait4, commands interleaved round by round.
# usage: ucpu.py ROUNDS label::cmd ... ; prints best and median user CPU (s) per label
rounds = int(sys.argv[1]); jobs = [a.split('::', 1) for a in sys.argv[2:]]
res = collections.defaultdict(list)
for r in range(rounds):
    for label, cmd in jobs:
        p = subprocess.Popen(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, ru = os.wait4(p.pid, 0)
        res[label].append(ru.ru_utime + ru.ru_stime * 0)
for label, _ in jobs:
    v = sorted(res[label]); print(f"{label:6s} best {v[0]:.4f} median {v[len(v)//2]:.4f}")
