// Exercises: unsigned wrap-around, shifts (left, logical and arithmetic
// right), and casts that truncate or reinterpret integer values.
#include <stdio.h>
#include <limits.h>

int main(void) {
    unsigned int u = UINT_MAX;
    u = u + 1;
    printf("UINT_MAX+1 = %u\n", u);
    u = 0;
    u = u - 1;
    printf("0u-1 = %u\n", u);
    unsigned char uc = 255;
    uc++;
    printf("uc 255++ = %d\n", uc);
    unsigned short us = 0;
    us--;
    printf("us 0-- = %d\n", us);
    unsigned long long ull = 0;
    ull -= 3;
    printf("ull 0-3 = %llu\n", ull);
    unsigned int m = 123456789u;
    printf("123456789u*1000 = %u\n", m * 1000u);
    printf("unsigned mul 65535*65537 = %u\n", 65535u * 65537u);

    /* shifts */
    printf("1<<31 as unsigned = %u\n", 1u << 31);
    printf("1<<30 = %d\n", 1 << 30);
    printf("1ULL<<63 = %llu\n", 1ULL << 63);
    printf("0xF0u>>4 = %u\n", 0xF0u >> 4);
    int neg = -256;
    printf("-256>>4 = %d (arithmetic)\n", neg >> 4);
    printf("-1>>10 = %d\n", -1 >> 10);
    printf("-255>>4 = %d\n", -255 >> 4);
    printf("(unsigned)-256>>4 = %u\n", (unsigned)neg >> 4);
    long long nl = -1000000000000LL;
    printf("-1e12>>20 = %lld\n", nl >> 20);
    unsigned char b = 0x81;
    printf("uc 0x81<<1 = %d (promoted)\n", b << 1);
    printf("uc 0x81<<1 stored = %d\n", (unsigned char)(b << 1));
    int sh = 5;
    printf("shift by variable: %d %u\n", 3 << sh, 0x80000000u >> sh);
    for (int k = 0; k < 64; k += 9)
        printf("1ULL<<%d = %llx\n", k, 1ULL << k);

    /* truncating casts */
    int big = 0x12345678;
    printf("(char)0x12345678 = %d\n", (char)big);
    printf("(unsigned char)0x12345678 = %u\n", (unsigned char)big);
    printf("(short)0x12345678 = %d\n", (short)big);
    printf("(unsigned short)0x12345678 = %u\n", (unsigned short)big);
    long long huge = 0x123456789ABCDEF0LL;
    printf("(int)huge = %d\n", (int)huge);
    printf("(unsigned)huge = %u\n", (unsigned)huge);
    printf("(short)40000 = %d\n", (short)40000);
    printf("(signed char)200 = %d\n", (signed char)200);
    printf("(int)3000000000u = %d\n", (int)3000000000u);
    printf("(long long)(unsigned)-1 = %lld\n", (long long)(unsigned)-1);
    printf("(long long)(int)-1 = %lld\n", (long long)(int)-1);
    printf("(unsigned long long)(int)-1 = %llu\n", (unsigned long long)(int)-1);
    /* float -> int truncation toward zero */
    double d = -3.99;
    printf("(int)-3.99 = %d, (int)3.99 = %d\n", (int)d, (int)-d);
    printf("(unsigned char)300.7 via int = %d\n", (unsigned char)(int)300.7);
    printf("(long long)1e15 = %lld\n", (long long)1e15);
    printf("(unsigned)4e9 = %u\n", (unsigned)4e9);
    printf("(double)ULLONG_MAX = %.1f\n", (double)ULLONG_MAX);
    printf("(float)16777217 = %.1f\n", (float)16777217);
    printf("(double)9007199254740993LL = %.1f\n", (double)9007199254740993LL);
    /* signed overflow avoided: done in unsigned then converted */
    int a = INT_MAX;
    int wrapped = (int)((unsigned)a + 1u);
    printf("INT_MAX+1 via unsigned = %d\n", wrapped);
    return 0;
}
