// Exercises: compound literals: of struct type passed to functions, of
// array type used as a pointer, modified through pointers, in loops (fresh
// object each iteration), at file scope (static storage).
#include <stdio.h>

struct pair { int a, b; };

static int sum_pair(struct pair p) { return p.a + p.b; }
static int sum_arr(const int *v, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

static int *global_arr = (int[]){10, 20, 30};

int main(void) {
    printf("sum_pair=%d\n", sum_pair((struct pair){3, 4}));
    printf("sum_arr=%d\n", sum_arr((int[]){1, 2, 3, 4, 5}, 5));
    int *p = (int[4]){0};
    p[2] = 7;
    printf("p = %d %d %d %d\n", p[0], p[1], p[2], p[3]);
    struct pair *pp = &(struct pair){.b = 9};
    pp->a += 1;
    printf("pp = %d %d\n", pp->a, pp->b);
    struct pair arr[3];
    for (int i = 0; i < 3; i++) arr[i] = (struct pair){i, i * i};
    for (int i = 0; i < 3; i++) printf("arr[%d] = {%d, %d}\n", i, arr[i].a, arr[i].b);
    global_arr[1]++;
    printf("global %d %d %d\n", global_arr[0], global_arr[1], global_arr[2]);
    const char *w = (const char *[]){"x", "yy", "zzz"}[2];
    printf("w = %s\n", w);
    double d = ((double[]){1.5, 2.5})[1];
    printf("d = %g\n", d);
    printf("sizeof literal %zu\n", sizeof((int[]){1, 2, 3}));
    int total = 0;
    for (int i = 0; i < 4; i++) {
        int *q = (int[2]){i, i + 1};
        total += q[0] * q[1];
    }
    printf("total = %d\n", total);
    return 0;
}
