// Exercises: type qualifiers and storage classes: const objects and
// pointers (const int *, int *const), volatile accumulation, register
// locals, restrict-qualified parameters, static inline functions, and
// const arrays of structs used as lookup tables.
#include <stdio.h>

struct unit { const char *name; double factor; };
static const struct unit units[] = {{"mm", 0.001}, {"cm", 0.01}, {"m", 1.0}, {"km", 1000.0}};
static const int nunits = sizeof units / sizeof units[0];

static inline int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static void add_arrays(int n, double *restrict out, const double *restrict a, const double *restrict b) {
    for (int i = 0; i < n; i++) out[i] = a[i] + b[i];
}

static double convert(double value, const char *from, const char *to) {
    double f = 0, t = 0;
    for (int i = 0; i < nunits; i++) {
        const char *n = units[i].name;
        int eq_from = 1, eq_to = 1;
        for (int k = 0; n[k] || from[k]; k++) if (n[k] != from[k]) { eq_from = 0; break; }
        for (int k = 0; n[k] || to[k]; k++) if (n[k] != to[k]) { eq_to = 0; break; }
        if (eq_from) f = units[i].factor;
        if (eq_to) t = units[i].factor;
    }
    return value * f / t;
}

int main(void) {
    const int limit = 10;
    const int *pc = &limit;
    int value = 3;
    int *const cp = &value;
    *cp += limit;
    printf("limit=%d *pc=%d value=%d\n", limit, *pc, value);
    const char *const greeting = "const pointer to const char";
    printf("%s\n", greeting);
    volatile int vsum = 0;
    for (int i = 0; i < 100; i++) vsum += i;
    printf("volatile sum=%d\n", vsum);
    register int r = 0;
    for (register int i = 0; i < 10; i++) r += i * i;
    printf("register sum=%d\n", r);
    for (int v = -5; v <= 15; v += 5) printf("clamp(%d)=%d ", v, clamp(v, 0, 10));
    printf("\n");
    double a[4] = {1, 2, 3, 4}, b[4] = {0.5, 0.25, 0.125, 0.0625}, out[4];
    add_arrays(4, out, a, b);
    printf("restrict add: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
    printf("2.5 km = %g m, 12 cm = %g mm, 1500 mm = %g m\n", convert(2.5, "km", "m"), convert(12, "cm", "mm"),
           convert(1500, "mm", "m"));
    static const char hex[] = "0123456789abcdef";
    unsigned word = 0xC0FFEEu;
    char text[9];
    for (int i = 7; i >= 0; i--) { text[i] = hex[word & 15]; word >>= 4; }
    text[8] = '\0';
    printf("hex via const table: %s\n", text);
    const volatile int cv = 5;
    printf("const volatile %d\n", cv);
    return 0;
}
