// Issue 12 item 7 under --strict-2.0: OpenACC 2.0 maps a pointer named whole in a data clause
// as the pointer itself, also a parameter declared as an array (`double C[NI][NJ]` is a
// `double (*)[NJ]`, C11 6.7.6.3), as gcc does: the kernel finds a host address in it. The error
// says that only the 8-byte pointer was mapped and shows the subarray to write.
// expect-exit: 3
// accsim-flags: --strict-2.0
// expect-stderr: device-deref-host-ptr
// expect-stderr: only the 8-byte pointer was mapped, not the data it points to (OpenACC 2.0's reading, --strict-2.0)
// expect-stderr: `C[0:n]`
#include <stdio.h>

#define NI 4
#define NJ 5

static void scale(double C[NI][NJ])
{
#pragma acc data copy(C)
    {
#pragma acc parallel loop collapse(2)
        for (int i = 0; i < NI; i++)
            for (int j = 0; j < NJ; j++)
                C[i][j] *= 2; /* expect: device-deref-host-ptr */
    }
}

int main(void)
{
    double C[NI][NJ];
    for (int i = 0; i < NI; i++)
        for (int j = 0; j < NJ; j++)
            C[i][j] = i + j;
    scale(C);
    printf("C[3][4] = %.0f\n", C[3][4]);
    return 0;
}
