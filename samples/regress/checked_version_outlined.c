// Issue 15 (native engine, compile time): a counted loop's checked version is a function of its
// own, made the first time the loop's entry checks fail (jit/src/outline.rs). Loops whose entry
// checks fail — a guarded `a[i - 1]`, a window past the array's end kept in by a test — with
// what the checked version must carry in and out: locals assigned in the loop and read after
// it, a zero-trip loop leaving them as they were, locals declared in the body, a `float`
// accumulator, an address-taken local, a `return`, a `break` and a `continue` in the loop, a
// checked loop inside another, a recursion, and a `parallel loop` whose gangs all make the same
// code.
#include <stdio.h>
#include <stdlib.h>

static int find(const int *a, int n, int key)
{
    for (int i = 0; i < n + 3; i++) {
        if (i < n && a[i] == key)
            return i;
    }
    return -1;
}

static long guarded_sum(const int *a, int n, int from)
{
    long t = 0;
    int last = -7;
    for (int i = from; i < n; i++) {
        if (i > 0) {
            t += a[i - 1];
            last = i;
        }
    }
    return t * 1000 + last;
}

static int depth_sum(const int *a, int n, int depth)
{
    if (depth == 0)
        return 0;
    int s = 0;
    for (int i = 0; i < n + 1; i++)
        if (i < n)
            s += a[i] + depth;
    return s + depth_sum(a, n, depth - 1);
}

static void floats(const float *f, int n)
{
    /* a float accumulator, a local declared in the body, one assigned and read after */
    float acc = 1.0f;
    int j = -1, hits = 0;
    for (int i = 0; i < n; i++) {
        float w = 0.5f;
        if (i >= 1 && i + 1 < n) {
            acc += w * (f[i - 1] + f[i + 1]);
            j = i;
        }
    }
    printf("acc=%.3f j=%d\n", acc, j);

    /* zero trips: j and hits keep their values */
    for (int i = n; i < n - 5; i++) {
        if (i > 0)
            j = (int)f[i - 1];
        hits++;
    }
    printf("j=%d hits=%d\n", j, hits);
}

static void taken(const int *a, int n)
{
    /* an address-taken local updated in the loop */
    int counted = 0;
    int *pc = &counted;
    for (int i = 0; i < n; i++)
        if (i > 0 && a[i - 1] > 50)
            (*pc)++;
    printf("counted=%d\n", counted);
}

static void jumps(const double *v, int m)
{
    /* a `continue` and a `break` */
    double tail = 0.0;
    int stop = -1;
    for (int i = 0; i < m + 2; i++) {
        if (i >= m)
            continue;
        if (i > 0 && v[i - 1] > 40.0) {
            stop = i;
            break;
        }
        tail += v[i];
    }
    printf("tail=%.2f stop=%d\n", tail, stop);
}

static void nested(const int *a)
{
    /* a checked loop inside another's checked version */
    long grid = 0;
    for (int r = 0; r < 30; r++) {
        if (r > 0)
            grid += a[r - 1];
        for (int c = 0; c < 20; c++)
            if (c > 0)
                grid += a[r * 10 + c - 1] * (r & 3);
    }
    printf("grid=%ld\n", grid);
}

int main(void)
{
    enum { N = 500 };
    int *a = malloc(sizeof(int) * N);
    float *f = malloc(sizeof(float) * N);
    double *v = malloc(sizeof(double) * 40);
    for (int i = 0; i < N; i++) {
        a[i] = (i * 37 + 11) % 101;
        f[i] = (float)i * 0.25f;
    }
    for (int i = 0; i < 40; i++)
        v[i] = i * 1.5;
    floats(f, N);
    taken(a, N);
    jumps(v, 40);
    nested(a);
    printf("find=%d %d %d\n", find(a, N, a[123]), find(a, N, 1000), find(a, 0, 5));
    printf("guarded=%ld %ld %ld\n", guarded_sum(a, N, 0), guarded_sum(a, N, 3), guarded_sum(a, 0, 0));
    printf("depth=%d\n", depth_sum(a, 100, 6));

    /* a parallel loop whose rows' entry checks fail: every gang runs the same checked code */
    long rows[64];
    #pragma acc parallel loop copyin(a[0:N]) copyout(rows[0:64])
    for (int r = 0; r < 64; r++) {
        long s = 0;
        for (int c = 0; c < 8; c++)
            if (r * 7 + c - 1 >= 0)
                s += a[r * 7 + c - 1];
        rows[r] = s;
    }
    long all = 0;
    for (int r = 0; r < 64; r++)
        all += rows[r] * (r + 1);
    printf("rows=%ld\n", all);

    free(a);
    free(f);
    free(v);
    return 0;
}
