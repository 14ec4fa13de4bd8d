// Exercises: function pointers: arrays of them, callbacks, returning a
// function pointer, qsort with comparators (ints, strings, structs,
// descending), bsearch, and calling through (*fp)(x) and fp(x).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double sq(double x) { return x * x; }
static double half(double x) { return x / 2; }
static double neg(double x) { return -x; }

static double apply_n(double (*f)(double), double x, int n) {
    for (int i = 0; i < n; i++) x = f(x);
    return x;
}

typedef double (*unary)(double);
static unary pick(int k) {
    static const unary table[] = {sq, half, neg};
    return table[k % 3];
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
static int cmp_int_desc(const void *a, const void *b) { return cmp_int(b, a); }
static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}
struct person { const char *name; int age; };
static int cmp_person(const void *a, const void *b) {
    const struct person *p = a, *q = b;
    if (p->age != q->age) return p->age - q->age;
    return strcmp(p->name, q->name);
}

static void for_each(int *v, int n, void (*cb)(int *, void *), void *ctx) {
    for (int i = 0; i < n; i++) cb(&v[i], ctx);
}
static void accumulate(int *x, void *ctx) { *(long *)ctx += *x; }
static void triple(int *x, void *ctx) { (void)ctx; *x *= 3; }

int main(void) {
    double (*fs[3])(double) = {sq, half, neg};
    for (int i = 0; i < 3; i++) printf("fs[%d](3) = %g, (*fs[%d])(4) = %g\n", i, fs[i](3), i, (*fs[i])(4));
    printf("apply sq 3 times to 2: %g\n", apply_n(sq, 2, 3));
    printf("apply half 10 times to 1024: %g\n", apply_n(half, 1024, 10));
    for (int k = 0; k < 4; k++) printf("pick(%d)(5) = %g\n", k, pick(k)(5));
    printf("fn == fn: %d, fn != other: %d\n", fs[0] == sq, fs[0] != fs[1]);
    int v[] = {5, -3, 9, 0, 12, -7, 5, 1};
    int n = sizeof v / sizeof v[0];
    qsort(v, n, sizeof v[0], cmp_int);
    for (int i = 0; i < n; i++) printf("%d ", v[i]);
    printf("\n");
    int key = 9;
    int *found = bsearch(&key, v, n, sizeof v[0], cmp_int);
    printf("bsearch 9 -> index %td\n", found ? found - v : -1);
    key = 4;
    found = bsearch(&key, v, n, sizeof v[0], cmp_int);
    printf("bsearch 4 -> %s\n", found ? "found" : "not found");
    qsort(v, n, sizeof v[0], cmp_int_desc);
    for (int i = 0; i < n; i++) printf("%d ", v[i]);
    printf("\n");
    const char *words[] = {"pear", "apple", "fig", "banana", "cherry", "apple"};
    qsort(words, 6, sizeof words[0], cmp_str);
    for (int i = 0; i < 6; i++) printf("%s ", words[i]);
    printf("\n");
    struct person ps[] = {{"eve", 30}, {"bob", 25}, {"amy", 30}, {"dan", 20}};
    qsort(ps, 4, sizeof ps[0], cmp_person);
    for (int i = 0; i < 4; i++) printf("%s:%d ", ps[i].name, ps[i].age);
    printf("\n");
    long total = 0;
    for_each(v, n, triple, NULL);
    for_each(v, n, accumulate, &total);
    printf("total after triple = %ld\n", total);
    void (*fp)(int *, void *) = &triple;
    int one = 1;
    fp(&one, NULL);
    (*fp)(&one, NULL);
    printf("one tripled twice = %d\n", one);
    return 0;
}
