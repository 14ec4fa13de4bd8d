// Exercises: assert() that passes (assert.h), getenv of a variable that
// exists (PATH, only checked for non-NULL) and of one that does not,
// setenv/getenv round trip, and static_assert.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>

_Static_assert(sizeof(int) == 4, "int is 32 bits");

static int checked_div(int a, int b) {
    assert(b != 0);
    return a / b;
}

int main(void) {
    assert(1 + 1 == 2);
    int x = checked_div(100, 7);
    assert(x == 14);
    printf("checked_div ok: %d\n", x);
    const char *path = getenv("PATH");
    printf("PATH set: %s\n", path != NULL ? "yes" : "no");
    const char *nope = getenv("ACCSIM_SURELY_UNSET_VARIABLE_12345");
    printf("unset variable: %s\n", nope == NULL ? "NULL" : nope);
    if (setenv("ACCSIM_SAMPLE_VAR", "value42", 1) == 0) {
        const char *v = getenv("ACCSIM_SAMPLE_VAR");
        printf("after setenv: %s (len %zu)\n", v ? v : "NULL", v ? strlen(v) : 0);
    }
    for (int i = 0; i < 5; i++) assert(i < 5);
    printf("all asserts passed\n");
    return 0;
}
