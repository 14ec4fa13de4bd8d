/* A shared counter updated by every iteration without `atomic` (§2.12). */
#include <stdio.h>
int main(void) {
    int count = 0;
    float x[200];
    for (int i = 0; i < 200; i++) x[i] = (float)(i % 10);
#pragma acc parallel loop copyin(x) copy(count)
    for (int i = 0; i < 200; i++)
        if (x[i] > 4.5f)
            count++; /* expect: data-race */
    printf("count = %d\n", count);
    return 0;
}
