// expect-exit: 2
// expect-stderr: error
// expect-line: 11
// Access to a member the struct does not have.
#include <stdio.h>

struct point { int x, y; };

int main(void) {
    struct point p = {1, 2};
    printf("%d\n", p.z);
    return 0;
}
