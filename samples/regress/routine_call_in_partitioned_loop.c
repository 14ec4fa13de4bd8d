// Issue 12, compile-time errors: "a procedure with a routine gang directive may not be called from
// within a loop that has a gang clause" (§2.12.1.1), and a `routine worker` may not be called from
// within a loop that has the worker clause (§2.12.1.2), a `routine vector` not from a vector loop
// (§2.12.1.3). gcc: "routine call uses same OpenACC parallelism as containing loop". Both sites:
// the call and the loop (and the routine directive).
// expect-exit: 2
// expect-stderr: `relax` is a `routine gang`, called inside a `gang` loop
// expect-stderr: routine_call_in_partitioned_loop.c:42:13
// expect-stderr: `scale` is a `routine vector`, called inside a `vector` loop
// expect-stderr: routine_call_in_partitioned_loop.c:45:13
#include <stdio.h>

#define B 4
#define N 128

#pragma acc routine gang
void relax(float *v, int n)
{
#pragma acc loop gang vector
    for (int i = 1; i < n - 1; i++)
        v[i] = 0.5f * (v[i] + v[i + 1]);
}

#pragma acc routine vector
void scale(float *v, int n, float f)
{
#pragma acc loop vector
    for (int i = 0; i < n; i++)
        v[i] *= f;
}

int main(void)
{
    static float blocks[B][N];
    for (int b = 0; b < B; b++)
        for (int i = 0; i < N; i++)
            blocks[b][i] = b + i;
#pragma acc data copy(blocks)
    {
#pragma acc parallel loop gang
        for (int b = 0; b < B; b++)
            relax(blocks[b], N); /* expect: compile-error */
#pragma acc parallel loop gang vector
        for (int b = 0; b < B; b++)
            scale(blocks[b], N, 2.0f); /* expect: compile-error */
    }
    printf("%f\n", blocks[1][1]);
    return 0;
}
