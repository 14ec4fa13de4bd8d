// Issue 17 item 4: a PGI 1.3 `host` loop inside a loop that carries a loop directive cannot run
// on the host while the loop around it runs on the accelerator (1.3 §2.4.1.1: the host loop
// runs "sequentially on the host processor"). accsim says so, at the statement around it. It
// ran the host loop sequentially inside the kernel, by every gang, which raced with the other
// gangs' iterations.
// expect-exit: 2
// expect-stderr: a PGI 1.3 `host` loop inside a loop with a loop directive
// expect-stderr: pgi13_host_loop_inside_parallel_loop.c:18:
// check: skip
#include <stdio.h>

#define N 64

int main(void) {
    static float a[N][N], rowmax[N];
#pragma acc region copyout(a, rowmax)
    {
#pragma acc for parallel
        for (int i = 0; i < N; i++) {
#pragma acc for vector
            for (int j = 0; j < N; j++)
                a[i][j] = (float)((i * j) % 11);
#pragma acc for host
            for (int j = 0; j < N; j++)
                if (a[i][j] > rowmax[i])
                    rowmax[i] = a[i][j];
        }
    }
    printf("%g %g\n", rowmax[1], rowmax[N - 1]);
    return 0;
}
