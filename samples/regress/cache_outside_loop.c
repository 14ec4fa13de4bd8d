// Issue 12, compile-time errors: "The cache directive may appear at the top of (inside of) a loop"
// (§2.8). Here it stands in the parallel region before the loop it was meant for. Both sites:
// the `cache` directive and the construct it is in.
// expect-exit: 2
// expect-stderr: `cache` outside any loop
// expect-stderr: cache_outside_loop.c:22:13
// expect-stderr: the `parallel` construct it is in
#include <stdio.h>

#define N 1024

int main(void)
{
    float in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = i % 17;
    out[0] = in[0];
    out[N - 1] = in[N - 1];

#pragma acc parallel copyin(in) copy(out)
    {
#pragma acc cache(in[0:N]) /* expect: compile-error */
#pragma acc loop gang vector
        for (int i = 1; i < N - 1; i++) {
#pragma acc cache(in[i-1:3])
            out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3.0f;
        }
    }
    printf("%f\n", out[N / 2]);
    return 0;
}
