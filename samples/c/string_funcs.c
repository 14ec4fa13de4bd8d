// Exercises: string.h: strlen, strcpy, strncpy (padding, no terminator),
// strcat, strncat, strcmp/strncmp (sign only), strchr, strrchr, strstr,
// strspn, strcspn, strpbrk, memcpy, memmove (overlap), memset, memcmp,
// memchr, strdup, strndup.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
    char buf[64];
    strcpy(buf, "hello");
    printf("strcpy '%s' strlen %zu\n", buf, strlen(buf));
    strcat(buf, ", world");
    printf("strcat '%s' strlen %zu\n", buf, strlen(buf));
    strncat(buf, "!!!???", 3);
    printf("strncat '%s'\n", buf);
    char pad[8];
    memset(pad, 'X', sizeof pad);
    strncpy(pad, "ab", sizeof pad);
    printf("strncpy pads: %d %d %d %d\n", pad[0], pad[2], pad[5], pad[7]);
    char nopad[4];
    strncpy(nopad, "abcdef", 4);
    printf("strncpy no terminator: %.4s\n", nopad);
    printf("strcmp: %d %d %d %d\n", sign(strcmp("abc", "abd")), sign(strcmp("abc", "abc")),
           sign(strcmp("b", "abc")), sign(strcmp("ab", "abc")));
    printf("strcmp high byte unsigned: %d\n", sign(strcmp("\xff", "a")));
    printf("strncmp: %d %d\n", sign(strncmp("abcdef", "abcxyz", 3)), sign(strncmp("abcdef", "abcxyz", 4)));
    const char *text = "the quick brown fox jumps over the lazy dog";
    const char *p = strchr(text, 'q');
    printf("strchr q at %td: %s\n", p - text, p);
    p = strrchr(text, 'o');
    printf("strrchr o at %td: %s\n", p - text, p);
    printf("strchr NUL at %td\n", strchr(text, '\0') - text);
    printf("strchr missing: %s\n", strchr(text, 'Z') ? "found" : "NULL");
    p = strstr(text, "the");
    printf("strstr the at %td\n", p - text);
    p = strstr(p + 1, "the");
    printf("next the at %td\n", p - text);
    printf("strstr empty needle at %td\n", strstr(text, "") - text);
    printf("strstr missing: %s\n", strstr(text, "cat") ? "found" : "NULL");
    printf("strspn digits of '12345abc': %zu\n", strspn("12345abc", "0123456789"));
    printf("strcspn vowels of 'rhythm and': %zu\n", strcspn("rhythm and", "aeiou"));
    printf("strpbrk: %s\n", strpbrk("key=value;x", "=;"));
    int src[5] = {1, 2, 3, 4, 5}, dst[5] = {0};
    memcpy(dst, src, sizeof src);
    printf("memcpy: %d %d %d %d %d\n", dst[0], dst[1], dst[2], dst[3], dst[4]);
    char ov[] = "0123456789";
    memmove(ov + 2, ov, 5);
    printf("memmove right overlap: %s\n", ov);
    memmove(ov, ov + 3, 6);
    printf("memmove left overlap: %s\n", ov);
    memset(ov, '-', 3);
    printf("memset: %s\n", ov);
    int zeros[4];
    memset(zeros, 0, sizeof zeros);
    memset(zeros + 1, 0xFF, sizeof(int));
    printf("memset ints: %d %d %d\n", zeros[0], zeros[1], zeros[2]);
    printf("memcmp: %d %d %d\n", sign(memcmp("abc", "abd", 3)), sign(memcmp("abc", "abd", 2)),
           sign(memcmp("\x80", "\x01", 1)));
    const char *mc = memchr("abcdef", 'd', 6);
    printf("memchr: %s\n", mc);
    char *dup = strdup(text);
    if (!dup) return 1;
    dup[3] = '_';
    printf("strdup modified: %.10s original: %.10s\n", dup, text);
    free(dup);
    char *nd = strndup("abcdefgh", 3);
    if (!nd) return 1;
    printf("strndup: %s len %zu\n", nd, strlen(nd));
    free(nd);
    size_t total = 0;
    const char *words[] = {"a", "bb", "", "dddd"};
    for (int i = 0; i < 4; i++) total += strlen(words[i]);
    printf("total len %zu\n", total);
    char joined[32] = "";
    for (int i = 0; i < 4; i++) {
        if (i) strcat(joined, "|");
        strcat(joined, words[i]);
    }
    printf("joined '%s'\n", joined);
    return 0;
}
