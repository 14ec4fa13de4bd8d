/* main's loops run as native code of their own while the rest of main runs in the interpreter
 * (issue 15, jit/src/loop_entry.rs): a long loop whose counter and sums come back to main, a
 * small table filled in the interpreter, loops inside an `if` and a host loop around a launch,
 * a `break`, a function called from a loop before it has code, a promoted scalar (its address
 * in a data clause) updated by a loop, and a float, a double and a char kept across loops.
 * Output equal to gcc's at -O0 and -O2. */
#include <stdio.h>
#include <stdlib.h>

static long mix(long a, int b) { return (a * 31 + b) % 1000003; }

int main(int argc, char **argv)
{
    int n = 300000;
    double *a = malloc(sizeof(double) * n);
    int table[16];
    for (int i = 0; i < 16; i++)
        table[i] = i * i - 3;
    int i;
    for (i = 0; i < n; i++)
        a[i] = 0.5 * i + table[i % 16];
    printf("i after the loop: %d\n", i);
    double total = 0.0;
    float ftotal = 0.0f;
    char last = 'a';
    long h = 7;
    for (int k = 0; k < n; k++) {
        total += a[k];
        ftotal += (float)(a[k] * 0.25);
        last = (char)('a' + k % 26);
        h = mix(h, k);
    }
    printf("total %.3f ftotal %.3f last %c hash %ld\n", total, ftotal, last, h);
    int found = -1;
    for (int k = 0; k < n; k++)
        if (a[k] > 100000.0) {
            found = k;
            break;
        }
    printf("found %d\n", found);
    double x = 1.0;
#pragma acc data copyin(x)
    {
    }
    for (int k = 0; k < n; k++)
        x = x * 1.0000001 + 1e-9;
    printf("x %.9f\n", x);
    if (argc > 0) {
        long s = 0;
        for (int r = 0; r < 3; r++) {
#pragma acc parallel loop copy(a[0:n])
            for (int k = 0; k < n; k++)
                a[k] = a[k] + 1.0;
            for (int k = 0; k < n; k += 7)
                s += (long)a[k];
        }
        printf("s %ld a[n-1] %.1f\n", s, a[n - 1]);
    }
    (void)argv;
    free(a);
    return 0;
}
