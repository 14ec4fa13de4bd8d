// expect-exit: 3
// expect-stderr: division by zero
// expect-line: 9
// Integer remainder by zero, in a helper called with 0.
#include <stdio.h>

static unsigned long long wrap(unsigned long long x, unsigned long long n) {
    unsigned long long r;
    r = x % n;
    return r;
}

int main(void) {
    printf("%llu\n", wrap(17, 5));
    printf("%llu\n", wrap(17, 0));
    return 0;
}
