// Exercises: long double variables, arithmetic and %Lf/%Lg/%Le printing.
// Every value is exactly representable in double, so the output is the
// same whether long double is the x87 80-bit type or a 64-bit double.
#include <stdio.h>

static long double ld_sum(const long double *v, int n) {
    long double s = 0.0L;
    for (int i = 0; i < n; i++) s += v[i];
    return s;
}

int main(void) {
    long double a = 1.5L, b = 0.25L, c = -1024.0L;
    printf("a=%Lf b=%Lf c=%Lf\n", a, b, c);
    printf("a+b=%Lg a*c=%Lg c/b=%Lg\n", a + b, a * c, c / b);
    printf("%%Le: %Le %.3Le\n", a * b, c);
    printf("width: [%10.2Lf] [%-10.3Lf] [%+Lg]\n", a, b, a);
    long double v[8];
    for (int i = 0; i < 8; i++) v[i] = (long double)(i * i) / 8.0L;
    printf("sum=%Lf\n", ld_sum(v, 8));
    long double p = 1.0L;
    for (int i = 0; i < 20; i++) p *= 2.0L;
    printf("2^20=%.0Lf\n", p);
    double d = (double)(p / 16.0L);
    printf("as double %.1f\n", d);
    long double fromint = 123456789;
    printf("from int %Lf, back %lld\n", fromint, (long long)fromint);
    printf("compare %d %d\n", a > b, c < -1e3L);
    printf("sizeof(long double) >= sizeof(double): %d\n", sizeof(long double) >= sizeof(double));
    return 0;
}
