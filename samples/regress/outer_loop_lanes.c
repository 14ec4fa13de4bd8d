// Issue 15 (native engine, lanes across the outer loop of a nest): a loop over columns `j`
// whose body sums down the column in an inner loop, `t = 0; for (k) t += A[k][j] * x[k];
// y[j] = t;`, may run two or four `j` at once, each with its own ordered sum, only when no
// column's store can be seen by another column's loads. These nests store into arrays that
// the same nest reads through aliased pointer parameters (C11 §6.5.16.1, §6.7.3.1: without
// `restrict` the arrays may overlap): the column sums written into the matrix's own first row
// (a later column reads an earlier one's sum: must stay in order), into the vector the sums
// read, and into a distinct array (may run in lanes). Row-major products as 2mm writes them
// (`d = D[i][j] * beta` before the inner loop, `D[i][j] = d` after it) run inside a
// `parallel loop collapse(2)` (§2.7.1) and on the host. Outer trip counts run from 0 to 9 and
// inner ones from 0 to 5, so the columns left after the lanes and inner loops that never run
// are exercised; the temporary and the inner counter are read after the nest (the last
// column's values); `float` and `unsigned` sums run four lanes, the `unsigned` ones wrap as
// the scalar code does (C11 §6.2.5p9). mvt's column product `x[i] = x[i] + A[j][i] * y[j]`
// stores in its inner loop, and PolyBench's `c[j] = 0.25; for (k) c[j] += a[k] * b[k][j];`
// keeps its sum in memory, each into a distinct vector, the matrix and the weights it reads.
// Each line is what gcc prints.
#include <stdio.h>

#define N 12

static double M[N * N], v[N], out[N];
static float F[N][N], fo[N];
static unsigned U[N][N], uo[N];
/* Trip counts read at run time (loops of a constant trip count are unrolled instead). */
int first = 2, last_row = 9, side = N - 1;

/* Column sums of the n x n matrix at `a` (row stride `stride`) weighted by `x`, into `y`. */
static double column_sums(const double *a, int stride, const double *x, double *y, int n, int m)
{
    double t = -1.0;
    for (int j = 0; j < n; j++) {
        t = 0.5;
        for (int k = 0; k < m; k++)
            t += a[k * stride + j] * x[k];
        y[j] = t;
    }
    return t;
}

/* x[i] += a[j][i] * y[j] down the columns (mvt's second product): the inner loop stores into
 * the element of its outer iteration. */
static void column_updates(double *x, const double *a, int stride, const double *y, int n, int m)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < m; j++)
            x[i] = x[i] + a[j * stride + i] * y[j];
}

/* PolyBench's own form: the sum kept in the destination element, set before the inner loop. */
static void row_times_matrix(double *c, const double *a, const double *b, int n, int m)
{
    for (int j = 0; j < n; j++) {
        c[j] = 0.25;
        for (int k = 0; k < m; k++)
            c[j] += a[k] * b[k * N + j];
    }
}

static void fill(void)
{
    for (int i = 0; i < N * N; i++)
        M[i] = (double)((i * 7) % 11) - 3.25;
    for (int i = 0; i < N; i++) {
        v[i] = 1.0 / (i + 3);
        out[i] = 0.0;
        for (int j = 0; j < N; j++) {
            F[i][j] = (float)((i * 5 + j * 3) % 13) / 7.0f;
            U[i][j] = 0x9e3779b9u * (unsigned)(i * N + j + 1);
        }
    }
}

static double checksum(const double *p, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += p[i] * (i + 1);
    return s;
}

