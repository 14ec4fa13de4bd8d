// §2.6.5.7: data is "already present in device memory due to data regions ... such as data
// constructs within procedures that call the procedure containing this construct".
#include <stdio.h>
static void smooth(double *u, double *v, int n) {
#pragma acc parallel loop present(u[0:n], v[0:n])
    for (int i = 1; i < n - 1; i++) v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3.0;
}
int main(void) {
    double u[9], v[9];
    for (int i = 0; i < 9; i++) { u[i] = i * 3.0; v[i] = 0.0; }
#pragma acc data copyin(u) copy(v)
    {
        smooth(u, v, 9);
    }
    printf("%.1f %.1f %.1f %.1f\n", v[0], v[1], v[4], v[8]);
    return 0;
}
