// Issue 14 (file I/O, the last stdio calls): a lab program reads a matrix with a hand-written
// scanner that peeks with getc/ungetc (C11 7.21.7.10), then reads it again through stdin with
// freopen (7.21.5.4) and scanf, and computes a matrix-vector product in a kernel. Under --sandbox
// with only --allow-read, its clean-up of scratch files with remove/rename (7.21.4.1, 7.21.4.2)
// is refused with EACCES. ungetc, freopen, remove and rename were link errors before.
// accsim-flags: --sandbox --allow-read samples/regress/data
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH "samples/regress/data/lab_matrix.txt"

/* The next number in `f` (skipping blanks), its characters taken while they fit a number. */
static int next_number(FILE *f, double *out) {
    char text[64];
    int c, n = 0;
    while ((c = getc(f)) != EOF && isspace(c))
        ;
    while (c != EOF && (isdigit(c) || c == '-' || c == '.') && n < 63) {
        text[n++] = (char)c;
        c = getc(f);
    }
    if (c != EOF)
        ungetc(c, f); /* the character after the number belongs to the next token */
    text[n] = '\0';
    if (n == 0)
        return 0;
    *out = strtod(text, NULL);
    return 1;
}

int main(void) {
    FILE *f = fopen(PATH, "r");
    if (!f) {
        perror(PATH);
        return 1;
    }
    double rows, cols, a[16], x[4] = {1, 2, 3, 4}, y[4];
    next_number(f, &rows);
    next_number(f, &cols);
    int n = (int)rows * (int)cols;
    for (int i = 0; i < n && i < 16; i++)
        next_number(f, &a[i]);
    printf("scanned %gx%g, last %g, ftell %ld\n", rows, cols, a[n - 1], ftell(f));
    fclose(f);

    if (!freopen(PATH, "r", stdin)) {
        perror("freopen");
        return 1;
    }
    int r, c;
    double check = 0;
    if (scanf("%d %d", &r, &c) != 2)
        return 1;
    for (int i = 0; i < r * c; i++) {
        double v;
        if (scanf("%lf", &v) == 1)
            check += v - a[i];
    }
    printf("stdin agrees: %s\n", check == 0 ? "yes" : "no");

#pragma acc parallel loop copyin(a, x) copyout(y)
    for (int i = 0; i < 4; i++) {
        double s = 0;
        for (int j = 0; j < 4; j++)
            s += a[i * 4 + j] * x[j];
        y[i] = s;
    }
    printf("y = %g %g %g %g\n", y[0], y[1], y[2], y[3]);

    errno = 0;
    int removed = remove("samples/regress/data/lab_matrix.scratch");
    printf("remove: %d (%s)\n", removed, strerror(errno));
    errno = 0;
    int renamed = rename("samples/regress/data/lab_matrix.scratch", "samples/regress/data/lab_matrix.old");
    printf("rename: %d (%s)\n", renamed, strerror(errno));
    return 0;
}
