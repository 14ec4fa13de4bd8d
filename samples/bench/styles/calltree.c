/* A tree of small function calls: host recursion and `routine seq` helpers in a compute loop.
 *
 * Benchmark suite of issue 15: plain C the way applications are structured — a recursive
 * quadrature (adaptive Simpson's rule, a binary tree of calls), a recursive sum over a binary
 * tree of heap nodes, and a `parallel loop` calling a chain of `#pragma acc routine seq`
 * functions per element. -DN=... sets the element count of the parallel loop, -DDEPTH=... the
 * depth of the quadrature's recursion and of the tree (2^(DEPTH+1) - 1 nodes).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 4000000
#endif
#ifndef DEPTH
#define DEPTH 19
#endif

struct node {
    double value;
    struct node *left, *right;
};

static struct node *build(int depth, unsigned *seed)
{
    struct node *t = malloc(sizeof *t);
    if (t == NULL)
        return NULL;
    *seed = *seed * 1103515245u + 12345u;
    t->value = (double)(*seed >> 16 & 0x7fff) / 32768.0;
    t->left = depth > 0 ? build(depth - 1, seed) : NULL;
    t->right = depth > 0 ? build(depth - 1, seed) : NULL;
    return t;
}

static double tree_sum(const struct node *t, int level)
{
    if (t == NULL)
        return 0.0;
    return t->value * (level % 3 + 1) + tree_sum(t->left, level + 1) + tree_sum(t->right, level + 1);
}

static void tree_free(struct node *t)
{
    if (t == NULL)
        return;
    tree_free(t->left);
    tree_free(t->right);
    free(t);
}

static double f(double x)
{
    return x * x * x - 2.0 * x + 1.0 / (1.0 + x * x);
}

static double simpson(double a, double b, double fa, double fm, double fb)
{
    return (b - a) / 6.0 * (fa + 4.0 * fm + fb);
}

static double adapt(double a, double b, double fa, double fm, double fb, double whole, int depth)
{
    double m = 0.5 * (a + b);
    double lm = 0.5 * (a + m), rm = 0.5 * (m + b);
    double flm = f(lm), frm = f(rm);
    double left = simpson(a, m, fa, flm, fm), right = simpson(m, b, fm, frm, fb);
    if (depth <= 0 || fabs(left + right - whole) < 1e-15)
        return left + right;
    return adapt(a, m, fa, flm, fm, left, depth - 1) + adapt(m, b, fm, frm, fb, right, depth - 1);
}

#pragma acc routine seq
static double smooth(double x)
{
    return x / (1.0 + (x < 0 ? -x : x));
}

#pragma acc routine seq
static double step(double x, int k)
{
    return smooth(x * 0.75 + (double)(k % 5)) - 0.1 * smooth(x - (double)k);
}

#pragma acc routine seq
static double chain(int i)
{
    double x = (double)(i % 1000) / 1000.0;
    for (int k = 0; k < 8; k++)
        x = step(x, k + i % 3);
    return x;
}

int main(void)
{
    double *out = malloc(sizeof(double) * N);
    if (out == NULL) {
        fprintf(stderr, "calltree: out of memory\n");
        return 1;
    }
    double a = -1.0, b = 2.0;
    double integral = adapt(a, b, f(a), f(0.5 * (a + b)), f(b),
                            simpson(a, b, f(a), f(0.5 * (a + b)), f(b)), DEPTH);

    unsigned seed = 42u;
    struct node *root = build(DEPTH, &seed);
    double tsum = 0.0;
    for (int r = 0; r < 4; r++)
        tsum += tree_sum(root, r);
    tree_free(root);

#pragma acc parallel loop copyout(out[0:N])
    for (int i = 0; i < N; i++)
        out[i] = chain(i);
    double csum = 0.0;
    for (int i = 0; i < N; i++)
        csum += out[i];
    printf("calltree integral=%.12e tree=%.12e chain=%.12e\n", integral, tsum, csum);
    free(out);
    return 0;
}
