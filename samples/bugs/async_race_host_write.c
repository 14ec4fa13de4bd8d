/* The host overwrites the buffer an async copy to the device is still reading. */
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 64;
    double *x = malloc(n * sizeof *x);
    for (int i = 0; i < n; i++) x[i] = i;
#pragma acc enter data create(x[0:n])
#pragma acc update device(x[0:n]) async(3)
    for (int i = 0; i < n; i++)
        x[i] = -1.0; /* expect: async-race */
#pragma acc wait(3)
#pragma acc exit data delete(x[0:n])
    printf("x[0] = %.1f\n", x[0]);
    free(x);
    return 0;
}
