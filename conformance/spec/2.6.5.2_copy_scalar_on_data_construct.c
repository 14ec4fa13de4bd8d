// §2.6.5.2: copy of a scalar on a data construct: a kernels region inside it (whose own implicit
// scalar treatment would be copy, §2.5.2) accumulates into the device copy, copied back at exit.
#include <stdio.h>
int main(void) {
    int hits = 5;
    int v[10];
    for (int i = 0; i < 10; i++) v[i] = i % 2;
#pragma acc data copy(hits) copyin(v)
    {
#pragma acc kernels
        {
            for (int i = 0; i < 10; i++) hits += v[i];
        }
    }
    printf("hits = %d\n", hits);
    return 0;
}
