/* Issue 15, native engine: native code evaluated a call's arguments left to right, where the
 * interpreter and gcc on x86-64 evaluate them right to left (C11 §6.5.2.2p10 leaves the order
 * unspecified; accsim follows gcc). Arguments with side effects — output, a counter, a pointer
 * walked by `*p++` — gave `accsim run` another output than `--engine interp` and gcc, and the
 * checkers of `accsim check` saw the accesses in another order.
 */
#include <stdio.h>

static int trace(const char *tag, int v)
{
    printf("%s ", tag);
    return v;
}

static int sum3(int a, int b, int c)
{
    return a * 100 + b * 10 + c;
}

int main(void)
{
    int values[6] = {1, 2, 3, 4, 5, 6};
    int *p = values;
    int (*f)(int, int, int) = sum3;
    printf("%d\n", sum3(trace("a", 1), trace("b", 2), trace("c", 3)));
    int counter = 0;
    for (int i = 0; i < 3; i++)
        printf("%d\n", sum3(counter++, counter++, counter++));
    printf("%d\n", f(*p++, *p++, *p++));
    printf("%d %d\n", trace("x", 7), trace("y", 8));
    return 0;
}
