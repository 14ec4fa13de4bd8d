// Exercises: string literals and char arrays: escape sequences, adjacent
// literal concatenation, char arrays vs pointers, sizeof vs strlen,
// embedded NUL, modifying a char array, character arithmetic, ctype.h.
#include <stdio.h>
#include <string.h>
#include <ctype.h>

static void reverse(char *s) {
    size_t n = strlen(s);
    for (size_t i = 0; i < n / 2; i++) {
        char t = s[i];
        s[i] = s[n - 1 - i];
        s[n - 1 - i] = t;
    }
}

static int count_vowels(const char *s) {
    int c = 0;
    for (; *s; s++)
        if (strchr("aeiouAEIOU", *s)) c++;
    return c;
}

int main(void) {
    char arr[] = "Hello, World";
    const char *ptr = "Hello, World";
    printf("sizeof arr=%zu strlen=%zu sizeof ptr=%zu\n", sizeof arr, strlen(arr), sizeof ptr);
    reverse(arr);
    printf("reversed: %s\n", arr);
    printf("vowels in ptr: %d\n", count_vowels(ptr));
    const char *cat = "abc" "def"
                      "ghi";
    printf("concat: %s len %zu\n", cat, strlen(cat));
    printf("escapes: [tab\\t]=[\t] quote=\" apostrophe=' backslash=\\ percent=%%\n");
    printf("octal \\101=%c hex \\x42=%c \\0 ends: %zu\n", '\101', '\x42', strlen("ab\0cd"));
    char emb[] = "ab\0cd";
    printf("sizeof with embedded NUL %zu, after NUL: %s\n", sizeof emb, emb + 3);
    printf("char codes: 'a'=%d 'A'=%d '0'=%d '\\n'=%d ' '=%d\n", 'a', 'A', '0', '\n', ' ');
    char up[32];
    const char *src = "Mixed Case 123!";
    size_t i;
    for (i = 0; src[i]; i++) up[i] = (char)toupper((unsigned char)src[i]);
    up[i] = '\0';
    printf("upper: %s\n", up);
    int digits = 0, alphas = 0, spaces = 0, puncts = 0;
    for (const char *s = src; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        digits += isdigit(ch) != 0;
        alphas += isalpha(ch) != 0;
        spaces += isspace(ch) != 0;
        puncts += ispunct(ch) != 0;
    }
    printf("digits=%d alphas=%d spaces=%d puncts=%d\n", digits, alphas, spaces, puncts);
    printf("tolower('Q')=%c isxdigit('f')=%d isxdigit('g')=%d isalnum('_')=%d isupper('a')=%d\n",
           tolower('Q'), isxdigit('f') != 0, isxdigit('g') != 0, isalnum('_') != 0, isupper('a') != 0);
    char caesar[] = "attack at dawn";
    for (char *p = caesar; *p; p++)
        if (*p >= 'a' && *p <= 'z') *p = (char)('a' + (*p - 'a' + 13) % 26);
    printf("rot13: %s\n", caesar);
    int val = 0;
    for (const char *p = "40213"; *p; p++) val = val * 10 + (*p - '0');
    printf("parsed %d\n", val);
    char small[4] = "abc";
    char exact[3] = "xyz";  /* no terminator: print with precision */
    printf("small=%s exact=%.3s\n", small, exact);
    const char *multi = "line1\nline2\n";
    fputs(multi, stdout);
    printf("%c%c%c\n", ptr[0], *(ptr + 7), "literal"[3]);
    printf("sizeof(L\"ab\")=%zu u8 \"%s\"\n", sizeof(L"ab"), u8"utf8");
    printf("non-ascii bytes: %s (%zu bytes)\n", "caf\xc3\xa9", strlen("caf\xc3\xa9"));
    return 0;
}
