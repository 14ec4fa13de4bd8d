// Issue 14, untrusted programs: a gang count computed as a negative `int` (a bug in the
// program's arithmetic) panicked accsim ("capacity overflow", exit 101). §2.5.6: `num_gangs`
// is the number of gangs, so a launch with a negative one is a runtime error (exit 3).
// expect-exit: 3
// expect-stderr: error[launch]
// expect-stderr: num_gangs(-2)
#include <stdio.h>

#define N 1000

int main(void) {
    float x[N], y[N];
    int chunk = 256;
    int gangs = (N - 4 * chunk) / 12; /* meant (N + chunk - 1) / chunk */
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
#pragma acc parallel loop num_gangs(gangs) copyin(x) copy(y) /* expect: launch */
    for (int i = 0; i < N; i++)
        y[i] += 2.0f * x[i];
    printf("%f\n", y[N - 1]);
    return 0;
}
