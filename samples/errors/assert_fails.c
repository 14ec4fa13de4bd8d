// expect-exit: 134
// expect-stderr: Assertion `count < 3' failed
// expect-line: 12
// A failing assert(): like glibc, accsim prints
// `prog: FILE:LINE: check: Assertion `count < 3' failed.` and aborts (134).
#include <stdio.h>
#include <assert.h>

static int count;

static void check(void) {
    assert(count < 3);
    count++;
}

int main(void) {
    for (int i = 0; i < 5; i++) {
        check();
        printf("ok %d\n", i);
    }
    return 0;
}
