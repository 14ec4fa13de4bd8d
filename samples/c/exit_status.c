// Exercises: exit() with a non-zero status from a nested function; atexit
// handlers run in reverse order and stdout is flushed before the process
// ends. Expected exit status: 7.
#include <stdio.h>
#include <stdlib.h>

static void first(void) { printf("atexit handler registered first runs last\n"); }
static void second(void) { printf("atexit handler registered second runs first\n"); }

static void check(int v) {
    printf("check(%d)\n", v);
    if (v > 2) {
        printf("exiting with 7 (no newline at end)");
        exit(7);
    }
}

int main(void) {
    atexit(first);
    atexit(second);
    for (int i = 0; i < 10; i++) check(i);
    printf("not reached\n");
    return 0;
}
