// expect-exit: 2
// expect-stderr: error
// §2.12.1 restriction: "In C and C++, function static variables are not supported in functions
// to which a routine directive applies."
#include <stdio.h>
#pragma acc routine seq
static int counter(void) {
    static int calls = 0; /* expect: compile-error */
    return ++calls;
}
int main(void) {
    int v[4];
#pragma acc parallel loop copyout(v)
    for (int i = 0; i < 4; i++) v[i] = counter();
    printf("%d\n", v[0]);
    return 0;
}
