// Issue 12 (variable-length arrays): PolyBench's C99 style, functions taking variable-length
// array parameters `double A[ni][nk]`, whose data clauses name the parameters whole (`copyin(A,
// B) copy(C)`). As for a parameter declared with a constant extent, accsim maps the declared
// extent, ni rows of nk elements (nvc's reading; OpenACC 2.0 would map the pointer, --strict-2.0),
// and the kernel indexes rows of the run-time size nk (§2.6.5).
#include <stdio.h>
#include <stdlib.h>

static void gemm(int ni, int nj, int nk, double alpha, double beta, double C[ni][nj], double A[ni][nk], double B[nk][nj]) {
#pragma acc parallel loop collapse(2) copyin(A, B) copy(C)
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) {
            double acc = 0.0;
            for (int k = 0; k < nk; k++) acc += A[i][k] * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * acc;
        }
}

static double trace(int n, double C[n][n]) {
    double t = 0.0;
#pragma acc parallel loop reduction(+:t) copyin(C)
    for (int i = 0; i < n; i++) t += C[i][i];
    return t;
}

int main(void) {
    int ni = 12, nj = 12, nk = 7;
    double (*A)[nk] = malloc(sizeof(double[ni][nk]));
    double (*B)[nj] = malloc(sizeof(double[nk][nj]));
    double (*C)[nj] = malloc(sizeof(double[ni][nj]));
    for (int i = 0; i < ni; i++)
        for (int k = 0; k < nk; k++) A[i][k] = (double)((i * k + 1) % ni) / ni;
    for (int k = 0; k < nk; k++)
        for (int j = 0; j < nj; j++) B[k][j] = (double)((k * (j + 1)) % nj) / nj;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) C[i][j] = (double)(i * j % 5);
    gemm(ni, nj, nk, 1.5, 1.2, C, A, B);
    double sum = 0.0;
    for (int i = 0; i < ni; i++)
        for (int j = 0; j < nj; j++) sum += C[i][j];
    printf("C[0][0]=%.4f C[5][7]=%.4f C[11][11]=%.4f sum=%.4f trace=%.4f\n", C[0][0], C[5][7], C[11][11], sum, trace(ni, C));
    free(A);
    free(B);
    free(C);
    return 0;
}
