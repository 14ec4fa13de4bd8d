// gpu: skip (the payloads follow the CPU's rule, x86 as gcc; a GPU gives its canonical NaN 0x7fffffff for float operations, which C allows: C11 F.10.13)
// Issue 15: both engines give the same results bit for bit, NaN payloads included. With two NaN
// operands, x86's rule (which gcc and the native engine follow, first operand first) gives the
// first operand quieted; with one, that one quieted; with none (inf - inf, 0 / 0), the default NaN
// 0xfff8000000000000 / 0xffc00000. C leaves the payload unspecified (C11 F.10.13 and 5.2.4.2.2),
// so the program prints the bits; the expected file follows the x86 rule.
#include <stdio.h>
#include <string.h>

static unsigned long long bits(double d) {
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static unsigned fbits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static double from_bits(unsigned long long u) {
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static float ffrom_bits(unsigned u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

#define N 64

int main(void) {
    volatile double p = from_bits(0x7ff8000000000001ULL);
    volatile double q = from_bits(0xfff8000000000002ULL);
    volatile double s = from_bits(0x7ff0000000000003ULL); /* signalling: quieted */
    volatile double inf = from_bits(0x7ff0000000000000ULL);
    double arr[2] = {p, q};
    printf("p + q*2.0   %llx\n", bits(p + q * 2.0));
    printf("q*2.0 + p   %llx\n", bits(q * 2.0 + p));
    printf("arr0 + arr1 %llx\n", bits(arr[0] + arr[1]));
    printf("arr1 + arr0 %llx\n", bits(arr[1] + arr[0]));
    printf("p - q       %llx\n", bits(p - q));
    printf("q - p       %llx\n", bits(q - p));
    printf("p * q       %llx\n", bits(p * q));
    printf("p / q       %llx\n", bits(p / q));
    printf("q / p       %llx\n", bits(q / p));
    printf("s + q       %llx\n", bits(s + q));
    printf("1.0 + s     %llx\n", bits(1.0 + s));
    printf("inf - inf   %llx\n", bits(inf - inf));
    volatile double zero = 0.0;
    printf("zero / zero %llx\n", bits(zero / zero));
    printf("p + NAN-ish %llx\n", bits(p + (inf - inf)));
    printf("-(inf-inf)+q %llx\n", bits(-(inf - inf) + q));
    double c = p;
    c += q;
    printf("c += q      %llx\n", bits(c));
    c = q;
    c *= p;
    printf("c *= p      %llx\n", bits(c));
    c = q;
    c /= p;
    printf("c /= p      %llx\n", bits(c));
    c = p;
    c -= q;
    printf("c -= q      %llx\n", bits(c));

    volatile float fp = ffrom_bits(0x7fc00001u);
    volatile float fq = ffrom_bits(0xffc00002u);
    volatile float finf = ffrom_bits(0x7f800000u);
    float farr[2] = {fp, fq};
    printf("fp + fq*2   %x\n", fbits(fp + fq * 2.0f));
    printf("farr0+farr1 %x\n", fbits(farr[0] + farr[1]));
    printf("fq - fp     %x\n", fbits(fq - fp));
    printf("fp * fq     %x\n", fbits(fp * fq));
    printf("fq / fp     %x\n", fbits(fq / fp));
    printf("finf-finf   %x\n", fbits(finf - finf));
    float fc = fq;
    fc += fp;
    printf("fc += fp    %x\n", fbits(fc));

    /* Arrays in loops (vectorised columns and multiply-accumulate in the interpreter) and in a
       kernel (§2.6: the device's results are the host's). */
    double a[N], b[N], r[N], t[N];
    float fa[N], fb[N], fr[N];
    for (int i = 0; i < N; i++) {
        a[i] = from_bits(0x7ff8000000000000ULL + i + 1);
        b[i] = from_bits(0xfff8000000000000ULL + i + 100);
        fa[i] = ffrom_bits(0x7fc00000u + i + 1);
        fb[i] = ffrom_bits(0xffc00000u + i + 100);
    }
    for (int i = 0; i < N; i++)
        t[i] = b[i] * 3.0 + a[i];
    double dot = 0.0;
    for (int i = 0; i < N; i++)
        dot += b[i] * a[i];
#pragma acc parallel loop copyin(a, b, fa, fb) copyout(r, fr)
    for (int i = 0; i < N; i++) {
        r[i] = a[i] * b[i] - b[i];
        fr[i] = fb[i] / fa[i] + fa[i];
    }
    double sum = 0.0;
#pragma acc parallel loop reduction(+:sum) copyin(b)
    for (int i = 0; i < N; i++)
        sum += b[i];
    printf("t[0] t[63]  %llx %llx\n", bits(t[0]), bits(t[N - 1]));
    printf("dot         %llx\n", bits(dot));
    printf("r[0] r[63]  %llx %llx\n", bits(r[0]), bits(r[N - 1]));
    printf("fr[0] fr[63] %x %x\n", fbits(fr[0]), fbits(fr[N - 1]));
    printf("sum         %llx\n", bits(sum));
    return 0;
}
