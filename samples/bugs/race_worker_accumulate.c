/* Workers of one gang all add into the same element: only the end of the worker loop
   synchronises them (§1.2). A reduction clause is what was meant. */
#include <stdio.h>
int main(void) {
    float a[128], total[1] = {0};
    for (int i = 0; i < 128; i++) a[i] = 1.0f;
#pragma acc parallel num_gangs(1) num_workers(4) vector_length(1) copyin(a) copy(total)
    {
#pragma acc loop worker
        for (int i = 0; i < 128; i++)
            total[0] += a[i]; /* expect: data-race */
    }
    printf("total = %.1f\n", total[0]);
    return 0;
}
