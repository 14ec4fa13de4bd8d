// Issue 17 item 1: macros in the text of PGI Accelerator 1.3 directives. The PGI compilers
// expanded object-like and function-like macros in every accelerator directive (the 1.3
// document's examples size subarrays and loop widths with them); gcc's preprocessor expands
// only OpenACC 2.0's directive names and left `N` in `#pragma acc region copyin(p[0:N-1])`, so
// the program failed with "undeclared identifier `N`". Each directive sees the macros of its
// own point: one defined after the includes, a function-like one, one `#undef`ined and
// redefined between two regions, and macros in `for parallel(W) vector(V)` widths and in a
// `data region`.
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define LAST(n) ((n) - 1)
#define WIDTH 64

int main(void) {
    float *p = malloc(N * sizeof(float)), *q = malloc(N * sizeof(float));
    float r[N];
    for (int i = 0; i < N; i++) p[i] = i + 1;

#pragma acc data region copyin(p[0:LAST(N)]) local(r[0:N-1])
    {
#pragma acc region copyout(q[0:N-1])
        {
#pragma acc for parallel vector(WIDTH)
            for (int i = 0; i < N; i++) r[i] = 2 * p[i];
#pragma acc for parallel(N / WIDTH) vector(WIDTH)
            for (int i = 0; i < N; i++) q[i] = r[i] + 1;
        }
    }
    printf("%g %g\n", q[0], q[LAST(N)]);

#undef N
#define N 10
#pragma acc region copy(q[0:N-1])
    {
        for (int i = 0; i < N; i++) q[i] = -q[i];
    }
    printf("%g %g %g\n", q[0], q[9], q[10]);
    free(p);
    free(q);
    return 0;
}
