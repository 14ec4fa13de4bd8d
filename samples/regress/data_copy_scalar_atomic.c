// Issue 12 item 1: a scalar named in an enclosing `data copy(f)` is not firstprivate in a
// `parallel` inside it (§2.5.1: "does not appear in a data clause for the construct or any
// enclosing data construct"), so the atomic increments reach its device copy, and the data
// construct's copy-out brings them back.
#include <stdio.h>

int main(void) {
    int f = 0;
#pragma acc data copy(f)
    {
#pragma acc parallel loop
        for (int i = 0; i < 100; i++) {
#pragma acc atomic update
            f++;
        }
    }
    printf("f = %d\n", f);
    return 0;
}
