// Exercises: the rest of the printf family and stdio output: %s with
// width/precision, sprintf and snprintf return values (including
// truncation and size 0), fprintf(stdout), puts, putchar, fputs, fputc,
// fwrite, and interleaving all of them on stdout.
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *s = "hello";
    printf("[%s] [%10s] [%-10s] [%.3s] [%10.2s] [%-*.*s]\n", s, s, s, s, s, 8, 4, s);
    printf("[%s] empty [%5s]\n", "", "");
    char buf[64];
    int n = sprintf(buf, "%d+%d=%d", 19, 23, 19 + 23);
    printf("sprintf wrote %d chars: '%s'\n", n, buf);
    n = snprintf(buf, sizeof buf, "%s-%05.1f", "pi", 3.14159);
    printf("snprintf returned %d: '%s'\n", n, buf);
    char tiny[6];
    n = snprintf(tiny, sizeof tiny, "%s", "truncated text");
    printf("snprintf into 6 bytes returned %d, got '%s' (strlen %zu)\n", n, tiny, strlen(tiny));
    n = snprintf(NULL, 0, "%d %s %f", 123456, "abc", 1.5);
    printf("snprintf(NULL,0) needs %d\n", n);
    n = snprintf(tiny, 1, "xyz");
    printf("snprintf size 1 returned %d, tiny is empty: %d\n", n, tiny[0] == '\0');
    n = sprintf(buf, "%c%c%c", 'a', 0, 'b');
    printf("sprintf with NUL char returned %d, strlen %zu\n", n, strlen(buf));
    char acc[128] = "";
    size_t used = 0;
    for (int i = 0; i < 5; i++) used += snprintf(acc + used, sizeof acc - used, "[%d:%x]", i, i * 77);
    printf("accumulated %zu: %s\n", used, acc);
    n = fprintf(stdout, "fprintf to stdout %d\n", 7);
    printf("fprintf returned %d\n", n);
    n = puts("puts adds a newline");
    printf("puts returned nonnegative: %d\n", n >= 0);
    n = putchar('X');
    putchar('\n');
    printf("putchar returned %d\n", n);
    fputs("fputs no newline|", stdout);
    fputc('!', stdout);
    putc('\n', stdout);
    size_t w = fwrite("fwrite bytes\n", 1, 13, stdout);
    printf("fwrite returned %zu\n", w);
    fprintf(stderr, "this goes to stderr and is not compared\n");
    for (int i = 0; i < 3; i++) {
        putchar('0' + i);
        fputs(i < 2 ? ", " : "\n", stdout);
    }
    printf("%s\n", "printf with only %s");
    printf("literal percent signs: 100%% 50%%%%\n");
    char line[32];
    sprintf(line, "%-6s|%6s|", "ab", "cd");
    puts(line);
    fflush(stdout);
    printf("%d%s%c%u%ld%x\n", 1, "two", '3', 4u, 5L, 6);
    return 0;
}
