// Issue 15, the default gang count (coordinator's decision): a compute construct without
// `num_gangs` gets one gang per `vector_length` iterations of its first gang loop, at most 256,
// when the loop's bounds are values at region entry; otherwise 8 (§2.5.6: "an implementation-
// defined default will be used; the default may depend on the code within the construct").
// Every gang runs the code before the gang loop (gang-redundant mode, §2.5.1), so an atomic
// counter there counts the gangs. The count depends on the code only: the same on any machine
// and any --threads.
#include <stdio.h>

static int rows = 40, cols = 50;

/* A gang loop of n iterations in a parallel region: how many gangs ran it. */
static int gangs_for(int n, float *out)
{
    int gangs = 0;
#pragma acc parallel copy(gangs) copyout(out[0:n])
    {
#pragma acc atomic update
        gangs++;
#pragma acc loop gang vector
        for (int i = 0; i < n; i++)
            out[i] = 0.5f * i;
    }
    return gangs;
}

int main(void)
{
    static float out[100000];
    int counts[] = {3, 32, 33, 1000, 100000};
    for (int k = 0; k < 5; k++) {
        int g = gangs_for(counts[k], out);
        printf("%6d iterations: %3d gangs, out[last] = %.1f\n", counts[k], g, out[counts[k] - 1]);
    }

    /* collapse(2) over globals: 40 x 50 = 2000 iterations. */
    static int grid[40][50];
    int gangs = 0;
#pragma acc parallel copy(gangs) copyout(grid)
    {
#pragma acc atomic update
        gangs++;
#pragma acc loop gang collapse(2)
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                grid[i][j] = i * cols + j;
    }
    printf("collapse(2), %d x %d: %d gangs, grid[39][49] = %d\n", rows, cols, gangs, grid[39][49]);

    /* A longer vector: 1000 iterations in vectors of 64. */
    gangs = 0;
#pragma acc parallel copy(gangs) copyout(out[0:1000]) vector_length(64)
    {
#pragma acc atomic update
        gangs++;
#pragma acc loop gang vector
        for (int i = 0; i < 1000; i++)
            out[i] = i;
    }
    printf("vector_length(64), 1000 iterations: %d gangs\n", gangs);

    /* A downward loop with a step of 3 from a variable bound: 1 + 299 / 3 = 100 iterations. */
    int top = 299;
    gangs = 0;
#pragma acc parallel copy(gangs) copyout(out[0:300])
    {
#pragma acc atomic update
        gangs++;
#pragma acc loop gang vector
        for (int i = top; i >= 0; i -= 3)
            out[i] = -1.0f;
    }
    printf("i = %d down to 0 by 3: %d gangs\n", top, gangs);

    /* The bound is computed inside the region: not known at entry, the old default of 8. */
    gangs = 0;
#pragma acc parallel copy(gangs) copyout(out[0:500])
    {
        int n = 500;
#pragma acc atomic update
        gangs++;
#pragma acc loop gang vector
        for (int i = 0; i < n; i++)
            out[i] = 2.0f;
    }
    printf("bound set in the region: %d gangs\n", gangs);

    /* num_gangs still decides. */
    gangs = 0;
#pragma acc parallel copy(gangs) copyout(out[0:1000]) num_gangs(5)
    {
#pragma acc atomic update
        gangs++;
#pragma acc loop gang vector
        for (int i = 0; i < 1000; i++)
            out[i] = 3.0f;
    }
    printf("num_gangs(5): %d gangs\n", gangs);
    return 0;
}
