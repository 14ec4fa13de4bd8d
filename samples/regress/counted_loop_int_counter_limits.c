// Issue 15 (native engine, counted loops run without re-normalising their counter): `int`
// counters whose bounds sit at the ends of the type, and index arithmetic that would wrap in
// `int` (C11 §6.2.5p9 for the unsigned one; the signed ones stay in range here), must give the
// interpreter's words: the loop-entry check of the native engine declines a loop whose counter
// or index could leave its type, and the loop runs as written.
#include <limits.h>
#include <stdio.h>

static int table[16];

int main(void)
{
    for (int i = 0; i < 16; i++)
        table[i] = i * i;
    /* The counter ends at INT_MAX: the loop's last value is the type's largest. */
    long count = 0;
    int last = 0;
    for (int i = INT_MAX - 20; i < INT_MAX; i++) {
        count++;
        last = i;
    }
    printf("count %ld last %d\n", count, last);
    /* An index offset by a large constant, brought back in range by unsigned wrap-around. */
    unsigned base = UINT_MAX - 3;
    long s = 0;
    for (unsigned u = 0; u < 12; u++)
        s += table[(base + u + 4) % 16];
    printf("wrapped sum %ld\n", s);
    /* An affine index next to INT_MAX, and an unsigned index that wraps back into the table. */
    long near = 0;
    for (int i = INT_MAX - 6; i < INT_MAX; i++)
        near += table[i - (INT_MAX - 10)];
    unsigned wrapped = 0;
    for (unsigned u = 4; u < 16; u++)
        wrapped += table[u + base];
    printf("near %ld wrapped %u\n", near, wrapped);
    /* A counter counting down to INT_MIN + 1 (>=). */
    long down = 0;
    for (int i = INT_MIN + 10; i >= INT_MIN + 1; i--)
        down += table[(i - INT_MIN) % 16];
    printf("down %ld\n", down);
    /* Affine indices with a stride and an offset, through a pointer to rows. */
    int (*rows)[4] = (int (*)[4])table;
    long r = 0;
    for (int j = 0; j < 4; j++)
        r += rows[j][3 - j] + rows[3 - j][j];
    printf("rows %ld\n", r);
    return 0;
}
