// Exercises: malloc, calloc (zeroed), realloc (grow keeps contents, shrink,
// realloc(NULL, n) acts as malloc), free(NULL) is a no-op, posix_memalign
// alignment, aligned_alloc, and a growable array built on realloc.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

struct vec { int *data; size_t len, cap; };

static void vec_push(struct vec *v, int x) {
    if (v->len == v->cap) {
        size_t ncap = v->cap ? v->cap * 2 : 1;
        int *nd = realloc(v->data, ncap * sizeof *nd);
        if (!nd) { printf("oom\n"); exit(1); }
        v->data = nd;
        v->cap = ncap;
        printf("grew to %zu\n", ncap);
    }
    v->data[v->len++] = x;
}

int main(void) {
    int *a = malloc(10 * sizeof *a);
    if (!a) return 1;
    for (int i = 0; i < 10; i++) a[i] = i * 3;
    a = realloc(a, 20 * sizeof *a);
    if (!a) return 1;
    for (int i = 10; i < 20; i++) a[i] = -i;
    long s = 0;
    for (int i = 0; i < 20; i++) s += a[i];
    printf("after grow sum=%ld a[9]=%d a[19]=%d\n", s, a[9], a[19]);
    a = realloc(a, 5 * sizeof *a);
    if (!a) return 1;
    printf("after shrink a[4]=%d\n", a[4]);
    free(a);
    double *z = calloc(1000, sizeof *z);
    if (!z) return 1;
    double zs = 0;
    for (int i = 0; i < 1000; i++) zs += z[i];
    printf("calloc sum=%g\n", zs);
    free(z);
    char *r = realloc(NULL, 16);
    if (!r) return 1;
    strcpy(r, "from realloc");
    printf("%s\n", r);
    free(r);
    free(NULL);
    printf("free(NULL) ok\n");
    void *al = NULL;
    int rc = posix_memalign(&al, 64, 1000);
    printf("posix_memalign rc=%d aligned64=%d\n", rc, ((uintptr_t)al % 64) == 0);
    memset(al, 0xAB, 1000);
    printf("byte 999 = 0x%02x\n", ((unsigned char *)al)[999]);
    free(al);
    void *al2 = aligned_alloc(256, 512);
    printf("aligned_alloc aligned256=%d\n", al2 && ((uintptr_t)al2 % 256) == 0);
    free(al2);
    void *m = malloc(1);
    printf("malloc 16-byte aligned: %d\n", ((uintptr_t)m % 16) == 0);
    free(m);
    struct vec v = {0};
    for (int i = 0; i < 20; i++) vec_push(&v, i * i);
    long vs = 0;
    for (size_t i = 0; i < v.len; i++) vs += v.data[i];
    printf("vec len=%zu cap=%zu sum=%ld\n", v.len, v.cap, vs);
    free(v.data);
    /* array of separately allocated strings */
    char **lines = malloc(4 * sizeof *lines);
    if (!lines) return 1;
    for (int i = 0; i < 4; i++) {
        lines[i] = malloc(8);
        if (!lines[i]) return 1;
        snprintf(lines[i], 8, "row%d", i * 11);
    }
    for (int i = 3; i >= 0; i--) { printf("%s ", lines[i]); free(lines[i]); }
    printf("\n");
    free(lines);
    /* 2-D jagged triangle */
    int **tri = malloc(6 * sizeof *tri);
    if (!tri) return 1;
    for (int i = 0; i < 6; i++) {
        tri[i] = calloc(i + 1, sizeof **tri);
        if (!tri[i]) return 1;
        tri[i][0] = tri[i][i] = 1;
        for (int j = 1; j < i; j++) tri[i][j] = tri[i - 1][j - 1] + tri[i - 1][j];
    }
    for (int i = 0; i < 6; i++) {
        for (int j = 0; j <= i; j++) printf("%d ", tri[i][j]);
        printf("\n");
        free(tri[i]);
    }
    free(tri);
    return 0;
}
