// Issue 12 (variable-length arrays): a scratch row `double tmp[m]` of run-time length, private
// to each iteration of a loop (`parallel loop private(tmp)`, §2.7.10) and to each gang
// (`parallel private(w)`, §2.5.10), and a table `double coef[m]` given to each gang initialised
// (`firstprivate(coef)`, §2.5.11). Each private copy has the array's run-time size; the host's
// arrays keep their values.
#include <stdio.h>

int main(void) {
    int n = 8, m = 6;
    double a[n][m], out[n], tmp[m], w[m], coef[m];
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) a[i][j] = i + 0.1 * j;
    for (int j = 0; j < m; j++) tmp[j] = w[j] = -1.0, coef[j] = 1.0 / (j + 1);
#pragma acc parallel loop private(tmp) copyin(a) copyout(out)
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) tmp[j] = a[i][j] * a[i][j];
        double s = 0.0;
        for (int j = 0; j < m; j++) s += tmp[j];
        out[i] = s;
    }
    printf("private loop: %.2f %.2f %.2f tmp[0]=%.1f\n", out[0], out[3], out[7], tmp[0]);
#pragma acc parallel num_gangs(4) private(w) firstprivate(coef) copyin(a) copyout(out)
    {
#pragma acc loop gang
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) w[j] = coef[j] * a[i][j];
            double s = 0.0;
            for (int j = 0; j < m; j++) s += w[j];
            out[i] = s;
        }
    }
    printf("gang private: %.4f %.4f %.4f w[0]=%.1f\n", out[0], out[3], out[7], w[0]);
    return 0;
}
