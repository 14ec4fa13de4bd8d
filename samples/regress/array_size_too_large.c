// Issue 14, found by the execution fuzzer: a struct member array whose size in bytes overflows
// (a mutated bound) panicked accsim's layout arithmetic (exit 101). As gcc, an array larger than
// half the address space is a compile error ("size of array is too large"), and so is a record
// whose members add up past it.
// expect-exit: 2
// expect-stderr: error[type]
// expect-stderr: size of array is too large
// expect-stderr: array_size_too_large.c:14:39
// check: skip
#include <stdio.h>

#define CELLS (1L << 62)

struct grid { int nx, ny; double cell[CELLS]; };

int main(void) {
    static struct grid g;
    printf("%d\n", g.nx);
    return 0;
}
