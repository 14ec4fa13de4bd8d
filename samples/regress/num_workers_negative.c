// Issue 14, untrusted programs: a negative `num_workers` or `vector_length` (§2.5.7, §2.5.8)
// is a runtime error of the program naming the configuration, never an internal error.
// expect-exit: 3
// expect-stderr: error[launch]
// expect-stderr: vector_length(-32)
#include <stdio.h>

int main(int argc, char **argv) {
    double a[512];
    int lanes = argc > 1 ? 64 : -32;
#pragma acc parallel num_gangs(4) num_workers(2) vector_length(lanes) copyout(a) /* expect: launch */
    {
#pragma acc loop gang worker vector
        for (int i = 0; i < 512; i++)
            a[i] = 0.5 * i;
    }
    printf("%f\n", a[511]);
    return 0;
}
