// Issue 12 (real-code samples): sparse matrix-vector products in CSR form, the arrays of a
// struct mapped once by `enter data` with subarrays of its pointer members' targets (§2.6.4,
// §2.6.5), each row a gang with a vector reduction over its non-zeros (§2.7.11), the vector
// updated on the host between products (`update device`, §2.11.1).
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int nrows, nnz;
    int *rowptr, *col;
    double *val;
} csr;

static csr laplacian_1d(int n) {
    csr a;
    a.nrows = n;
    a.nnz = 3 * n - 2;
    a.rowptr = malloc((n + 1) * sizeof(int));
    a.col = malloc(a.nnz * sizeof(int));
    a.val = malloc(a.nnz * sizeof(double));
    int k = 0;
    for (int i = 0; i < n; i++) {
        a.rowptr[i] = k;
        if (i > 0) { a.col[k] = i - 1; a.val[k++] = -1.0; }
        a.col[k] = i; a.val[k++] = 2.0;
        if (i < n - 1) { a.col[k] = i + 1; a.val[k++] = -1.0; }
    }
    a.rowptr[n] = k;
    return a;
}

int main(void) {
    int n = 500;
    csr a = laplacian_1d(n);
    int *rowptr = a.rowptr, *col = a.col;
    double *val = a.val;
    int nnz = a.nnz;
    double *x = malloc(n * sizeof(double)), *y = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) x[i] = (double)(i % 7);
#pragma acc enter data copyin(rowptr[0:n + 1], col[0:nnz], val[0:nnz], x[0:n]) create(y[0:n])
    for (int rep = 0; rep < 2; rep++) {
#pragma acc parallel loop gang present(rowptr[0:n + 1], col[0:nnz], val[0:nnz], x[0:n], y[0:n])
        for (int i = 0; i < n; i++) {
            double s = 0.0;
#pragma acc loop vector reduction(+:s)
            for (int k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
            y[i] = s;
        }
#pragma acc update host(y[0:n])
        double norm1 = 0.0;
        for (int i = 0; i < n; i++) norm1 += y[i] < 0 ? -y[i] : y[i];
        printf("product %d: y[0] = %.1f y[6] = %.1f y[7] = %.1f |y|_1 = %.1f\n", rep, y[0], y[6], y[7], norm1);
        for (int i = 0; i < n; i++) x[i] = y[i];
#pragma acc update device(x[0:n])
    }
#pragma acc exit data delete(rowptr[0:n + 1], col[0:nnz], val[0:nnz], x[0:n], y[0:n])
    free(a.rowptr);
    free(a.col);
    free(a.val);
    free(x);
    free(y);
    return 0;
}
