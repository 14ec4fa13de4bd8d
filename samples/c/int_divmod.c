// Exercises: integer division and modulo with negative operands (truncation
// toward zero), for int, long long and unsigned, and the identity
// (a/b)*b + a%b == a.
#include <stdio.h>

int main(void) {
    int vals[] = {17, -17, 7, -7, 0, 1, -1, 100, -100};
    int divs[] = {5, -5, 3, -3, 1, 7};
    int n = sizeof vals / sizeof vals[0];
    int m = sizeof divs / sizeof divs[0];
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < m; j++) {
            int a = vals[i], b = divs[j];
            int q = a / b, r = a % b;
            printf("%4d / %2d = %3d  %4d %% %2d = %3d  check=%d\n", a, b, q, a, b, r,
                   q * b + r == a);
        }
    }
    long long A = -1000000000007LL;
    printf("ll: %lld %lld %lld %lld\n", A / 1000, A % 1000, A / -13, A % -13);
    unsigned u = 4000000000u;
    printf("unsigned: %u %u\n", u / 7u, u % 7u);
    printf("mixed: -7 / 2u = %u\n", -7 / 2u);
    printf("mixed: -7 %% 2u = %u\n", -7 % 2u);
    printf("long: %ld %ld\n", -9L / 4L, -9L % 4L);
    /* compile-time constant folding vs runtime */
    volatile int vx = -9, vy = 4;
    printf("runtime: %d %d, const: %d %d\n", vx / vy, vx % vy, -9 / 4, -9 % 4);
    /* char division promotes */
    signed char c1 = -128, c2 = -1;
    printf("(signed char)-128 / -1 = %d\n", c1 / c2);
    signed char c3 = c1 / c2;
    printf("stored back: %d\n", c3);
    short s1 = -32768;
    printf("short -32768 %% 10 = %d\n", s1 % 10);
    return 0;
}
