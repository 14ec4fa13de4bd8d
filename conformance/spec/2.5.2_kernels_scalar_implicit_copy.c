// §2.5.2: "A scalar variable referenced in the kernels construct that does not appear in a data
// clause for the construct or any enclosing data construct will be treated as if it appeared in
// a copy clause." The value assigned in the kernels region reaches the host.
#include <stdio.h>
int main(void) {
    int last = -1;
    int a[10];
    for (int i = 0; i < 10; i++) a[i] = 3 * i;
#pragma acc kernels
    {
        last = a[9];
    }
    printf("last = %d\n", last);
    return 0;
}
