#!/usr/bin/env python3
"""Write a large C OpenACC program for the compile-time target of issue 15 ("a program of 20,000
lines compiles in under a second").

    samples/bench/gen_big_program.py [--lines 20000] OUT.c

The program is what a large application looks like, not one function repeated: units of the
kinds of the `styles` suite (dense products over 2-D rows, 1-D stencils with boundary cases,
max/sum reductions with math calls, an `atomic` histogram, variable-length-array products,
a struct of arrays, host-only helpers with `switch` and `while`), each unit with its own
constants, loop shapes and clauses chosen by a seeded generator, all called from `main` on
small sizes so that the run itself is short and the time is the front end's and the code
generator's. Its output is a checksum that `gcc -O2` (directives ignored) prints too.
Deterministic: the same arguments write the same file.
"""

import argparse
import random


def dense(i, r):
    n = r.choice(["n", "m"])
    op = r.choice(["+", "-"])
    c = r.randint(2, 9)
    return f"""
static void dense_{i}(int n, int m, double (*restrict a)[m], double (*restrict b)[m], double (*restrict c)[m])
{{
#pragma acc parallel loop collapse(2) present(a[0:n][0:m], b[0:n][0:m], c[0:n][0:m])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {{
            double s = 0.0;
            for (int k = 0; k < {n}; k++)
                s {op}= a[i][k % m] * b[k % n][j];
            c[i][j] = s / {c}.0 + c[i][j] * 0.{c};
        }}
}}
""", f"dense_{i}(n, n, A2, B2, C2);"


def stencil(i, r):
    w = r.choice([1, 2])
    c = r.randint(1, 7)
    return f"""
static void stencil_{i}(int n, const double *restrict in, double *restrict out)
{{
#pragma acc parallel loop gang vector present(in[0:n], out[0:n])
    for (int i = 0; i < n; i++) {{
        if (i < {w} || i >= n - {w})
            out[i] = in[i];
        else
            out[i] = 0.{c} * in[i] + (in[i - {w}] + in[i + {w}]) * 0.5;
    }}
}}
""", f"stencil_{i}(n * n, X, Y); stencil_{i}(n * n, Y, X);"


def reduction(i, r):
    f = r.choice(["fmax", "fmin"])
    g = r.choice(["fabs", "sqrt", "sin", "cos"])
    init = "-1e300" if f == "fmax" else "1e300"
    op = "max" if f == "fmax" else "min"
    return f"""
static double reduce_{i}(int n, const double *restrict x)
{{
    double best = {init}, total = 0.0;
#pragma acc parallel loop reduction({op}:best) reduction(+:total) present(x[0:n])
    for (int i = 0; i < n; i++) {{
        double v = {g}(fabs(x[i]) + {i % 5}.0);
        best = {f}(best, v);
        total += v * 0.{r.randint(1, 9)};
    }}
    return best + total;
}}
""", f"sum += reduce_{i}(n * n, X);"


def histogram(i, r):
    bins = r.choice([16, 32, 64])
    return f"""
static long histogram_{i}(int n, const double *restrict x)
{{
    long hist[{bins}];
    for (int b = 0; b < {bins}; b++)
        hist[b] = 0;
#pragma acc parallel loop copy(hist) present(x[0:n])
    for (int i = 0; i < n; i++) {{
        int b = (int)(fabs(x[i]) * {r.randint(3, 99)}.0) % {bins};
#pragma acc atomic update
        hist[b]++;
    }}
    long w = 0;
    for (int b = 0; b < {bins}; b++)
        w += hist[b] * (b + {i % 3});
    return w;
}}
""", f"isum += histogram_{i}(n * n, X);"


def vla(i, r):
    return f"""
static void vla_{i}(int n, double x[n], double y[n], double A[n][n])
{{
#pragma acc parallel loop present(A[0:n][0:n], x[0:n], y[0:n])
    for (int i = 0; i < n; i++) {{
        double t = 0.0;
#pragma acc loop reduction(+:t)
        for (int j = 0; j < n; j++)
            t += A[{r.choice(["i][j", "j][i"])}] * y[j];
        x[i] = x[i] * 0.{r.randint(1, 9)} + t;
    }}
}}
""", f"vla_{i}(n, V1, V2, (double (*)[n])A2);"


