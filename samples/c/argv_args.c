// args: foo bar 42 -x -7
// Exercises: main(int argc, char **argv): argc, every argv[i] for i >= 1,
// the argv[argc] == NULL sentinel, numeric parsing of an argument, walking
// argv with a pointer. argv[0] (the program path) is never printed.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    printf("argc=%d\n", argc);
    for (int i = 1; i < argc; i++) printf("argv[%d]=\"%s\" (len %zu)\n", i, argv[i], strlen(argv[i]));
    printf("argv[argc] is NULL: %d\n", argv[argc] == NULL);
    printf("argv[0] non-empty: %d\n", argv[0] != NULL && argv[0][0] != '\0');
    long total = 0;
    for (char **p = argv + 1; *p; p++) {
        char *end;
        long v = strtol(*p, &end, 10);
        if (*end == '\0' && end != *p) {
            printf("numeric argument %ld\n", v);
            total += v;
        } else if ((*p)[0] == '-') {
            printf("flag %s\n", *p + 1);
        }
    }
    printf("total=%ld\n", total);
    return argc > 3 ? 0 : 1;
}
