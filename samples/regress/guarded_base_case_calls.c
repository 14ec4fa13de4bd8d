// Issue 15 (calltree, session 14): a call of a function whose first statement is `if (C) return
// E;`, with C and E reading only its parameters, tests C at the call site in native code and,
// when it holds, gives E without entering the callee (taking the call's unit of fuel and its
// depth check as the call would). Recursions of the usual shapes (null children of a binary
// tree, `n < 2` of Fibonacci, an empty range, a `void` function's early return, a base case
// that calls a small helper) give the same results as gcc; a function with a local whose address
// is taken (a frame) and one whose test reads memory are called as before.
#include <stdio.h>
#include <stdlib.h>

struct node {
    long key;
    struct node *left, *right;
};

static struct node *make(int depth, long *next)
{
    struct node *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->key = (*next)++;
    t->left = depth > 0 ? make(depth - 1, next) : NULL;
    t->right = depth > 1 ? make(depth - 2, next) : NULL;
    return t;
}

static long weigh(const struct node *t, int level)
{
    if (t == NULL)
        return level;
    return t->key * (level % 4 + 1) + weigh(t->left, level + 1) - weigh(t->right, level + 2);
}

static void drop(struct node *t)
{
    if (!t)
        return;
    drop(t->left);
    drop(t->right);
    free(t);
}

static long fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

static double half(double x)
{
    return x * 0.5;
}

static double range_sum(const double *a, int lo, int hi)
{
    if (hi - lo < 1)
        return half((double)lo) - (double)hi;
    int mid = lo + (hi - lo) / 2;
    if (hi - lo == 1)
        return a[lo];
    return range_sum(a, lo, mid) + range_sum(a, mid, hi);
}

static int count_framed(int n)
{
    if (n <= 0)
        return 0;
    int local = n;
    int *p = &local;
    return *p % 3 + count_framed(n - 1);
}

static int through(const int *flag, int n)
{
    if (*flag == n)
        return -n;
    return n + through(flag, n - 1);
}

int main(void)
{
    long next = 1;
    struct node *root = make(12, &next);
    long w = 0;
    for (int r = 0; r < 3; r++)
        w += weigh(root, r);
    drop(root);
    drop(NULL);
    double a[37];
    for (int i = 0; i < 37; i++)
        a[i] = (i % 5) * 0.25 + i;
    int flag = 3;
    printf("nodes %ld weight %ld\n", next - 1, w);
    printf("fib %ld %ld %ld\n", fib(0), fib(1), fib(24));
    printf("range %.3f %.3f %.3f\n", range_sum(a, 0, 37), range_sum(a, 5, 5), range_sum(a, 9, 4));
    printf("framed %d through %d %d\n", count_framed(1000), through(&flag, 40), through(&flag, 3));
    return 0;
}
