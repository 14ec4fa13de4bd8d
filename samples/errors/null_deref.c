// expect-exit: 3
// expect-stderr: null-deref
// expect-line: 17
// Dereferencing the NULL pointer returned by a failed lookup.
#include <stdio.h>
#include <string.h>

static const char *names[] = {"ann", "bob"};

static const char *find(const char *key) {
    for (int i = 0; i < 2; i++)
        if (strcmp(names[i], key) == 0) return names[i];
    return NULL;
}

static char first_char(const char *s) {
    return *s;
}

int main(void) {
    printf("%c\n", first_char(find("bob")));
    printf("%c\n", first_char(find("zed")));
    return 0;
}
