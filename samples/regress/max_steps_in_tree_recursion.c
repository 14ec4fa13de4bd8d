// Issue 15 (session 16, tsum19): native functions take the fuel left (`--max-steps`) in a
// register and give it back with their result, no longer through the context; a recursion over a
// heap tree that would run far past the limit still stops with exit 4 naming the flag, on both
// engines (they count steps differently, so where it stops may differ; the output before does
// not: nothing is printed after the first sum).
// accsim-flags: --max-steps 2000000
// expect-exit: 4
// expect-stderr: error[max-steps]
// check: skip
#include <stdio.h>
#include <stdlib.h>

struct node {
    double value;
    struct node *left, *right;
};

static struct node *build(int depth)
{
    struct node *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->value = depth;
    t->left = depth > 0 ? build(depth - 1) : NULL;
    t->right = depth > 0 ? build(depth - 1) : NULL;
    return t;
}

static double sum(const struct node *t)
{
    if (t == NULL)
        return 0.0;
    return t->value + sum(t->left) + sum(t->right);
}

int main(void)
{
    struct node *t = build(7);
    printf("%.1f\n", sum(t));
    double total = 0.0;
    for (long r = 0; r < 100000000; r++)
        total += sum(t);
    printf("%.1f\n", total);
    return 0;
}
