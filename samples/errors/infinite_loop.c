// expect-exit: 4
// expect-stderr: max-steps
// expect-line: 11
// accsim-flags: --max-steps 1000000
// A loop whose condition never changes; accsim stops it at --max-steps.
// The whole loop is on one line so any step in it reports that line.
#include <stdio.h>

int main(void) {
    unsigned x = 1;
    printf("start\n"); while (x != 0) x = x * 3 | 1;
    printf("%u\n", x);
    return 0;
}
