// §2.6.5: a subarray C[0:n][0:p] of a variable-length array parameter `float C[n][p]` (C99
// style numerical code): all n rows of p elements are mapped and copied back.
#include <stdio.h>
static void fill(int n, int p, float C[n][p]) {
#pragma acc parallel loop copyout(C[0:n][0:p])
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) C[i][j] = i * 100 + j;
}
int main(void) {
    float C[3][4];
    fill(3, 4, C);
    printf("%.0f %.0f %.0f %.0f\n", C[0][3], C[1][0], C[2][0], C[2][3]);
    return 0;
}
