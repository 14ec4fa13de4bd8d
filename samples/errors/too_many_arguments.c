// expect-exit: 2
// expect-stderr: error
// expect-line: 11
// Calling a prototyped function with too many arguments is a constraint
// violation (an error even under gnu11, unlike an implicit declaration).
#include <stdio.h>

static int square(int x) { return x * x; }

int main(void) {
    int y = square(3, 4);
    printf("%d\n", y);
    return 0;
}
