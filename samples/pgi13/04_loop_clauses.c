/* 04_loop_clauses.c — the 1.3 loop mapping directive `for` and each of its clauses.
 *
 * Teaches (1.3 §2.4): inside a region, `#pragma acc for` describes one loop.
 * - `parallel[(w)]`, `vector[(w)]`: doall and synchronous parallelism (2.0 gang, vector);
 * - `seq[(w)]`: sequential on the accelerator (2.0 seq); `host[(w)]`: sequential on the host
 *   (accsim runs it sequentially in the kernel: the results are the same);
 * - `independent`: the iterations do not depend on each other (2.0 independent);
 * - `private(list)`: one copy per iteration (2.0 private);
 * - `unroll(n)`, `shortloop`, `cache(list)`, `kernel`: hints to the compiler that change no
 *   result (2.0 has no clause for them; `accsim info` says so for each).
 * The matrix-vector product below uses them all.
 */
#include <stdio.h>

#define R 64
#define C 48

int main(void) {
    static double m[R][C], v[C], out[R], rowmax[R];
    for (int i = 0; i < R; i++)
        for (int j = 0; j < C; j++) m[i][j] = (double)((i * 7 + j * 3) % 11) - 5.0;
    for (int j = 0; j < C; j++) v[j] = 1.0 + j % 3;
    double t;

#pragma acc region copyin(m, v) copyout(out, rowmax)
    {
#pragma acc for parallel(32) independent private(t)
        for (int i = 0; i < R; i++) {
            t = 0;
#pragma acc for seq unroll(4) cache(v)
            for (int j = 0; j < C; j++)
                t += m[i][j] * v[j];
            out[i] = t;
        }
#pragma acc for kernel
        for (int i = 0; i < R; i++) {
            double best = m[i][0];
            for (int j = 1; j < C; j++)
                if (m[i][j] > best) best = m[i][j];
            rowmax[i] = best;
        }
    }
#pragma acc region for host(16), parallel shortloop copy(out)
    for (int i = 0; i < R; i++)
        out[i] = out[i] / 2;

    double s = 0, mx = 0;
    for (int i = 0; i < R; i++) {
        s += out[i];
        mx += rowmax[i];
    }
    printf("out[0] = %g, out[%d] = %g, sum = %g, sum of row maxima = %g\n", out[0], R - 1, out[R - 1], s, mx);
    return 0;
}
