// Issue 15 (native engine, compile share): in a function that runs once (`main`), a loop nest of
// constant bounds whose loops run at most 1024 iterations in all is translated as it is: no
// unrolled copies, no second version with entry checks and lanes. Its results are those of
// every other loop: a 5 x 5 weight table filled with calls of `abs`, normalised in a loop of 25
// iterations, a nest counted down, counters read after their loops (C11 6.8.5.3: the counter
// keeps the value that ended the loop), next to a large loop (a million iterations, in two
// versions as before). The last small nest reads one element past the table: the fault is the
// interpreter's, at its own iteration (C11 6.5.6p8; accsim stops there).
// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-stderr: native_small_loop_nests_in_main.c:52:
// check: skip
// accsim-env: ACCSIM_JIT=eager
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    float weight[25];
    float wsum = 0.0f;
    int dy, dx;
    for (dy = -2; dy <= 2; dy++)
        for (dx = -2; dx <= 2; dx++) {
            float w = (float)((3 - abs(dy)) * (3 - abs(dx)));
            weight[(dy + 2) * 5 + (dx + 2)] = w;
            wsum += w;
        }
    printf("loops ended at dy=%d dx=%d, sum %.1f\n", dy, dx, wsum);
    for (int i = 0; i < 25; i++)
        weight[i] /= wsum;
    double corner = 0.0;
    for (int i = 4; i >= 0; i--)
        for (int j = 4; j > i; j--)
            corner += weight[i * 5 + j] * (i + 1);
    printf("centre %.6f corner %.6f\n", weight[12], corner);

    int n = 1000000;
    double *big = malloc(sizeof(double) * n);
    if (!big)
        return 1;
    for (int i = 0; i < n; i++)
        big[i] = weight[i % 25] * i;
    double total = 0.0;
    for (int i = 0; i < n; i++)
        total += big[i];
    printf("total %.3f\n", total);
    fflush(stdout);

    /* One element past `weight` on the last iteration (<= for <). */
    float tail = 0.0f;
    for (int i = 20; i <= 25; i++)
        tail += weight[i];
    printf("not reached: %.3f\n", tail);
    free(big);
    return 0;
}
