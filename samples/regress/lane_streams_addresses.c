// Issue 16 (native engine, counted loops' direct version): each access that moves with the
// counter is a stream, its host address at counter 0 (computed at loop entry from its first
// address) plus the counter times its stride, instead of the address expression evaluated
// again. These loops address their elements in the ways such expressions take: `int` row
// offsets (`i * n + j`, `(i - 1) * n + j + 1`), a counter that starts past 0, `unsigned` and
// `long` counters, a Fortran-style column-major offset in `long` with an `int` subscript
// (`(long)(j - 1) + (i - 1) * 37L`), pointer parameters offset by a row, compound
// assignments, `float` lanes (four per group) and `int` lanes, a collapsed `parallel loop`
// (derived counters), a reversed index (one element back per iteration), and scalar loops:
// column sums in order with a stride of `n` elements known only at run time, a struct
// member's stride. The lane loops' trip counts leave 1..=L iterations to the scalar loop
// after the lanes. Every line must be what gcc prints.
#include <stdio.h>

#define N 37

static double a[N * N], b[N * N];
static float f[N * N], g[N * N];
static int k[N * N], m[N * N];

static void reset(void)
{
    for (int i = 0; i < N * N; i++) {
        a[i] = (double)((i * 37) % 101) / 101.0;
        b[i] = 0.0;
        f[i] = (float)((i * 13) % 29) * 0.25f;
        g[i] = 1.0f;
        k[i] = (i * 7) % 23 - 11;
        m[i] = i;
    }
}

static double dsum(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += x[i] * (double)(i % 7 + 1);
    return s;
}

static double fsum(const float *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)x[i] * (double)(i % 5 + 1);
    return s;
}

static long isum(const int *x, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += (long)x[i] * (i % 3 + 1);
    return s;
}

/* Rows of a stencil through pointer parameters, `int` offsets. */
static void rows(double *restrict out, const double *restrict in, int n)
{
    for (int i = 1; i < n - 1; i++)
        for (int j = 1; j < n - 1; j++)
            out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] + in[i * n + j + 1]);
}

/* One row given as a pointer: the stream's base moves with the outer loop. */
static void row_ptr(double *out, const double *in, int len, double s)
{
    for (int j = 2; j < len; j++)
        out[j] += s * in[j - 2];
}

/* Column sums in order (scalar: a floating-point sum keeps its order), a stride of n elements
   known only at run time, and a struct member's stride. */
struct cell { double w; int tag; };
static struct cell cells[N * N];

static double columns(const double *x, int n, int rows_used)
{
    double total = 0.0;
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 1; i < rows_used; i++)
            s += x[i * n + j] * (double)(i + j % 3);
        total += s * (j + 1);
    }
    return total;
}

int main(void)
{
    reset();
    rows(b, a, N);
    printf("rows %.12e\n", dsum(b, N * N));

    for (int i = 0; i < N; i++)
        row_ptr(b + i * N, a + i * N, N - (i % 5), 0.5 + i);
    printf("row_ptr %.12e\n", dsum(b, N * N));

    /* unsigned and long counters, a start past 0 */
    for (unsigned u = 3; u < N * N - 2; u++)
        b[u] = a[u + 1] - a[u - 3];
    printf("unsigned %.12e\n", dsum(b, N * N));
    for (long l = 5; l <= N * N - 7; l++)
        b[l] -= 2.0 * a[l + 6];
    printf("long %.12e\n", dsum(b, N * N));

    /* column-major offsets in long, int subscripts (the Fortran translation's shape) */
    for (int i = 2; i <= N - 1; i++)
        for (int j = 2; j <= N - 1; j++)
            b[(long)(j - 1) + (long)(i - 1) * 37L] = 0.25 * (a[(long)(j - 1) + (long)(i - 2) * 37L] + a[(long)(j - 1) + (long)i * 37L] + a[(long)(j - 2) + (long)(i - 1) * 37L] + a[(long)j + (long)(i - 1) * 37L]);
    printf("column-major %.12e\n", dsum(b, N * N));

    /* float and int lanes, compound assignments */
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N - 1 - (i % 4); j++) {
            g[i * N + j] *= f[i * N + j + 1] + 0.5f;
            k[i * N + j] += m[i * N + j + 1] ^ 5;
        }
    printf("float %.12e int %ld\n", fsum(g, N * N), isum(k, N * N));

    /* a collapsed parallel loop: the counters derived from one */
#pragma acc parallel loop collapse(2) copyin(a) copy(b)
    for (int i = 1; i < N - 1; i++)
        for (int j = 1; j < N - 1; j++)
            b[i * N + j] = a[(i - 1) * N + j - 1] + a[(i + 1) * N + j + 1];
    printf("collapsed %.12e\n", dsum(b, N * N));

    /* reversed: one element back per iteration, not a stream */
    for (int j = 0; j < N * N - 1; j++)
        b[j] = a[N * N - 1 - j] * 3.0;
    printf("reversed %.12e\n", dsum(b, N * N));

    printf("columns %.12e %.12e\n", columns(a, N, N), columns(b, N - 2, N - 5));
    for (int i = 0; i < N * N; i++) {
        cells[i].w = a[i] * 0.5;
        cells[i].tag = i % 9;
    }
    double cw = 0.0;
    long ct = 0;
    for (int i = 3; i < N * N - 1; i++) {
        cw += cells[i].w * (double)cells[i - 3].tag;
        ct += cells[i + 1].tag;
    }
    printf("cells %.12e %ld\n", cw, ct);
    return 0;
}
