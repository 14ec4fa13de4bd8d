/* hello.c: plain C, no directives. The first program of the ladder: prints a greeting and the
 * sum of 1..100 (5050). */
#include <stdio.h>

int main(void)
{
    int sum = 0;
    for (int i = 1; i <= 100; i++)
        sum += i;
    printf("Hello from accsim!\n");
    printf("sum of 1..100 = %d\n", sum);
    return 0;
}
