// Exercises: enums (implicit and explicit values, negative values, enum
// constants as ints, switch over enum) and typedefs (of scalars, structs,
// pointers, arrays, function pointer types).
#include <stdio.h>

enum color { RED, GREEN = 5, BLUE, ALPHA = -2, BETA };
typedef enum { MON = 1, TUE, WED, THU, FRI, SAT, SUN } weekday;
typedef unsigned long ulong_t;
typedef struct point { int x, y; } point_t, *point_ptr;
typedef int vec3[3];
typedef int (*binop)(int, int);
typedef const char *cstr;

static int add(int a, int b) { return a + b; }
static int mul(int a, int b) { return a * b; }

static cstr color_name(enum color c) {
    switch (c) {
    case RED: return "red";
    case GREEN: return "green";
    case BLUE: return "blue";
    case ALPHA: return "alpha";
    case BETA: return "beta";
    }
    return "?";
}

int main(void) {
    printf("RED=%d GREEN=%d BLUE=%d ALPHA=%d BETA=%d\n", RED, GREEN, BLUE, ALPHA, BETA);
    for (int c = ALPHA; c <= BLUE; c++) printf("%d:%s ", c, color_name((enum color)c));
    printf("\n");
    weekday d = FRI;
    d++;
    printf("day after FRI = %d, weekend=%d\n", d, d >= SAT);
    enum color e = BLUE;
    int asint = e + 10;
    printf("BLUE+10 = %d sizeof(enum color)=%zu\n", asint, sizeof e);
    ulong_t big = 1UL << 40;
    printf("ulong_t %lu\n", big);
    point_t p = {3, 4};
    point_ptr pp = &p;
    pp->x *= 2;
    printf("point (%d,%d)\n", p.x, p.y);
    vec3 v = {1, 2, 3};
    printf("vec3 sizeof %zu sum %d\n", sizeof(vec3), v[0] + v[1] + v[2]);
    binop ops[2] = {add, mul};
    for (int i = 0; i < 2; i++) printf("op%d(6,7)=%d\n", i, ops[i](6, 7));
    typedef int inner_t;
    inner_t k = 9;
    {
        typedef double inner_t;  /* shadows in inner block */
        inner_t k2 = 1.5;
        printf("inner typedef double %g sizeof %zu\n", k2, sizeof(inner_t));
    }
    printf("outer typedef int %d sizeof %zu\n", k, sizeof(inner_t));
    enum { LOCAL_A = 100, LOCAL_B = LOCAL_A * 2 + 1 };
    printf("local enum %d %d\n", LOCAL_A, LOCAL_B);
    int table[BLUE + 1] = {[RED] = 1, [GREEN] = 2, [BLUE] = 3};
    printf("table size %zu [5]=%d [6]=%d\n", sizeof table / sizeof table[0], table[GREEN], table[BLUE]);
    return 0;
}
