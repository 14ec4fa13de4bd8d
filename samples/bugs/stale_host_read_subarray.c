/* Only the first half is updated back; the host reads the second half. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 80;
    float *a = malloc(n * sizeof *a);
    for (int i = 0; i < n; i++) a[i] = 0;
#pragma acc enter data copyin(a[0:n])
#pragma acc parallel loop present(a[0:n])
    for (int i = 0; i < n; i++) a[i] = i;
#pragma acc update host(a[0:n/2])
    printf("a[1] = %.1f\n", a[1]);
    printf("a[70] = %.1f\n", a[70]); /* expect: stale-host-read */
#pragma acc exit data delete(a[0:n])
    free(a);
    return 0;
}
