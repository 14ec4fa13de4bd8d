// expect-exit: 2
// expect-stderr: error
// expect-line: 10
// Use of an identifier that was never declared (a typo of `total`).
#include <stdio.h>

int main(void) {
    int total = 0;
    for (int i = 0; i < 10; i++) total += i;
    printf("%d\n", totl);
    return 0;
}
