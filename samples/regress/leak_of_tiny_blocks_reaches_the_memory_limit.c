// accsim-flags: --max-memory 40000000
// expect-exit: 4
// expect-stderr: memory limit exceeded: allocating 1 bytes
// expect-stderr: allocations' bookkeeping
// A runaway program leaking 1-byte blocks: each block costs accsim far more than its byte (its
// allocation table entry, its native span entry, a slab slot), and only the byte counted
// against `--max-memory`; at the default 8 GiB limit the process held 22 GB and the system
// killed it (exit 137) before the limit was reached. The ids' bookkeeping now counts too, and
// the run stops cleanly at the limit (exit 4), naming the bookkeeping.
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
        *p = (char)n;
        n++;
    }
}
