// Issue 15 (session 16, tsum19): native code looks a node's allocation up once for all the
// members it reads (`t->value`, `t->left`, `t->right`: one pointer plus constant offsets) and
// keeps that lookup across calls of functions that neither allocate nor free; each member is
// still checked against the node's own size. A node made too small for its last member, deep
// in the tree, faults where `t->right` is read, after the left subtree's sum, on both engines.
// On the way: members read through a pointer moved back by a constant (`container_of`), and a
// callee the native engine cannot compile (a long double argument) between two reads of the
// caller's node.
// expect-exit: 3
// expect-stderr: error[out-of-bounds]
// expect-stderr: out-of-bounds read of 8 bytes at offset 16 of a heap block (16 bytes)
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
    double value;
    struct node *left, *right;
};

/* Node number `bad` (in the order made) gets room for `value` and `left` only. */
static struct node *build(int depth, int *made, int bad)
{
    int small = ++*made == bad;
    struct node *t = malloc(small ? 2 * sizeof(double) : sizeof *t);
    if (t == NULL)
        return NULL;
    t->value = *made;
    t->left = depth > 0 ? build(depth - 1, made, bad) : NULL;
    if (!small)
        t->right = depth > 0 ? build(depth - 1, made, bad) : NULL;
    return t;
}

static double sum(const struct node *t, int level)
{
    if (t == NULL)
        return 0.0;
    return t->value * level + sum(t->left, level + 1) + sum(t->right, level + 1); /* expect: out-of-bounds */
}

static double widen(long double x)
{
    return (double)(x * 2);
}

/* Not compiled (a long double argument): runs in the interpreter between the reads. */
static double twice(const struct node *t)
{
    long double v = t->value;
    return widen(v);
}

static double around(const struct node *t)
{
    double a = t->value + t->left->value;
    double b = twice(t->left);
    return a + b + t->right->value + t->value;
}

struct item {
    int key;
    struct link {
        struct link *next;
    } link;
};

#define ITEM(l) ((struct item *)((char *)(l) - offsetof(struct item, link)))

static long keys(const struct link *l)
{
    if (l == NULL)
        return 0;
    return ITEM(l)->key + 10 * keys(l->next);
}

int main(void)
{
    struct item items[3] = {{1, {NULL}}, {2, {NULL}}, {3, {NULL}}};
    items[0].link.next = &items[1].link;
    items[1].link.next = &items[2].link;
    printf("keys %ld\n", keys(&items[0].link));

    int made = 0;
    struct node *good = build(6, &made, -1);
    printf("%d nodes, sum %.1f, around %.1f\n", made, sum(good, 1), around(good));
    made = 0;
    struct node *bad = build(6, &made, 100);
    printf("sum %.1f\n", sum(bad, 1));
    return 0;
}
