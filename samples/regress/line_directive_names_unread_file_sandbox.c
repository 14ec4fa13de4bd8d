// Issue 14 (no leak under --sandbox): a `#line` (C11 §6.10.4) naming a file outside the sandbox's
// include directories is accepted, as gcc accepts it (nothing is included), and the message after
// it names that file and line without quoting it (snippets only of files the preprocessor read).
// Before, --sandbox refused it as an include of /etc/passwd. No flags: line_directive_names_unread_file.c.
// accsim-flags: --sandbox
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
