// Issue 14 (no leak): `#line` (C11 §6.10.4) renames the source to any file, and a message after
// it names that file and line, as gcc's do; but accsim shows snippets only of the files the
// preprocessor read (its -MD list). Before, the message quoted /etc/passwd's line 20 (and under
// --sandbox the program was refused as if it had included the file). Same program under
// --sandbox: line_directive_names_unread_file_sandbox.c.
// expect-exit: 3
// expect-stderr: /etc/passwd:20
// expect-stderr-not: root:
// expect-stderr-not: /bin/
#include <stdio.h>

int main(void) {
    int counts[4] = {0};
    int total = 0;
    for (int i = 0; i < 4; i++)
        counts[i] = i + 1;
#pragma acc parallel loop copyin(counts) reduction(+:total)
#line 19 "/etc/passwd"
    for (int i = 0; i <= 4; i++)
        total += counts[i]; /* expect: out-of-bounds */
    printf("%d\n", total);
    return 0;
}
