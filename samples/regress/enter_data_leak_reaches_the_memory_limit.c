// accsim-flags: --max-memory 40000000
// expect-exit: 4
// expect-stderr: memory limit exceeded
// A runaway program mapping a fresh 1-byte block with `enter data create` in a loop and never
// exiting the data: each iteration costs a host block, a device block and a present table
// entry (§2.6.6: the dynamic reference keeps it). Only the blocks counted against
// `--max-memory` once, so the process held 3.5 times the limit before it stopped (with the
// default 8 GiB limit, more memory than the 24 GB machine has). The entries count now too.
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    long n = 0;
    for (;;) {
        char *p = malloc(1); /* expect: memory limit */
        if (p == NULL) {
            printf("malloc returned NULL after %ld blocks\n", n);
            return 0;
        }
#pragma acc enter data create(p[0:1])
        n++;
    }
}
