// expect-exit: 4
// expect-stderr: calls nested 100000 deep when calling `down`
// check: skip
// Issue 15 (calltree, session 14): native code tests the base case `if (n <= 0) return;` of a
// recursion at the call site and does not enter the callee when it holds; the call still counts
// one level of depth, so a recursion whose base-case call is the one past accsim's call-depth
// limit stops there on both engines, with the interpreter's message (C leaves the depth of
// recursion to the implementation, C11 5.2.4.1).
#include <stdio.h>

static long calls;

static void down(long n)
{
    if (n <= 0)
        return;
    calls++;
    down(n - 1);
}

int main(void)
{
    down(99998);
    printf("%ld\n", calls);
    down(99999);
    printf("%ld\n", calls);
    return 0;
}
