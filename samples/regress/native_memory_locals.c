// Issue 15 (native engine, second stage): functions whose locals live in memory — arrays,
// records with a partial initializer (the rest zero, C11 6.7.9p21), scalars whose address is
// taken — run as native code, their frame allocated as the interpreter allocates it (each
// memory local its own allocation, freed when the function returns, C11 6.2.4p2), so a pointer
// kept past the return is caught at the same access on both engines.
// expect-exit: 3
// expect-stderr: error[use-after-free]
#include <stdio.h>

struct point { int x, y, z; };

static void bump(int *p, int by) { *p += by; }

static int sum_local_array(int n) {
    int a[16];
    for (int i = 0; i < 16; i++)
        a[i] = i * n;
    int total = 0;
    for (int i = 0; i < 16; i++)
        bump(&total, a[i]);
    return total;
}

static int record_sum(int k) {
    struct point p = {k};
    p.y += 2;
    return p.x + p.y + p.z;
}

static double scale(double v) {
    double w = v;
    double *pw = &w;
    *pw *= 1.5;
    return w;
}

static int *escape(int v) {
    int local = v;
    int *p = &local;
    return p;
}

int main(void) {
    int grid[4][4] = {{0}};
    for (int i = 0; i < 4; i++)
        grid[i][i] = sum_local_array(i);
    printf("%d %d %d %d\n", grid[0][0], grid[1][1], grid[2][2], grid[3][3]);
    printf("%d %.2f\n", record_sum(5), scale(3.0));
    int *gone = escape(7);
    printf("%d\n", *gone); /* expect: use-after-free */
    return 0;
}
