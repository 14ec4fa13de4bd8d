// Exercises: goto forward and backward, goto out of nested loops, goto
// into cleanup code, labels followed by statements, a loop built from goto.
#include <stdio.h>
#include <stdlib.h>

static int process(int n) {
    int rc = -1;
    int *a = malloc(n * sizeof *a);
    if (!a) goto out;
    int *b = malloc(n * sizeof *b);
    if (!b) goto free_a;
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = n - i; }
    rc = 0;
    for (int i = 0; i < n; i++) rc += a[i] * b[i];
    if (rc > 1000) { rc = 1000; goto free_b; }
    printf("process(%d) computed %d\n", n, rc);
free_b:
    free(b);
free_a:
    free(a);
out:
    return rc;
}

int main(void) {
    int i = 0;
again:
    printf("backward goto i=%d\n", i);
    i++;
    if (i < 3) goto again;

    goto skip;
    printf("this is skipped\n");
skip:
    printf("forward goto landed\n");

    for (int r = 0; r < 10; r++) {
        for (int c = 0; c < 10; c++) {
            if (r * 10 + c == 37) {
                printf("escape at r=%d c=%d\n", r, c);
                goto done;
            }
        }
    }
    printf("not reached\n");
done:
    printf("process -> %d\n", process(5));
    printf("process -> %d\n", process(50));
    /* collatz with goto loop */
    unsigned long x = 27;
    int steps = 0;
top:
    if (x == 1) goto finished;
    x = (x % 2) ? 3 * x + 1 : x / 2;
    steps++;
    goto top;
finished:
    printf("collatz(27) steps=%d\n", steps);
    /* continue-like goto at loop end */
    int sum = 0;
    for (int k = 0; k < 10; k++) {
        if (k % 3 == 0) goto next;
        sum += k;
    next:;
    }
    printf("sum skipping multiples of 3: %d\n", sum);
    /* outer_loop style labeled continue */
    int pairs = 0;
    for (int a = 1; a < 20; a++) {
        for (int b = 1; b < 20; b++) {
            if (a * b > 30) goto next_a;
            if ((a + b) % 7 == 0) pairs++;
        }
    next_a:;
    }
    printf("pairs=%d\n", pairs);
    return 0;
}
