// Issue 15 (session 16, tsum19): native code keeps a node's span-table lookup across a call only
// when the callee can neither allocate nor free (nor reach a function that can); a callee that
// frees the caller's node, here two calls down, makes the caller's next read of it a use after
// free on both engines, named with the `malloc` and `free` sites. A callee that only reads
// (`peek`) keeps the lookup.
// expect-exit: 3
// expect-stderr: error[use-after-free]
// expect-stderr: struct node *t = malloc(sizeof *t);
// expect-stderr: free(t);
#include <stdio.h>
#include <stdlib.h>

struct node {
    double value;
    struct node *left, *right;
};

static struct node *leaf(double v)
{
    struct node *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->value = v;
    t->left = t->right = NULL;
    return t;
}

static double peek(const struct node *t)
{
    return t == NULL ? 0.0 : t->value + peek(t->left);
}

static void drop(struct node *t)
{
    if (t == NULL)
        return;
    drop(t->left);
    drop(t->right);
    free(t);
}

static void drop_tree(struct node *t)
{
    drop(t);
}

static double visit(struct node *t)
{
    double s = t->value + peek(t) + t->left->value;
    printf("before %.1f\n", s + t->right->value);
    drop_tree(t);
    return s + t->value; /* expect: use-after-free */
}

int main(void)
{
    struct node *t = leaf(1.0);
    t->left = leaf(2.0);
    t->right = leaf(3.0);
    printf("after %.1f\n", visit(t));
    return 0;
}
