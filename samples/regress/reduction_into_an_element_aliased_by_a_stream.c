// Issue 15 (native engine, memory at a loop-invariant address held in a register): matrix-vector
// products written as reductions into memory (`y[i] = y[i] + A[i][j] * x[j]`, `y[i] += …`) let
// the direct version of the inner loop keep `y[i]` in a register, read once before the loop and
// stored once after it, when no other access of the loop touches its bytes. Without `restrict`
// the vectors may overlap (C11 §6.5.16.1, §6.7.3.1): called in place (`x == y`, a Gauss-Seidel
// sweep), the stream `x[j]` reads `y[i]` itself at `j == i` and must see the sum so far, so the
// loop keeps its memory accesses. Also: the element through a struct member, a loop that
// leaves by `break` after updating the element, an integer element updated with `%` in the
// loop, a row counted down, and trip counts 0..3. Each prints what gcc prints.
#include <stdio.h>

#define N 24

struct acc {
    long count;
    double sum;
};

static double A[N][N], v[N], w[N];

static void matvec(int n, double *y, const double *x)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            y[i] = y[i] + A[i][j] * x[j];
}

static void matvec_compound(int n, double *y, const double *x)
{
    for (int i = 0; i < n; i++)
        for (int j = n - 1; j >= 0; j--)
            y[i] += 0.5 * A[j][i] * x[j];
}

static void reset(void)
{
    for (int i = 0; i < N; i++) {
        v[i] = 1.0 + 0.125 * i;
        w[i] = 2.0 - 0.0625 * i;
        for (int j = 0; j < N; j++)
            A[i][j] = (double)((i * 7 + j * 3) % 11) / 11.0 - 0.25;
    }
}

static double total(const double *x)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += x[i] * (i + 1);
    return s;
}

int main(void)
{
    reset();
    matvec(N, v, w);
    printf("apart        %.17g\n", total(v));
    reset();
    matvec(N, v, v);
    printf("in place     %.17g\n", total(v));
    reset();
    matvec(N - 1, v + 1, v);
    printf("shifted      %.17g\n", total(v));
    reset();
    matvec_compound(N, w, v);
    printf("compound     %.17g\n", total(w));
    reset();
    matvec_compound(N, w, w);
    printf("compound  =  %.17g\n", total(w));
    for (int n = 0; n <= 3; n++) {
        reset();
        matvec(n, v, w);
        printf("n=%d          %.17g\n", n, total(v));
    }

    struct acc a = {0, 0.0};
    struct acc *p = &a;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            p->sum += A[i][j] * v[j];
            p->count++;
        }
    }
    printf("struct       %ld %.17g\n", a.count, a.sum);

    int hist[4] = {0, 0, 0, 0};
    for (int i = 0; i < 4; i++)
        for (int j = 1; j < N; j++)
            hist[i] = (hist[i] * 31 + j) % (i + 7);
    printf("modulo       %d %d %d %d\n", hist[0], hist[1], hist[2], hist[3]);

    double y[N] = {0};
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            y[i] += A[i][j];
            if (y[i] > 2.0)
                break;
        }
    }
    printf("break        %.17g\n", total(y));
    return 0;
}
