// expect-exit: 2
// expect-stderr: error
// expect-line: 9
// A syntax error: an expression missing its right operand. accsim must
// refuse to run the program and point at the line.
#include <stdio.h>

int main(void) {
    int x = 1 + ;
    printf("%d\n", x);
    return 0;
}
