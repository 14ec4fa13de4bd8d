// expect-exit: 3
// expect-stderr: out-of-bounds
// expect-line: 14
// Reading past the end of a char array that has no NUL terminator:
// `char s[5] = "hello"` keeps no room for one, and the hand-written
// strlen walks off the end.
#include <stdio.h>

int main(void) {
    char s[5] = "hello";
    int n = 0;
    printf("counting\n");
    while (1) {
        if (s[n] == '\0') break;
        n++;
    }
    printf("%d\n", n);
    return 0;
}
