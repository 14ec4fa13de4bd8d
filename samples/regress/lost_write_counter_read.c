// Issue 12 (check must not sleep either): the counter of an `acc loop` is private to the thread
// running each iteration (§2.6.1), so a host that reads the counter after the region, expecting
// the count of iterations as after a C loop, gets the value from before the region. One finding
// per variable and region, at its first write, even where the host sets it again later.
#include <stdio.h>

#define N 1000

int main(void) {
    int i = 0, k;
    float x[N];

#pragma acc parallel loop copyout(x)
    for (i = 0; i < N; i++) x[i] = i * 0.25f; /* expect: lost-write */
    printf("filled %d elements, x[%d] = %.2f\n", i, N - 1, x[N - 1]);

    k = -1;
#pragma acc parallel copy(x)
    {
#pragma acc loop
        for (k = 0; k < N; k++) x[k] += 1.0f; /* expect: lost-write */
    }
    if (k < 0) printf("no loop ran?\n");
    for (k = 0; k < N; k++) x[k] -= 1.0f;
    printf("x[10] = %.2f\n", x[10]);
    return 0;
}
