// §2.5.2: a scalar is treated as copy by a kernels construct only if it "does not appear in a
// data clause for the construct or any enclosing data construct"; inside `data copy(total)` the
// kernels region updates the data construct's device copy, copied back at its end.
#include <stdio.h>
int main(void) {
    int total = 1;
    int v[8] = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma acc data copy(total) copyin(v)
    {
#pragma acc kernels
        {
            for (int i = 0; i < 8; i++) total += v[i];
        }
#pragma acc kernels
        {
            total *= 2;
        }
    }
    printf("total = %d\n", total);
    return 0;
}
