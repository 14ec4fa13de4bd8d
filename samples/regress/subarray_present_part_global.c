// Issue 12 item 2 (session 6, item 3): a global array mapped in part by a data construct
// (`copy(grid[8:48])`); kernels inside it name a smaller part `present(grid[16:8])`, which is
// present (it lies inside the mapped data, §2.6.5.6), and may reach any element of the mapped
// part — but a loop starting at 0 reads grid[0], which has no device copy: out of bounds at the
// access, naming the mapped part `grid[8:48]`. accsim read zeros there (no lower bound on device
// blocks). The first two kernels are correct and must stay silent.
// expect-exit: 3
// expect-stderr: the device copy of `grid[8:48]`
// expect-stderr: before the mapped part
#include <stdio.h>

float grid[64];

int main(void)
{
    for (int i = 0; i < 64; i++) grid[i] = i;
#pragma acc data copy(grid[8:48])
    {
#pragma acc parallel loop present(grid[16:8])
        for (int i = 16; i < 24; i++) grid[i] = -grid[i];
#pragma acc parallel loop present(grid[16:8])
        for (int i = 8; i < 56; i++) grid[i] += 1.0f;
#pragma acc parallel loop present(grid[16:8])
        for (int i = 0; i < 8; i++) grid[i + 8] = grid[i]; /* expect: out-of-bounds */
    }
    printf("%g %g\n", grid[20], grid[40]);
    return 0;
}
