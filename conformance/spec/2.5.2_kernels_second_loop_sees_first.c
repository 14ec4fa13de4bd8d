// §2.5.2: "The compiler will break the code in the kernels region into a sequence of accelerator
// kernels. Typically, each loop nest will be a distinct kernel." The kernels run in order, so the
// second loop reads every value the first one wrote.
#include <stdio.h>
#define N 500
int main(void) {
    static double u[N], v[N];
#pragma acc kernels create(u) copyout(v)
    {
        for (int i = 0; i < N; i++) u[i] = i * 0.5;
        for (int i = 0; i < N; i++) v[i] = u[N - 1 - i] + 1.0;
    }
    printf("v[0] = %.1f, v[499] = %.1f\n", v[0], v[499]);
    return 0;
}
