// Issue 12 (findings name the program's variable): data mapped by a runtime routine
// (`acc_copyin(b, n)`, §3.2.18) was named by the call's values in findings and `--notify`
// lines (`acc_copyin(0x1400000000, 512)[5]`). It is named by the variable of the first
// argument now: `b[5]`. A heap block through a pointer, a local array, a global array; the
// missing `update host` is the planted bug.
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>

#define N 128

float table[N];

int main(void) {
    float *b = malloc(N * sizeof *b);
    float c[N];
    if (!b) return 1;
    for (int i = 0; i < N; i++) {
        b[i] = i;
        c[i] = 1.0f;
        table[i] = 0.0f;
    }
    acc_copyin(b, N * sizeof *b);
    acc_copyin(c, sizeof c);
    acc_create(table, sizeof table);
#pragma acc parallel loop present(b[0:N], c[0:N], table)
    for (int i = 0; i < N; i++) {
        b[i] *= 2.0f;
        table[i] = b[i] + c[i];
    }
    printf("b[5] = %.1f\n", b[5]); /* expect: stale-host-read */
    acc_copyout(table, sizeof table);
    printf("table[5] = %.1f\n", table[5]);
    acc_delete(c, sizeof c);
    acc_delete(b, N * sizeof *b);
    free(b);
    return 0;
}
