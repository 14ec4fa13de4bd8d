// Exercises: integer promotions and the usual arithmetic conversions
// (char, signed/unsigned char, short, int, long, long long, unsigned
// variants), mixed signed/unsigned comparisons, and the type of results.
#include <stdio.h>

int main(void) {
    char c = 'A';
    signed char sc = -5;
    unsigned char uc = 250;
    short s = -300;
    unsigned short us = 65000;
    int i = -7;
    unsigned int u = 7u;
    long l = -100000L;
    unsigned long ul = 100000UL;
    long long ll = -5000000000LL;
    unsigned long long ull = 5000000000ULL;

    /* char arithmetic promotes to int */
    printf("c+1=%d sizeof(c+1)=%zu sizeof(c)=%zu\n", c + 1, sizeof(c + 1), sizeof(c));
    printf("sizeof('a')=%zu\n", sizeof('a'));
    printf("uc+uc=%d (no wrap, promoted to int)\n", uc + uc);
    unsigned char ucsum = uc + uc;
    printf("stored back in unsigned char: %d\n", ucsum);
    printf("sc*uc=%d\n", sc * uc);
    printf("us*us as int? sizeof=%zu value(long long)=%lld\n", sizeof(us * 2), (long long)us * us);
    printf("s/7=%d s%%7=%d\n", s / 7, s % 7);
    printf("-uc=%d ~uc=%d\n", -uc, ~uc);
    printf("~us=%d\n", ~us);

    /* signed vs unsigned comparisons */
    printf("i < u : %d (i converted to unsigned)\n", i < u);
    printf("(unsigned)i = %u\n", (unsigned)i);
    printf("i < (int)u : %d\n", i < (int)u);
    printf("-1 < 0u : %d\n", -1 < 0u);
    printf("-1L < 1UL : %d\n", -1L < 1UL);
    printf("-1LL < 1U : %d (1U converted to long long)\n", -1LL < 1U);
    printf("sc < uc : %d (both promoted to int)\n", sc < uc);
    printf("s < us : %d (both promoted to int)\n", s < us);
    printf("i + u = %u\n", i + u);
    printf("l + ul = %lu\n", l + ul);
    printf("ll + ull = %llu\n", ll + ull);
    printf("ll + u = %lld (u converted to long long)\n", ll + u);
    printf("i * ul = %lu\n", i * ul);

    /* sizes of results of mixed expressions */
    printf("sizeof(i+u)=%zu sizeof(i+l)=%zu sizeof(u+l)=%zu sizeof(s+us)=%zu\n",
           sizeof(i + u), sizeof(i + l), sizeof(u + l), sizeof(s + us));
    printf("sizeof(c?1:2L)=%zu sizeof(1?c:c)=%zu\n", sizeof(c ? 1 : 2L), sizeof(1 ? c : c));

    /* conditional operator's usual conversion */
    int neg = -1;
    unsigned int zero = 0;
    printf("(1 ? neg : zero) = %u\n", 1 ? neg : zero);
    long long r = 1 ? neg : zero;
    printf("as long long: %lld\n", r);

    /* char is signed on x86-64 */
    char hi = (char)200;
    printf("(char)200 = %d, (unsigned char)200 = %d\n", hi, (unsigned char)200);
    printf("(signed char)-1 as unsigned = %u\n", (unsigned)(signed char)-1);
    printf("(unsigned char)-1 as unsigned = %u\n", (unsigned)(unsigned char)-1);
    printf("(short)-1 as unsigned short promoted: %d\n", (unsigned short)(short)-1);

    /* integer constant types */
    printf("sizeof(2147483647)=%zu sizeof(2147483648)=%zu sizeof(0x80000000)=%zu sizeof(4294967296)=%zu\n",
           sizeof(2147483647), sizeof(2147483648), sizeof(0x80000000), sizeof(4294967296));
    printf("0x80000000 > 0: %d, -0x80000000 = %u\n", 0x80000000 > 0, -0x80000000);
    printf("-2147483648 = %ld\n", -2147483648);
    printf("'\\xff' = %d, '\\377' = %d\n", '\xff', '\377');
    printf("L-suffix: %ld, U: %u, UL: %lu, LL: %lld, ULL: %llu\n", 10L, 10U, 10UL, 10LL, 10ULL);
    printf("octal 0777=%d hex 0xFf=%d\n", 0777, 0xFf);
    return 0;
}
