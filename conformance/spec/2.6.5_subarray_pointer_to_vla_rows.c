// §2.6.5: a subarray P[0:n][0:p] of a heap array reached through a pointer to rows of p floats
// (`float (*P)[p]`, the usual way to allocate a 2-D array whose size is known at run time);
// "the length for a dynamically allocated array must be explicitly specified", and is.
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int n = 3, p = 4;
    float (*P)[p] = malloc(sizeof(float[n][p]));
#pragma acc parallel loop copyout(P[0:n][0:p])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) P[i][j] = i * 100 + j;
    printf("%.0f %.0f %.0f %.0f\n", P[0][3], P[1][0], P[2][0], P[2][3]);
    free(P);
    return 0;
}
