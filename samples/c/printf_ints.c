// Exercises: printf integer conversions %d %i %u %x %X %o %c with flags
// (- + space 0 #), field width, precision, `*` width and precision
// (including negative `*` width), and length modifiers hh h l ll z j t.
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

int main(void) {
    int vals[] = {0, 1, -1, 42, -42, 123456, -2147483647 - 1, 2147483647};
    for (int i = 0; i < 8; i++) {
        int v = vals[i];
        printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%.3d] [%8.4d] [%-+8.3d] [%i]\n",
               v, v, v, v, v, v, v, v, v, v);
    }
    unsigned uv[] = {0, 1, 255, 4096, 3735928559u, 4294967295u};
    for (int i = 0; i < 6; i++) {
        unsigned v = uv[i];
        printf("[%u] [%x] [%X] [%#x] [%#X] [%o] [%#o] [%08x] [%#010x] [%.0x] [%-#8o]\n",
               v, v, v, v, v, v, v, v, v, v, v);
    }
    printf("zero with precision 0: [%.0d] [%5.0d] [%#.0o] [%#.0x]\n", 0, 0, 0, 0u);
    printf("star width/prec: [%*d] [%-*d] [%.*d] [%*.*d]\n", 6, 42, 6, 42, 4, 42, 8, 5, -42);
    printf("negative star width means left-justify: [%*d]\n", -6, 42);
    printf("negative star precision is ignored: [%.*d]\n", -3, 7);
    printf("hh: [%hhd] [%hhu] [%hhx]\n", 300, 300, -1);
    printf("h: [%hd] [%hu] [%hx]\n", 70000, 70000, -1);
    printf("l: [%ld] [%lu] [%lx]\n", -9000000000L, 18000000000UL, 0xdeadbeefcafeUL);
    printf("ll: [%lld] [%llu] [%llX] [%llo]\n", -9223372036854775807LL - 1, 18446744073709551615ULL,
           0xABCDEF0123456789ULL, 01234567012345670123ULL);
    size_t sz = 12345;
    ptrdiff_t pd = -678;
    intmax_t im = -99;
    printf("z: [%zu] [%zd] [%zx] t: [%td] j: [%jd]\n", sz, (ptrdiff_t)sz, sz, pd, im);
    printf("chars: [%c] [%3c] [%-3c] [%c]\n", 'A', 'b', 'c', 65 + 25);
    printf("percent: [%%] [%%%%]\n");
    printf("flags combined: [%+05d] [%-05d] [% 05d] [%+ d]\n", 42, 42, 42, 42);
    printf("plus on unsigned ignored: [%+u] [% x]\n", 5u, 255u);
    long long table[] = {1, 10, 100, 1000, 10000, 100000};
    for (int i = 0; i < 6; i++) printf("|%8lld|%-8lld|%08llx|\n", table[i], table[i] * -3, table[i] * 255);
    int w = printf("%d-%s", 12345, "abc");
    printf("\nprintf returned %d\n", w);
    return 0;
}
