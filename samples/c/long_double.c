// Exercises: long double variables, arithmetic and %Lf/%Lg/%Le printing.
// Every value is exactly representable in double, so the output is the
// same whether long double is the x87 80-bit type or a 64-bit double.
#include <complex.h>
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
    /* long double _Complex and the `l` complex functions of C99 7.3. */
    long double _Complex z = 3.0L + 4.0L * I, w = conjl(z) * 2.0L;
    printf("z=%.1Lf%+.1Lfi |z|=%.1Lf w=%.1Lf%+.1Lfi\n", creall(z), cimagl(z), cabsl(z), creall(w), cimagl(w));
    long double _Complex r = csqrtl(-4.0L + 0.0L * I), acc = 0;
    for (int i = 0; i < 4; i++) acc += (long double)i + (long double)(2 * i) * I;
    printf("csqrtl(-4)=%.1Lf%+.1Lfi acc=%.1Lf%+.1Lfi\n", creall(r), cimagl(r), creall(acc), cimagl(acc));
    return 0;
}
