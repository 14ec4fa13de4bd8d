/* Each iteration reads the element the next iteration writes: lanes (and gangs) race. */
#include <stdio.h>
#define N 256
int main(void) {
    float a[N + 1];
    for (int i = 0; i <= N; i++) a[i] = i;
#pragma acc parallel loop gang vector copy(a)
    for (int i = 0; i < N; i++)
        a[i] = a[i] + a[i + 1]; /* expect: data-race */
    printf("a[10] = %.1f\n", a[10]);
    return 0;
}
