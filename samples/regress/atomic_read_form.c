// Issue 12, compile-time errors: under `atomic read` the statement must be `v = x;` (OpenACC 2.0
// §2.12, `atomic`); an increment there is an update (gcc: "expected '=' before ';' token"). Also
// `atomic capture` needs an update of `x`, not a plain `v = x;`. Both sites: the statement and
// the directive.
// expect-exit: 2
// expect-stderr: `atomic read` must be `v = x;`
// expect-stderr: atomic_read_form.c:26:9
// expect-stderr: the `atomic read` directive
// expect-stderr: `v = x;` alone is an atomic read
// expect-stderr: atomic_read_form.c:28:9
#include <stdio.h>

#define N 256

int main(void)
{
    int hist[8] = {0};
    int seen = 0, last = 0;
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = (i * 7) % 8;

#pragma acc parallel loop copyin(data) copy(hist, seen, last)
    for (int i = 0; i < N; i++) {
#pragma acc atomic read
        seen++; /* expect: compile-error */
#pragma acc atomic capture
        last = hist[data[i]]; /* expect: compile-error */
#pragma acc atomic update
        hist[data[i]]++;
    }
    printf("%d %d %d\n", hist[0], seen, last);
    return 0;
}