int main(void)
{
    /* A distinct destination, every trip count. */
    for (int n = 0; n <= 9; n++)
        for (int m = 0; m <= 5; m += 5) {
            fill();
            double last = column_sums(M, N, v, out, n, m);
            printf("distinct n=%d m=%d last=%.17g sum=%.17g\n", n, m, last, checksum(out, N));
        }
    for (int m = 1; m <= 4; m++) {
        fill();
        double last = column_sums(M, N, v, out, 9, m);
        printf("distinct n=9 m=%d last=%.17g sum=%.17g\n", m, last, checksum(out, N));
    }
    /* The sums written into the matrix's first row, shifted: column j+s reads row 0 after
     * column j wrote it. */
    for (int s = 0; s <= 3; s++) {
        fill();
        double last = column_sums(M, N, v, M + s, 8, 6);
        printf("into the matrix shift=%d last=%.17g sum=%.17g\n", s, last, checksum(M, N * N));
    }
    /* The sums written into the weights they read. */
    fill();
    double last = column_sums(M, N, v, v, 9, 7);
    printf("into the weights last=%.17g sum=%.17g\n", last, checksum(v, N));

    /* Updates in place: into a distinct vector, into the matrix's third row (which later
     * columns read), into the weights. */
    for (int n = 0; n <= 9; n += 3) {
        fill();
        column_updates(out, M, N, v, n, 7);
        printf("updates n=%d sum=%.17g\n", n, checksum(out, N));
    }
    for (int s = 0; s <= 2; s++) {
        fill();
        column_updates(M + 2 * N + s, M, N, v, 9, 5);
        printf("updates into the matrix shift=%d sum=%.17g\n", s, checksum(M, N * N));
    }
    fill();
    column_updates(v + 1, M, N, v, 9, 8);
    printf("updates into the weights sum=%.17g\n", checksum(v, N));

    /* The sum in the destination: a distinct one, the matrix's second row, the weights. */
    for (int n = 1; n <= 9; n += 4) {
        fill();
        row_times_matrix(out, v, M, n, 6);
        printf("in place n=%d sum=%.17g\n", n, checksum(out, N));
    }
    fill();
    row_times_matrix(M + N + 1, v, M, 9, 6);
    printf("in place into the matrix sum=%.17g\n", checksum(M, N * N));
    fill();
    row_times_matrix(v + 2, v, M, 9, 6);
    printf("in place into the weights sum=%.17g\n", checksum(v, N));

    /* float lanes of four, the inner counter read after the nest. */
    fill();
    float ft = 0.0f;
    int k = -1;
    for (int j = 0; j < 11; j++) {
        ft = 1.0f;
        for (k = first; k < last_row; k++)
            ft = ft * 0.75f + F[k][j];
        fo[j] = ft - F[0][j];
    }
    double fs = 0.0;
    for (int j = 0; j < N; j++)
        fs += fo[j] * (j + 1);
    printf("float last=%.9g k=%d sum=%.9g\n", ft, k, fs);

    /* unsigned lanes that wrap. */
    unsigned ut = 0;
    for (int j = 1; j < 10; j++) {
        ut = U[0][j];
        for (int i = 0; i < side; i++)
            ut += U[i][j] ^ U[i][0];
        uo[j] = ut - 7u;
    }
    unsigned us = 0;
    for (int j = 0; j < N; j++)
        us = us * 31u + uo[j];
    printf("unsigned last=%u sum=%u\n", ut, us);

    /* 2mm as PolyBench writes it, in a compute construct and on the host. */
    static double A[N][N], B[N][N], D[N][N], E[N][N];
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            A[i][j] = (double)((i * j + 1) % N) / N;
            B[i][j] = (double)(i * (j + 1) % N) / N;
            D[i][j] = (double)(i * (j + 2) % N) / N;
            E[i][j] = D[i][j];
        }
    const int n = side;
#pragma acc parallel loop collapse(2) copyin(A, B) copy(D)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double d = D[i][j] * 1.2;
            for (int q = 0; q < n; q++)
                d += 1.5 * A[i][q] * B[q][j];
            D[i][j] = d;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double d = E[i][j] * 1.2;
            for (int q = 0; q < n; q++)
                d += 1.5 * A[i][q] * B[q][j];
            E[i][j] = d;
        }
    double ds = 0.0, es = 0.0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ds += D[i][j] * (i + 2 * j + 1);
            es += E[i][j] * (i + 2 * j + 1);
        }
    printf("2mm device=%.17g host=%.17g\n", ds, es);
    return 0;
}
