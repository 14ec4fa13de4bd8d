// Issue 12 (check must not cry wolf): `lost-write` fired on the counters of `acc loop`s. A loop
// counter is predetermined private (§2.6.1), and a host that sets the counter again
// (`for (i = 0; ...)`) before reading it lost nothing: no finding. Counters declared before
// the loops, as C89 code does, in `parallel loop`, in `parallel` with `loop`, with `collapse`.
#include <stdio.h>
#include <stdlib.h>

#define N 64

int main(void) {
    int i, j, errors;
    double *a, *b;
    double m[N][N];

    a = malloc(N * sizeof *a);
    b = malloc(N * sizeof *b);
    if (!a || !b) return 1;
    for (i = 0; i < N; i++) {
        a[i] = i * 0.5;
        b[i] = 0.0;
    }

#pragma acc parallel loop copyin(a[0:N]) copyout(b[0:N])
    for (i = 0; i < N; i++) b[i] = 2.0 * a[i];

    errors = 0;
    for (i = 0; i < N; i++)
        if (b[i] != 2.0 * a[i]) errors++;

#pragma acc parallel copy(b[0:N]) copyout(m)
    {
#pragma acc loop
        for (i = 0; i < N; i++) b[i] += 1.0;
#pragma acc loop collapse(2)
        for (i = 0; i < N; i++)
            for (j = 0; j < N; j++) m[i][j] = i - j;
    }

    i = 0;
    while (i < N) {
        if (b[i] != 2.0 * a[i] + 1.0) errors++;
        i++;
    }
    for (j = N - 1; j >= 0; j--)
        if (m[j][N - 1 - j] != 2 * j - (N - 1)) errors++;

    printf("errors = %d\n", errors);
    free(a);
    free(b);
    return errors != 0;
}
