// Issue 17 item 2: a local array declared before a `kernels` construct and used only inside it
// is the program's variable, not the region's: its device copy is shared by the gangs (§2.6),
// and the construct is still one kernel per loop nest (§2.5.2), so the second loop, which
// reads what other gangs wrote in the first, sees every write. accsim decided a variable was
// the region's when no statement outside used it, kept the two loops in one kernel and gave
// each gang its own `b`: it printed `1 1001` (gcc: `2 1001`). The IR now records where each
// local is declared. Variants: a struct holding the array, a 2-D array, and a combined
// `kernels loop` inside a data construct beside a loop of its own.
#include <stdio.h>

#define N 1000

struct buffer { float v[N]; int n; };

int main(void) {
    float a[N], b[N], c[N];
    int i;
    for (i = 0; i < N; i++) a[i] = i + 1;

#pragma acc data copyin(a) copyout(c)
    {
#pragma acc kernels
        {
#pragma acc loop gang
            for (i = 1; i <= N; i++) b[i - 1] = 2 * a[i - 1] * 0.5f;
#pragma acc loop vector(64)
            for (i = 1; i <= N; i++) c[i - 1] = b[i - 1] + 1;
        }
    }
    printf("%g %g\n", c[0], c[N - 1]);

    struct buffer s;
    float d[N];
#pragma acc kernels copyin(a) copyout(d)
    {
        s.n = N;
#pragma acc loop gang
        for (i = 0; i < N; i++) s.v[i] = a[i];
#pragma acc loop gang
        for (i = 0; i < N; i++) d[i] = s.v[s.n - 1 - i];
    }
    printf("%g %g\n", d[0], d[N - 1]);

    float m[4][N / 4];
#pragma acc data copyin(a) copyout(c)
    {
#pragma acc kernels loop gang
        for (i = 0; i < N; i++) m[i % 4][i / 4] = a[i];
#pragma acc kernels loop gang
        for (i = 0; i < N; i++) c[i] = m[(N - 1 - i) % 4][(N - 1 - i) / 4];
    }
    printf("%g %g\n", c[0], c[N - 1]);
    return 0;
}
