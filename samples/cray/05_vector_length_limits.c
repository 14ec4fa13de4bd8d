// Cray CCE's partitioning (seeds/003, "Partition Mapping": gang → thread block, worker → warp,
// vector → thread) and its limits on the launch clauses (PARALLEL: "If the user specifies
// num_workers, vector_length can only be 32. If the user does not specify num_workers, then
// vector_length can be 1, 32, 64, 128, 256, 512 or 1024"). The first construct is one CCE
// accepts; the second asks for vector_length(100), which OpenACC 2.0 allows and CCE does not:
// `accsim run --cray` warns, and `accsim info --cray` says where each loop's iterations go.
// accsim warns: cray-limit (line 22)
// accsim-flags: --cray
#include <stdio.h>

#define N 64

int main(void) {
    static float a[N][N];
    float total = 0;
    #pragma acc parallel loop gang num_gangs(N) num_workers(4) vector_length(32) copyout(a)
    for (int i = 0; i < N; i++) {
        #pragma acc loop vector
        for (int j = 0; j < N; j++)
            a[i][j] = i + 0.5f * j;
    }
    #pragma acc parallel loop reduction(+:total) vector_length(100) copyin(a)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            total += a[i][j];
    printf("total = %.1f\n", total);
    return 0;
}