def records(i, r):
    k = r.randint(2, 6)
    return f"""
struct soa_{i} {{
    double *pos, *vel;
    int count;
}};

static void advance_{i}(struct soa_{i} *s, double dt)
{{
    double *restrict pos = s->pos, *restrict vel = s->vel;
    int count = s->count;
#pragma acc parallel loop present(pos[0:count], vel[0:count])
    for (int i = 0; i < count; i++) {{
        vel[i] = vel[i] * 0.{k} - pos[i] * dt;
        pos[i] += vel[i] * dt;
    }}
}}
""", f"{{ struct soa_{i} s = {{ X, Y, n * n }}; advance_{i}(&s, 0.0{k}); }}"


def host(i, r):
    cases = "\n".join(f"        case {c}:\n            acc = acc * {c + 2} + {r.randint(1, 50)};\n            break;" for c in range(r.randint(3, 6)))
    return f"""
static long host_{i}(long seed, int rounds)
{{
    long acc = seed;
    int k = 0;
    while (k < rounds) {{
        switch ((int)(acc % {r.randint(4, 8)})) {{
{cases}
        default:
            acc = acc / 3 + {i};
        }}
        acc %= 1000003;
        k++;
    }}
    return acc;
}}
""", f"isum += host_{i}(isum % 1000 + {i}, 20);"


KINDS = [dense, stencil, reduction, histogram, vla, records, host]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--lines", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=15)
    a = ap.parse_args()
    r = random.Random(a.seed)
    head = """/* Written by samples/bench/gen_big_program.py (issue 15's compile-time target). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
"""
    units, calls = [], []
    lines = head.count("\n") + 40
    i = 0
    while lines < a.lines:
        kind = KINDS[i % len(KINDS)] if i < len(KINDS) else r.choice(KINDS)
        text, call = kind(i, r)
        units.append(text)
        calls.append("        " + call)
        lines += text.count("\n") + 1
        i += 1
    main_text = """
int main(void)
{
    const int n = 8;
    double (*A2)[n] = malloc(sizeof(double[n][n])), (*B2)[n] = malloc(sizeof(double[n][n]));
    double (*C2)[n] = malloc(sizeof(double[n][n]));
    double *X = malloc(sizeof(double) * n * n), *Y = malloc(sizeof(double) * n * n);
    double *V1 = malloc(sizeof(double) * n), *V2 = malloc(sizeof(double) * n);
    if (!A2 || !B2 || !C2 || !X || !Y || !V1 || !V2)
        return 1;
    for (int i = 0; i < n; i++) {
        V1[i] = i * 0.25;
        V2[i] = 1.0 - i * 0.125;
        for (int j = 0; j < n; j++) {
            A2[i][j] = (i * 3 + j) % 7 * 0.5;
            B2[i][j] = (i + j * 5) % 11 * 0.25;
            C2[i][j] = 0.0;
            X[i * n + j] = (i * j % 13) * 0.1;
            Y[i * n + j] = 0.0;
        }
    }
    double sum = 0.0;
    long isum = 1;
#pragma acc data copy(A2[0:n][0:n], B2[0:n][0:n], C2[0:n][0:n], X[0:n*n], Y[0:n*n], V1[0:n], V2[0:n])
    {
@CALLS@
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            sum += C2[i][j] + X[i * n + j] * 1e-3 + V1[i] * 1e-6;
    printf("units=@UNITS@ checksum=%.6e isum=%ld\\n", sum, isum);
    free(A2); free(B2); free(C2); free(X); free(Y); free(V1); free(V2);
    return 0;
}
""".replace("@CALLS@", "\n".join(calls)).replace("@UNITS@", str(len(units)))
    with open(a.out, "w") as f:
        f.write(head + "".join(units) + main_text)


if __name__ == "__main__":
    main()
