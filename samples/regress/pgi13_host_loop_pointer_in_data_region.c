// Issue 17, PGI Accelerator 1.3 §2.4.1.1: "The host clause tells the compiler to execute this
// loop sequentially on the host processor." A `host` loop in a region inside a data region, on
// data behind a pointer the data region maps (`p[0:n-1]`, 1.3 bounds) and on a file-scope array
// the region's implicit analysis maps: the region is split at the loop; the loop reads what the
// first kernel wrote (`update host(p[0:n])` before it) and the second kernel reads what the loop
// wrote (`update device(p[0:n])` after it). `weights`, which no kernel writes, moves only in.
#include <stdio.h>
#include <stdlib.h>

static double weights[64];

double run(int n) {
    double *p = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) p[i] = i;
    for (int i = 0; i < 64; i++) weights[i] = 1.0 / (1 + i);
    double total = 0;
#pragma acc data region copy(p[0:n-1])
    {
#pragma acc region
        {
#pragma acc for parallel
            for (int i = 0; i < n; i++)
                p[i] = p[i] * 2;
#pragma acc for host
            for (int i = 1; i < n; i++)
                p[i] = p[i] + p[i - 1] * weights[i % 64];
#pragma acc for parallel
            for (int i = 0; i < n; i++)
                p[i] = p[i] * weights[i % 64] + 1;
        }
    }
    for (int i = 0; i < n; i++) total += p[i];
    free(p);
    return total;
}

int main(void) {
    printf("n = 4: %.6f\n", run(4));
    printf("n = 200: %.6f\n", run(200));
    return 0;
}
