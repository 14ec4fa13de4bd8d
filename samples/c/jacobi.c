// Exercises: a 2-D Jacobi relaxation (Laplace equation on a 32x32 grid
// with fixed boundary values), swapping two heap grids through pointers to
// VLA rows, tracking the max residual per iteration.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

int main(void) {
    int n = 32, m = 32;
    double (*A)[m] = malloc(n * sizeof *A);
    double (*Anew)[m] = malloc(n * sizeof *Anew);
    if (!A || !Anew) return 1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) {
            double v = 0.0;
            if (i == 0) v = 1.0;
            if (j == 0) v = 0.5 * i / (n - 1);
            A[i][j] = Anew[i][j] = v;
        }
    double err = 1.0;
    int iter = 0;
    while (err > 1e-4 && iter < 500) {
        err = 0.0;
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < m - 1; j++) {
                Anew[i][j] = 0.25 * (A[i][j + 1] + A[i][j - 1] + A[i - 1][j] + A[i + 1][j]);
                err = fmax(err, fabs(Anew[i][j] - A[i][j]));
            }
        double (*t)[m] = A;
        A = Anew;
        Anew = t;
        iter++;
        if (iter % 50 == 0 || iter < 4) printf("iter %4d err %.17g\n", iter, err);
    }
    printf("stopped after %d iterations, err %.6e\n", iter, err);
    double sum = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++) sum += A[i][j];
    printf("sum %.17g center %.17g A[1][1] %.17g\n", sum, A[n / 2][m / 2], A[1][1]);
    free(A);
    free(Anew);
    return 0;
}
