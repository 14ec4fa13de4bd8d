// expect-exit: 2
// expect-stderr: error
// §2.11.1 restriction: "The update directive is executable. It must not appear in place of the
// statement following an if, while, do, switch, or label in C or C++".
#include <stdio.h>
int main(void) {
    int a[4] = {0};
    int refresh = 1;
#pragma acc data copy(a)
    {
        if (refresh)
#pragma acc update host(a) /* expect: compile-error */
        a[0] = 1;
    }
    printf("%d\n", a[0]);
    return 0;
}
