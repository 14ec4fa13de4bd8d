// expect-exit: 4
// expect-stderr: calls nested 100000 deep when calling `scale`
// check: skip
// Issue 15 (native engine): a recursion that reaches accsim's call-depth limit in a small
// helper which native code translates inline. Both engines stop at the same call with the same
// message, naming the depth of that call (the interpreter's stack-overflow limit; C itself
// leaves the depth of recursion to the implementation, C11 5.2.4.1).
#include <stdio.h>

static double scale(double x)
{
    return x * 2.0;
}

static double shifted(double x)
{
    return scale(x) + 1.0;
}

static double depth_sum(int n, double x)
{
    if (n == 0)
        return shifted(x);
    return depth_sum(n - 1, x) + 1.0;
}

int main(void)
{
    printf("%f\n", depth_sum(99997, 1.0));
    return 0;
}
