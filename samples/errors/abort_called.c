// expect-exit: 134
// An explicit abort() after some output: the status is 128 + SIGABRT, as
// the shell reports it for the gcc build. glibc prints nothing for abort,
// so no stderr text or line is required.
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    printf("about to abort\n");
    fflush(stdout);
    abort();
}
