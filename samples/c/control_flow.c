// Exercises: every loop and selection statement: for/while/do-while,
// break/continue, empty bodies, switch with fallthrough, default in the
// middle, nested switch, case ranges (GNU), loops with multiple variables.
#include <stdio.h>

static const char *classify(int x) {
    switch (x) {
    case 0:
        return "zero";
    default:
        return "many";
    case 1:
    case 2:
        return "few";
    case 3 ... 5:
        return "several";
    }
}

int main(void) {
    for (int i = 0; i < 5; i++) {
        if (i == 1) continue;
        if (i == 4) break;
        printf("for %d\n", i);
    }
    int n = 10;
    while (n > 0) {
        n -= 3;
        if (n == 4) continue;
        printf("while n=%d\n", n);
    }
    int k = 0;
    do {
        printf("do k=%d\n", k);
        k += 5;
    } while (k < 12);
    do printf("do runs once\n"); while (0);
    int cnt;
    for (cnt = 0; cnt < 100; cnt++) ;
    printf("empty-body loop cnt=%d\n", cnt);
    for (int i = 0, j = 10; i < j; i += 2, j -= 1) printf("i=%d j=%d\n", i, j);
    for (int x = -1; x <= 7; x++) printf("classify(%d)=%s\n", x, classify(x));
    for (int x = 0; x < 6; x++) {
        printf("x=%d:", x);
        switch (x) {
        case 0: printf(" zero");
        case 1: printf(" one-or-fell"); break;
        default: printf(" default");
        case 4: printf(" four-or-fell");
        case 5: printf(" five-or-fell"); break;
        case 2: { int local = x * 10; printf(" two local=%d", local); } break;
        }
        printf("\n");
    }
    /* switch with no matching case and no default */
    switch (42) { case 1: printf("never\n"); }
    /* nested switch and break only leaves the inner one */
    for (int a = 0; a < 2; a++) {
        switch (a) {
        case 0:
            switch (a + 1) {
            case 1: printf("inner 1\n"); break;
            }
            printf("after inner\n");
            break;
        case 1: printf("outer 1\n"); break;
        }
    }
    /* while with complex condition and side effects */
    int i = 0, s = 0;
    while (i++ < 10 && (s += i) < 20) ;
    printf("i=%d s=%d\n", i, s);
    /* nested loops with break from inner only */
    int found = 0;
    for (int r = 0; r < 5 && !found; r++)
        for (int c = 0; c < 5; c++)
            if (r * c == 6) { printf("found r=%d c=%d\n", r, c); found = 1; break; }
    /* switch on char */
    const char *str = "a1-b2";
    int letters = 0, digits = 0, other = 0;
    for (const char *p = str; *p; p++) {
        switch (*p) {
        case 'a': case 'b': letters++; break;
        case '0' ... '9': digits++; break;
        default: other++;
        }
    }
    printf("letters=%d digits=%d other=%d\n", letters, digits, other);
    /* if/else chains and dangling else */
    for (int v = 0; v < 4; v++) {
        if (v > 0)
            if (v > 2) printf("%d big\n", v);
            else printf("%d small\n", v);
        else if (v == 0) printf("%d zero\n", v);
    }
    /* long long switch */
    long long big = 5000000000LL;
    switch (big) { case 5000000000LL: printf("big case\n"); break; default: printf("no\n"); }
    return 0;
}
