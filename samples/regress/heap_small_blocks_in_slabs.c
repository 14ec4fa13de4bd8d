// Issue 15 (calltree's serial host part): small heap blocks (up to 256 bytes) live in slots of
// shared slabs instead of one process-allocator block each. Only where the bytes are changes:
// each block keeps its own id and bounds. Blocks of every size around the slot sizes, made by
// malloc, calloc and realloc (growing past 256 bytes and shrinking back), freed in odd orders
// (every other one, backwards, interleaved with new ones, so slots are reused and whole slabs
// given back), copied with memcpy/memmove/struct assignment between small and large blocks,
// filled, read as strings, sorted with qsort and moved to and from the device by a data
// construct. Output equal to gcc -O2's (every byte read was written or came from calloc).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
    double value;
    struct node *left, *right;
};

static unsigned seed = 7u;

static unsigned next(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 16 & 0x7fff;
}

static struct node *build(int depth)
{
    struct node *t = malloc(sizeof *t);
    if (t == NULL)
        exit(1);
    t->value = (double)next() / 32768.0;
    t->left = depth > 0 ? build(depth - 1) : NULL;
    t->right = depth > 0 ? build(depth - 1) : NULL;
    return t;
}

static double sum(const struct node *t)
{
    return t == NULL ? 0.0 : t->value + sum(t->left) + sum(t->right);
}

/* Frees the right subtree first, then the node, then the left: not the order of allocation. */
static void drop(struct node *t)
{
    if (t == NULL)
        return;
    struct node *l = t->left;
    drop(t->right);
    free(t);
    drop(l);
}

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    enum { M = 3000 };
    static unsigned char *blocks[M];
    static size_t sizes[M];
    unsigned long check = 0;

    /* Every size from 1 to 300 bytes, ten times, alternately malloc (filled) and calloc. */
    for (int i = 0; i < M; i++) {
        sizes[i] = (size_t)(i % 300) + 1;
        if (i % 2 == 0) {
            blocks[i] = malloc(sizes[i]);
            if (blocks[i] != NULL)
                memset(blocks[i], i & 0xff, sizes[i]);
        } else {
            blocks[i] = calloc(sizes[i], 1);
        }
        if (blocks[i] == NULL)
            return 1;
    }
    /* Free every other block, then make new ones in the freed slots: calloc'd ones read zero. */
    for (int i = 0; i < M; i += 2)
        free(blocks[i]);
    for (int i = 0; i < M; i += 2) {
        blocks[i] = calloc(sizes[i], 1);
        if (blocks[i] == NULL)
            return 1;
        for (size_t k = 0; k < sizes[i]; k++)
            check += blocks[i][k];
        blocks[i][sizes[i] - 1] = (unsigned char)(i * 7);
    }
    for (int i = 0; i < M; i++)
        check = check * 31 + blocks[i][sizes[i] - 1] + blocks[i][0];
    printf("after reuse: %lu\n", check);

    /* realloc across the largest slot size and back, keeping the bytes. */
    char *s = malloc(20);
    if (s == NULL)
        return 1;
    strcpy(s, "small heap block");
    for (size_t n = 40; n <= 640; n *= 2) {
        s = realloc(s, n);
        if (s == NULL)
            return 1;
        memset(s + 16, 'x', n - 17);
        s[n - 1] = '\0';
    }
    s = realloc(s, 24);
    if (s == NULL)
        return 1;
    s[23] = '\0';
    printf("realloc: %s (%zu)\n", s, strlen(s));

    /* Copies between small and large blocks, and within one small block. */
    int *small = malloc(16 * sizeof *small), *large = malloc(1000 * sizeof *large);
    if (small == NULL || large == NULL)
        return 1;
    for (int i = 0; i < 1000; i++)
        large[i] = (i * 7919) % 1000;
    memcpy(small, large + 100, 16 * sizeof *small);
    memmove(small + 2, small, 10 * sizeof *small);
    memcpy(large, small, 16 * sizeof *small);
    qsort(small, 16, sizeof *small, cmp);
    long total = 0;
    for (int i = 0; i < 16; i++)
        total += (long)small[i] * (i + 1) + large[i];
    printf("copies: %ld first=%d last=%d\n", total, small[0], small[15]);

    /* A struct copied by assignment between two small blocks. */
    struct node *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    if (a == NULL || b == NULL)
        return 1;
    a->value = 2.5;
    a->left = a;
    a->right = NULL;
    *b = *a;
    printf("struct: %.1f %d %d\n", b->value, b->left == a, b->right == NULL);

    /* A small block to the device and back. */
    double *v = malloc(8 * sizeof *v);
    if (v == NULL)
        return 1;
    for (int i = 0; i < 8; i++)
        v[i] = i;
#pragma acc parallel loop copy(v[0:8])
    for (int i = 0; i < 8; i++)
        v[i] = v[i] * v[i] + 1.0;
    printf("device: %.1f %.1f\n", v[0], v[7]);

    /* Trees of 24-byte nodes built, summed and freed out of order, twice: whole slabs go back
     * and come again. */
    for (int r = 0; r < 2; r++) {
        struct node *t = build(12);
        printf("tree %d: %.6f\n", r, sum(t));
        drop(t);
    }

    for (int i = M - 1; i >= 0; i--)
        free(blocks[i]);
    free(s);
    free(small);
    free(large);
    free(a);
    free(b);
    free(v);
    return 0;
}
