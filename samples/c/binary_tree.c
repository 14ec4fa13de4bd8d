// Exercises: a binary search tree: insertion, in-order/pre-order
// traversal, height, search, min/max, deletion with two children, and
// recursive freeing; keys come from a small LCG.
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *left, *right; };

static struct tree *insert(struct tree *t, int key) {
    if (!t) {
        t = calloc(1, sizeof *t);
        if (!t) exit(1);
        t->key = key;
        t->count = 1;
        return t;
    }
    if (key < t->key) t->left = insert(t->left, key);
    else if (key > t->key) t->right = insert(t->right, key);
    else t->count++;
    return t;
}
static int height(const struct tree *t) {
    if (!t) return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}
static int size(const struct tree *t) { return t ? 1 + size(t->left) + size(t->right) : 0; }
static void inorder(const struct tree *t, int *limit) {
    if (!t || *limit <= 0) return;
    inorder(t->left, limit);
    if (*limit > 0) { printf(" %d", t->key); if (t->count > 1) printf("x%d", t->count); (*limit)--; }
    inorder(t->right, limit);
}
static void preorder(const struct tree *t, int depth) {
    if (!t || depth > 3) return;
    printf("%*s%d\n", depth * 2, "", t->key);
    preorder(t->left, depth + 1);
    preorder(t->right, depth + 1);
}
static const struct tree *find(const struct tree *t, int key) {
    while (t && t->key != key) t = key < t->key ? t->left : t->right;
    return t;
}
static struct tree *delete(struct tree *t, int key) {
    if (!t) return NULL;
    if (key < t->key) t->left = delete(t->left, key);
    else if (key > t->key) t->right = delete(t->right, key);
    else {
        if (!t->left || !t->right) {
            struct tree *c = t->left ? t->left : t->right;
            free(t);
            return c;
        }
        struct tree *s = t->right;
        while (s->left) s = s->left;
        t->key = s->key;
        t->count = s->count;
        t->right = delete(t->right, s->key);
    }
    return t;
}
static void destroy(struct tree *t) {
    if (!t) return;
    destroy(t->left);
    destroy(t->right);
    free(t);
}

int main(void) {
    struct tree *root = NULL;
    unsigned s = 2024;
    for (int i = 0; i < 500; i++) {
        s = s * 1664525u + 1013904223u;
        root = insert(root, (int)(s >> 20) % 1000);
    }
    printf("size %d height %d\n", size(root), height(root));
    int lim = 30;
    printf("first 30 in order:");
    inorder(root, &lim);
    printf("\n");
    preorder(root, 0);
    const struct tree *lo = root, *hi = root;
    while (lo->left) lo = lo->left;
    while (hi->right) hi = hi->right;
    printf("min %d max %d\n", lo->key, hi->key);
    int queries[] = {0, 1, 500, 999, root->key};
    for (int i = 0; i < 5; i++) {
        const struct tree *f = find(root, queries[i]);
        printf("find %d: %s", queries[i], f ? "yes" : "no");
        if (f) printf(" count %d", f->count);
        printf("\n");
    }
    int rootkey = root->key, minkey = lo->key;
    root = delete(root, rootkey);
    root = delete(root, minkey);
    root = delete(root, 12345);
    printf("after deleting root %d and min %d: size %d height %d new root %d\n", rootkey, minkey, size(root),
           height(root), root->key);
    destroy(root);
    return 0;
}
