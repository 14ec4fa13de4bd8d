// §2.6.5: "a subarray is an array name followed by an extended array range specification in
// brackets, with start and length" -- here of a two-dimensional variable-length array: V[0:n][0:p]
// is all n*p elements, rows of p.
#include <stdio.h>
int main(void) {
    int n = 3, p = 4;
    float V[n][p];
#pragma acc parallel loop copyout(V[0:n][0:p])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) V[i][j] = i * 100 + j;
    printf("%.0f %.0f %.0f %.0f\n", V[0][3], V[1][0], V[2][0], V[2][3]);
    return 0;
}
