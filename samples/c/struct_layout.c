// Exercises: struct layout on x86-64: sizeof and offsetof with padding and
// alignment, _Alignof, trailing padding, arrays of padded structs, packed
// ordering effects, flexible array members, bit-fields.
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>

struct a { char c; int i; char d; };
struct b { int i; char c; char d; };
struct c { char c; double d; };
struct d { char c; short s; char e; long long l; };
struct e { char x[3]; };
struct f { double d; char c; };
struct g { struct e e; struct a a; short s; };
struct flex { int n; double v[]; };
struct bits { unsigned a : 3; unsigned b : 5; int c : 4; unsigned d : 20; };
union u { char c; double d; int i[3]; };

int main(void) {
    printf("struct a: size %zu align %zu off c=%zu i=%zu d=%zu\n", sizeof(struct a), _Alignof(struct a),
           offsetof(struct a, c), offsetof(struct a, i), offsetof(struct a, d));
    printf("struct b: size %zu off i=%zu c=%zu d=%zu\n", sizeof(struct b), offsetof(struct b, i),
           offsetof(struct b, c), offsetof(struct b, d));
    printf("struct c: size %zu off d=%zu\n", sizeof(struct c), offsetof(struct c, d));
    printf("struct d: size %zu off s=%zu e=%zu l=%zu\n", sizeof(struct d), offsetof(struct d, s),
           offsetof(struct d, e), offsetof(struct d, l));
    printf("struct e: size %zu align %zu\n", sizeof(struct e), _Alignof(struct e));
    printf("struct f: size %zu (trailing padding)\n", sizeof(struct f));
    printf("struct g: size %zu off a=%zu s=%zu\n", sizeof(struct g), offsetof(struct g, a), offsetof(struct g, s));
    printf("struct f[3]: %zu\n", sizeof(struct f[3]));
    printf("struct flex: size %zu off v=%zu\n", sizeof(struct flex), offsetof(struct flex, v));
    printf("union u: size %zu align %zu\n", sizeof(union u), _Alignof(union u));
    printf("struct bits: size %zu\n", sizeof(struct bits));
    printf("alignof: char %zu short %zu int %zu long %zu double %zu ptr %zu\n", _Alignof(char),
           _Alignof(short), _Alignof(int), _Alignof(long), _Alignof(double), _Alignof(void *));
    struct f arr[3];
    printf("&arr[2]-&arr[0] bytes %td\n", (char *)&arr[2] - (char *)&arr[0]);
    struct flex *fl = malloc(sizeof *fl + 4 * sizeof(double));
    if (!fl) return 1;
    fl->n = 4;
    for (int i = 0; i < fl->n; i++) fl->v[i] = i * 1.5;
    double s = 0;
    for (int i = 0; i < fl->n; i++) s += fl->v[i];
    printf("flex sum %g\n", s);
    free(fl);
    struct bits bt = {5, 17, -3, 1000000};
    printf("bits: a=%u b=%u c=%d d=%u\n", bt.a, bt.b, bt.c, bt.d);
    bt.a = 9;       /* wraps modulo 8 */
    bt.b += 20;     /* 37 mod 32 = 5 */
    bt.c = 7;
    bt.c += 1;      /* -8 in a 4-bit signed field (gcc: modulo) */
    printf("bits after: a=%u b=%u c=%d d=%u\n", bt.a, bt.b, bt.c, bt.d);
    printf("bit-field promotes to int: %d\n", bt.a - 5 < 0);
    return 0;
}
