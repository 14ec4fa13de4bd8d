// expect-exit: 4
// expect-stderr: stack overflow
// expect-line: 9
// Unbounded recursion: the base case can never be reached for odd n.
#include <stdio.h>

static long down(long n) {
    if (n == 0) return 0;
    return 1 + down(n - 2);
}

int main(void) {
    printf("%ld\n", down(10));
    printf("%ld\n", down(11));
    return 0;
}
