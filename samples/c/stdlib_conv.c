// Exercises: stdlib.h conversions: atoi, atol, atoll, atof, strtol with
// bases 0/2/8/10/16/36 and end pointers, strtoul with negatives, strtoll,
// strtod (exponents, hex floats, inf, leading space), abs/labs/llabs, div.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("atoi: %d %d %d %d %d\n", atoi("42"), atoi("  -17xyz"), atoi("+8"), atoi("abc"), atoi("2147483647"));
    printf("atol: %ld atoll: %lld %lld\n", atol("-123456789012"), atoll("9223372036854775807"), atoll("  -5"));
    printf("atof: %g %g %g %g\n", atof("3.25"), atof("-1e3"), atof("  .5abc"), atof("x"));
    const char *inputs[] = {"123", "-0x1F", "0777", "-077", "  +99 rest", "zz", "1010", "0x", ""};
    int bases[] = {0, 2, 8, 10, 16, 36};
    for (int i = 0; i < 9; i++) {
        for (int b = 0; b < 6; b++) {
            char *end;
            long v = strtol(inputs[i], &end, bases[b]);
            printf("strtol(\"%s\",%d)=%ld used=%td  ", inputs[i], bases[b], v, end - inputs[i]);
        }
        printf("\n");
    }
    char *end;
    printf("strtoul(\"-1\")=%lu\n", strtoul("-1", &end, 10));
    printf("strtoll: %lld\n", strtoll("-9000000000000", &end, 10));
    printf("strtoull hex: %llu\n", strtoull("FFFFFFFFFFFFFFFF", &end, 16));
    const char *dins[] = {"3.14159", "-2.5e-3", "1e308", "0x1.8p3", "inf", "-Infinity", "  42.", ".e5", "1e", "12abc"};
    for (int i = 0; i < 10; i++) {
        double d = strtod(dins[i], &end);
        printf("strtod(\"%s\") = %.17g used %td\n", dins[i], d, end - dins[i]);
    }
    printf("strtof(\"0.1\") = %.9g\n", strtof("0.1", &end));
    printf("abs: %d %d labs: %ld llabs: %lld\n", abs(-5), abs(7), labs(-123456789L), llabs(-9000000000000LL));
    div_t q = div(-17, 5);
    ldiv_t lq = ldiv(1000000007L, 1000L);
    printf("div(-17,5) = %d rem %d; ldiv = %ld rem %ld\n", q.quot, q.rem, lq.quot, lq.rem);
    /* parse a list of numbers with strtol and an end pointer */
    const char *list = "10, 20,30 ,  -40,50";
    const char *cur = list;
    long sum = 0;
    int count = 0;
    while (*cur) {
        char *next;
        long v = strtol(cur, &next, 10);
        if (next == cur) { cur++; continue; }
        sum += v;
        count++;
        cur = next;
    }
    printf("parsed %d numbers sum %ld\n", count, sum);
    return 0;
}
