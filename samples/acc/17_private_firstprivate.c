/* 17_private_firstprivate.c — giving each gang or iteration its own copy of a variable.
 *
 * Teaches:
 *   `private(v)` on a parallel construct (§2.5.9): one uninitialised copy per gang;
 *   `firstprivate(v)` on a parallel construct (§2.5.10): one copy per gang, initialised from the
 *     host value when the region starts; changes never go back to the host;
 *   `private(v)` on a loop (§2.7.10): one copy per iteration, here a scratch array that would be
 *     a data race if it were shared by all iterations;
 *   variables declared inside the region are private to the thread that declares them (§2.6.1).
 * Scalars referenced in a parallel construct without any clause are already firstprivate (§2.5.1).
 * The program never reads, after a region, a variable that was private or firstprivate in it:
 * what the host holds then is the value it had before (a device run) or whatever the last writer
 * left (a sequential run), and accsim's lost-write checker reports such reads.
 *
 * Expected output: gcc-derived (see README.md).
 */
#include <stdio.h>

#define N 480
#define W 6

static double in[N], out[N], offs[N];

int main(void) {
    for (int i = 0; i < N; i++) in[i] = (double)(i % 13);

    /* loop private: each iteration its own window array */
    double window[W];
#pragma acc parallel loop copyin(in) copyout(out) private(window)
    for (int i = 0; i < N; i++) {
        for (int k = 0; k < W; k++)
            window[k] = in[(i + k) % N];
        double s = 0.0;                    /* declared inside: private too */
        for (int k = 0; k < W; k++) s += window[k] * (k + 1);
        out[i] = s / 2.0;
    }

    /* firstprivate: each gang starts from the host's base and scales its own copy;
       private: each gang fills its own lookup table before the gang loop reads it */
    double base = 10.0;
    int table[4];
#pragma acc parallel num_gangs(3) firstprivate(base) private(table) copyout(offs)
    {
        base = base * 2.0;                 /* GR mode: each gang doubles ITS copy once */
        for (int t = 0; t < 4; t++) table[t] = 100 * t;
#pragma acc loop gang
        for (int i = 0; i < N; i++)
            offs[i] = base + table[i % 4] + i;
    }

    double so = 0.0, sf = 0.0;
    for (int i = 0; i < N; i++) {
        so += out[i];
        sf += offs[i];
    }
    printf("out[0] = %.6f, out[%d] = %.6f, sum(out) = %.6f\n", out[0], N - 1, out[N - 1], so);
    printf("offs[0] = %.6f, offs[5] = %.6f, sum(offs) = %.6f\n", offs[0], offs[5], sf);
    return 0;
}
