// Issue 12 item 7 (implicit pointers): a kernels construct of two loop nests (two kernels,
// §2.5.2) through pointers no clause names: a global pointer to heap data that the first loop
// reads and the second writes, and a pointer to a local array. What accsim copies implicitly,
// as nvc does, covers the whole construct: `field` is copied back though the first kernel only
// read it, and the second loop's wider range of `work` is copied too.
#include <stdio.h>
#include <stdlib.h>

double *field;

int main(void)
{
    int n = 100;
    double scratch[120];
    double *work = scratch;
    field = malloc(n * sizeof *field);
    for (int i = 0; i < n; i++)
        field[i] = i;
    for (int i = 0; i < 120; i++)
        scratch[i] = 0.0;
#pragma acc kernels
    {
        for (int i = 0; i < n; i++)
            work[i] = 2.0 * field[i];
        for (int i = 0; i < n; i++) {
            field[i] = work[i] + work[i + 20];
            work[i + 20] += 1.0;
        }
    }
    printf("field[10] = %.1f, field[90] = %.1f, scratch[119] = %.1f\n", field[10], field[90], scratch[119]);
    free(field);
    return 0;
}
