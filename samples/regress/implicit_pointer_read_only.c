// Issue 12 item 7 (implicit pointers): a reduction over a heap array that the loop only reads,
// through a global pointer and a pointer into the middle of the block (`p = base + k`). No clause
// names them; accsim, like nvc, copies in only what the loop reads (an implicit copyin, §2.5.1
// gives the pointers alone their attribute) and copies nothing back.
#include <stdio.h>
#include <stdlib.h>

double *samples;

int main(void)
{
    int n = 2000, half = 1000;
    samples = malloc(n * sizeof *samples);
    for (int i = 0; i < n; i++)
        samples[i] = i % 7;
    double total = 0.0;
#pragma acc parallel loop reduction(+:total)
    for (int i = 0; i < n; i++)
        total += samples[i];
    const double *second = samples + half;
    double upper = 0.0;
#pragma acc parallel loop reduction(+:upper)
    for (int i = 0; i < n - half; i++)
        upper += second[i];
    printf("total = %.1f, upper half = %.1f\n", total, upper);
    free(samples);
    return 0;
}
